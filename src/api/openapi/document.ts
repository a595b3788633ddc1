// The OpenAPI 3.1 contract of the gateway API, as the embedded engine serves it. One source:
// the engine serves it at GET /v1/openapi.json, the build writes it to dist/openapi.json (shipped
// in the package as `gw/openapi.json`), the engine's tests validate every response against it,
// the request validator (engine/http/openapi-validate.ts) is compiled from it, and the
// TypeScript types of every shape and operation are generated from it (src/api/contract.gen.ts,
// `npm run contract`). Each resource family writes its shapes and operations in
// resources/<family>.ts; this file assembles them.
import {errorResponse, RESPONSE_NAME} from './errors.js'
import type {ErrorStatus, OpSpec, Param, Schema} from './kit.js'
import {ref} from './kit.js'
import {ENGINE_TIME_HEADER} from '../engine-time.js'
import {FAMILIES, requestSchemas, responseSchemas} from './schemas.js'


const idPath = (prefix: string, what: string): Param => ({
  name: 'id',
  schema: {type: 'string', pattern: `^${prefix}_[0-9A-Za-z]+$`},
  description: `The ${what} id (\`${prefix}_...\`). Any other id is 404 resource_missing.`,
  required: true,
})

const PREFIX_OF_PATH: Record<string, [string, string]> = {
  payments: ['pay', 'payment'],
  customers: ['cus', 'customer'],
  payment_methods: ['pm', 'payment method'],
  refunds: ['rf', 'refund'],
  disputes: ['dp', 'dispute'],
  events: ['evt', 'event'],
  webhook_endpoints: ['wh', 'webhook endpoint'],
  webhook_deliveries: ['whd', 'webhook delivery'],
  providers: ['prov', 'provider'],
  merchants: ['mer', 'merchant'],
  routing_rules: ['rr', 'routing rule'],
  settlement_reports: ['stl', 'settlement report'],
  payouts: ['po', 'payout'],
  accounts: ['acct', 'account'],
  api_keys: ['key', 'API key'],
  chaos: ['chaos', 'chaos rule'],
  checkout_sessions: ['cs', 'checkout session'],
}

const OPS: readonly OpSpec[] = FAMILIES.flatMap((f) => f.operations)

const TAGS: Record<string, string> = {
  Payments: 'Payments across 43 methods, routed over several providers.',
  Customers: 'Customers group payments and saved payment methods.',
  'Payment methods': 'Saved card instruments.',
  'Checkout sessions': 'Hosted checkout: a page of {checkout_url} where the customer pays, tries again after a decline, and returns to the shop.',
  Refunds: 'Refunds of succeeded payments.',
  Disputes: 'Chargebacks opened by the card network.',
  Events: 'The immutable event log.',
  Webhooks: 'Webhook endpoints and their deliveries.',
  Providers: 'The providers payments are routed to (opaque ids).',
  Merchants: 'Sub-merchants with KYB status and capabilities.',
  'Routing rules': 'Rules that prefer, split or block providers.',
  Balance: 'Available and pending balance per currency.',
  Settlement: 'Settlement reports and payouts.',
  'Test helpers': 'Stand-ins for the customer, the operator and the card network (test keys only).',
  Chaos: 'Failures a merchant switches on to rehearse: API, provider and webhook faults that end by themselves (test keys only).',
  'Request log': "The engine's recent API requests, for operators (gw logs tail).",
  Accounts: "Accounts that share one engine without seeing each other, managed with the engine's own account's keys.",
  'API keys': 'Secret, restricted and publishable keys of an account.',
  Meta: 'The contract itself.',
  Operations: 'What a load balancer and Prometheus ask an instance (at the root, without a key).',
}

function operation(o: OpSpec): Schema {
  const parameters: unknown[] = []
  const m = /^\/(?:test_helpers\/)?([a-z_]+)\/\{id\}/.exec(o.path)
  if (m) {
    const [prefix, what] = PREFIX_OF_PATH[m[1]!]!
    parameters.push({in: 'path', ...idPath(prefix, what)})
  }
  if (o.list) parameters.push({$ref: '#/components/parameters/limit'}, {$ref: '#/components/parameters/starting_after'}, {$ref: '#/components/parameters/ending_before'})
  for (const p of o.query ?? []) parameters.push({in: 'query', name: p.name, description: p.description, schema: p.schema, ...(p.required ? {required: true} : {})})
  for (const h of o.headers ?? []) parameters.push({in: 'header', name: h.name, description: h.description, schema: h.schema})
  if (o.method === 'post') parameters.push({$ref: '#/components/parameters/Idempotency-Key'})
  parameters.push({$ref: '#/components/parameters/Service-Version'})

  // every authenticated operation reaches the store (the rate limit is the first), which may be unreachable
  const statuses: ErrorStatus[] = o.public ? [400, 408, 431, 500] : [400, 401, 403, 408, 429, 431, 500, 503]
  if (o.method !== 'get') statuses.push(413, 415)
  if (o.method === 'post') statuses.push(409)
  for (const s of o.errors ?? []) if (!statuses.includes(s)) statuses.push(s)
  statuses.sort((a, b) => a - b)

  const successHeaders: Record<string, unknown> = {'Request-Id': {$ref: '#/components/headers/Request-Id'}}
  if (!o.public) successHeaders[ENGINE_TIME_HEADER] = {$ref: `#/components/headers/${ENGINE_TIME_HEADER}`}
  if (o.method === 'post') successHeaders['Idempotent-Replayed'] = {$ref: '#/components/headers/Idempotent-Replayed'}
  const content = typeof o.response === 'string' ? {'application/json': {schema: ref(o.response)}} : o.response
  const responses: Record<string, unknown> = {[String(o.status ?? 200)]: {description: o.responseDescription, headers: successHeaders, content}}
  for (const s of statuses) responses[String(s)] = {$ref: `#/components/responses/${RESPONSE_NAME[s]}`}
  Object.assign(responses, o.own)

  const op: Schema = {
    operationId: o.id,
    tags: [o.tag],
    summary: o.summary,
    ...(o.description ? {description: o.description} : {}),
    ...(o.public ? {security: []} : {}),
    ...(o.testHelper ? {'x-test-helper': true} : {}),
    ...(o.perm ? {'x-permission': permissionName(permsOf(o.perm))} : {}),
    parameters,
  }
  if (o.body) {
    op.requestBody = {
      required: o.bodyRequired ?? false,
      content: {'application/json': {schema: ref(o.body)}},
    }
  }
  op.responses = responses
  return op
}

let cached: Schema | undefined

/** The whole document (built once; treat it as read-only). */
export function openapiDocument(): Schema {
  if (cached) return cached
  const paths: Record<string, Record<string, Schema>> = {}
  for (const o of OPS) {
    const item = (paths[o.path] ??= {})
    item[o.method] = operation(o)
    // operations at the root: another server than the API's /v1
    if (o.root) item.servers = [{url: 'https://{host}:{port}', description: "An engine instance's root.", variables: {host: {default: '127.0.0.1'}, port: {default: '8443'}}}] as unknown as Schema
  }
  const responses: Record<string, Schema> = {}
  for (const [s, name] of Object.entries(RESPONSE_NAME)) responses[name] = errorResponse(Number(s) as ErrorStatus)
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'gw payment gateway API',
      version: 'v1',
      summary: 'A REST payment gateway: 43 payment methods routed across several providers.',
      description:
        "The gateway API as the embedded engine (`gw serve`) serves it; its rules are written down in the gw repository's docs/api.md and docs/decisions.md. " +
        'JSON over TLS only; money is integer minor units everywhere; every response carries `Request-Id`, and every answer to an authenticated request the account\'s engine time (`Gw-Engine-Time`). ' +
        'POST requests take an `Idempotency-Key` (replayed for 24 h). Lists are cursor-paginated, newest first.',
      license: {name: 'MIT', identifier: 'MIT'},
    },
    servers: [
      {
        url: 'https://{host}:{port}/v1',
        description: 'A gateway; `gw serve` listens on 127.0.0.1:8443 by default.',
        variables: {host: {default: '127.0.0.1'}, port: {default: '8443'}},
      },
    ],
    security: [{bearerAuth: []}],
    tags: Object.entries(TAGS).map(([name, description]) => ({name, description})),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A secret or restricted key of an account: `Authorization: Bearer sk_test_...` (or `rk_test_...`, which may do what its permissions allow: each operation\'s `x-permission`). Publishable keys (`pk_test_...`) are for browsers and hosted checkout only. sk_live_ keys get 401 live_mode_unavailable on the local engine.',
        },
      },
      parameters: {
        limit: {in: 'query', name: 'limit', description: 'Page size, 1 to 100.', schema: {type: 'integer', minimum: 1, maximum: 100, default: 20}},
        starting_after: {in: 'query', name: 'starting_after', description: 'Objects older than this id (the last id of the current page). Not with ending_before.', schema: {type: 'string', minLength: 1, 'x-hint': 'an object id'}},
        ending_before: {in: 'query', name: 'ending_before', description: 'Objects newer than this id (the first id of the current page). Not with starting_after.', schema: {type: 'string', minLength: 1, 'x-hint': 'an object id'}},
        'Idempotency-Key': {in: 'header', name: 'Idempotency-Key', description: 'Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409.', schema: {type: 'string', minLength: 1, maxLength: 255}},
        'Service-Version': {in: 'header', name: 'Service-Version', description: 'Pins the version; anything but v1 is 400 version_invalid.', schema: {type: 'string', const: 'v1'}},
      },
      headers: {
        'Request-Id': {description: 'Unique per response; error bodies repeat it in error.request_id.', schema: {type: 'string', pattern: '^req_[0-9A-Za-z]+$'}},
        'Idempotent-Replayed': {description: '`true` when this is a replay of an earlier request with the same Idempotency-Key.', schema: {type: 'string', const: 'true'}},
        'Retry-After': {description: 'Whole seconds to wait, at least 1.', schema: {type: 'integer', minimum: 1}},
        [ENGINE_TIME_HEADER]: {
          description:
            "The account's engine time when the answer was made (ISO 8601, UTC, milliseconds): on every answer to a request whose key was authenticated, whatever the key may do. A test clock (`POST /test_helpers/clock/advance`) runs ahead of real time and deadlines (`evidence_due_by`) follow it: a client shows time left against this, not its own clock (docs/decisions.md#the-gateways-clock).",
          schema: {type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$', examples: ['2026-03-14T09:26:53.589Z']},
        },
      },
      responses,
      schemas: {...responseSchemas(), ...requestSchemas()},
    },
  }
  return cached
}

const permsOf = (perm: string | readonly string[]): readonly string[] => (typeof perm === 'string' ? [perm] : perm)

/** How an operation's permissions are written (x-permission, a 403's error.permission): one, or several joined by commas. */
export const permissionName = (perms: readonly string[]): string => perms.join(',')

/** The permissions of each operation (x-permission), all of which a key must hold, by operationId; public operations have none. */
export const OPERATION_PERMISSIONS: ReadonlyMap<string, readonly string[]> = new Map(OPS.filter((o) => o.perm).map((o) => [o.id, permsOf(o.perm!)]))

/** Operation ids in document order. */
export const OPERATION_IDS: readonly string[] = OPS.map((o) => o.id)

/** Each operation as its resource family writes it (method, path, x-test-helper, ...), by operationId: what the engine's router reads. */
export const OPERATIONS: ReadonlyMap<string, OpSpec> = new Map(OPS.map((o) => [o.id, o]))
