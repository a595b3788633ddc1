// Every operation of the OpenAPI document has a gw command that performs it: the table below maps
// operationId → command, the command must be a command file (which the built manifest lists:
// test/release/build-outputs.test.ts), and running the command against a mock API (answering
// every request with a sample of the documented response) must send the operation's method and
// path. Operations without a command are listed in KNOWN_GAPS.
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {openapiDocument} from '../api/openapi/document.js'
import {at, cliEnv, ROOT, type CliEnv} from '../base/test-support/cli.js'
import {commandFiles} from '../base/test-support/command-files.js'
import {findOperation} from '../engine/test-support/openapi-check.js'

type Json = Record<string, any>

/** operationId → the command that performs it, with arguments for a run against the mock. */
export const COMMAND_OF_OPERATION: Record<string, {command: string; argv: string[]}> = {
  listPayments: {command: 'payments:list', argv: []},
  createPayment: {command: 'payments:create', argv: ['--amount', '2000', '--currency', 'EUR', '--method', 'ideal', '--return-url', 'https://shop.example/return']},
  retrievePayment: {command: 'payments:get', argv: ['pay_123']},
  retrievePaymentRouting: {command: 'payments:explain', argv: ['pay_123']},
  confirmPayment: {command: 'payments:confirm', argv: ['pay_123']},
  capturePayment: {command: 'payments:capture', argv: ['pay_123']},
  incrementAuthorization: {command: 'payments:increment', argv: ['pay_123', '--amount', '3000']},
  cancelPayment: {command: 'payments:cancel', argv: ['pay_123']},
  listCustomers: {command: 'customers:list', argv: []},
  createCustomer: {command: 'customers:create', argv: ['--email', 'a@example.com']},
  retrieveCustomer: {command: 'customers:get', argv: ['cus_123']},
  updateCustomer: {command: 'customers:update', argv: ['cus_123', '--name', 'Ada']},
  deleteCustomer: {command: 'customers:delete', argv: ['cus_123']},
  listPaymentMethods: {command: 'payment-methods:list', argv: []},
  createPaymentMethod: {command: 'payment-methods:create', argv: ['--card', '4242424242424242', '--exp', '12/34', '--cvc', '123']},
  retrievePaymentMethod: {command: 'payment-methods:get', argv: ['pm_123']},
  detachPaymentMethod: {command: 'payment-methods:detach', argv: ['pm_123']},
  listRefunds: {command: 'refunds:list', argv: []},
  createRefund: {command: 'refunds:create', argv: ['--payment', 'pay_123']},
  retrieveRefund: {command: 'refunds:get', argv: ['rf_123']},
  listDisputes: {command: 'disputes:list', argv: []},
  retrieveDispute: {command: 'disputes:get', argv: ['dp_123']},
  submitDisputeEvidence: {command: 'disputes:evidence', argv: ['dp_123', '--field', 'tracking_number=1Z999']},
  acceptDispute: {command: 'disputes:accept', argv: ['dp_123']},
  listEvents: {command: 'events:list', argv: []},
  streamEvents: {command: 'events:tail', argv: []},
  retrieveEvent: {command: 'events:get', argv: ['evt_123']},
  resendEvent: {command: 'events:resend', argv: ['evt_123']},
  listEventDeliveries: {command: 'events:deliveries', argv: ['evt_123']},
  listWebhookEndpoints: {command: 'webhooks:list', argv: []},
  createWebhookEndpoint: {command: 'webhooks:create', argv: ['--url', 'https://example.com/hook', '--events', '*']},
  retrieveWebhookEndpoint: {command: 'webhooks:get', argv: ['wh_123']},
  updateWebhookEndpoint: {command: 'webhooks:update', argv: ['wh_123', '--disable']},
  deleteWebhookEndpoint: {command: 'webhooks:delete', argv: ['wh_123']},
  rotateWebhookEndpointSecret: {command: 'webhooks:rotate-secret', argv: ['wh_123']},
  replayWebhookEndpoint: {command: 'webhooks:replay', argv: ['wh_123', '--since', '2d']},
  listWebhookEndpointDeliveries: {command: 'webhooks:deliveries', argv: ['wh_123']},
  retrieveWebhookDelivery: {command: 'webhooks:delivery', argv: ['whd_123']},
  listProviders: {command: 'providers:list', argv: []},
  retrieveProvider: {command: 'providers:get', argv: ['prov_atlas']},
  simulateRouting: {command: 'routing:simulate', argv: ['--amount', '2000', '--currency', 'EUR', '--method', 'card']},
  listMerchants: {command: 'merchants:list', argv: []},
  createMerchant: {command: 'merchants:create', argv: ['--business-name', 'Shop']},
  retrieveMerchant: {command: 'merchants:get', argv: ['mer_123']},
  updateMerchant: {command: 'merchants:update', argv: ['mer_123', '--email', 'a@example.com']},
  listRoutingRules: {command: 'routing-rules:list', argv: []},
  createRoutingRule: {command: 'routing-rules:create', argv: ['--priority', '1', '--action', 'block']},
  retrieveRoutingRule: {command: 'routing-rules:get', argv: ['rr_123']},
  updateRoutingRule: {command: 'routing-rules:update', argv: ['rr_123', '--priority', '2']},
  deleteRoutingRule: {command: 'routing-rules:delete', argv: ['rr_123']},
  retrieveBalance: {command: 'balance', argv: []},
  listSettlementReports: {command: 'settlement:list', argv: []},
  retrieveSettlementReport: {command: 'settlement:get', argv: ['stl_123']},
  listPayouts: {command: 'payouts:list', argv: []},
  retrievePayout: {command: 'payouts:get', argv: ['po_123']},
  testPaymentAction: {command: 'payments:action', argv: ['pay_123', '--approve']},
  testPaymentReview: {command: 'payments:review', argv: ['pay_123', '--approve']},
  testCreateDispute: {command: 'disputes:simulate', argv: ['--payment', 'pay_123']},
  testResolveDispute: {command: 'disputes:resolve', argv: ['dp_123', '--won']},
  testSetProviderHealth: {command: 'providers:health', argv: ['prov_atlas', '--status', 'degraded']},
  testGetClock: {command: 'clock:get', argv: []},
  testAdvanceClock: {command: 'clock:advance', argv: ['1h']},
  testSetClock: {command: 'clock:set', argv: ['--freeze']},
  createChaosApiFault: {command: 'chaos:api', argv: ['--path', '/payments', '--fault', '503', '--count', '1']},
  createChaosProviderFault: {command: 'chaos:provider', argv: ['prov_atlas', '--down', '--for', '1m']},
  createChaosWebhookFault: {command: 'chaos:webhooks', argv: ['--duplicate-rate', '0.5']},
  listChaos: {command: 'chaos:status', argv: []},
  listCheckoutSessions: {command: 'checkout:list', argv: []},
  createCheckoutSession: {command: 'checkout:create', argv: ['--amount', '2000', '--currency', 'EUR']},
  retrieveCheckoutSession: {command: 'checkout:get', argv: ['cs_123']},
  expireCheckoutSession: {command: 'checkout:expire', argv: ['cs_123']},
  payCheckoutSession: {command: 'checkout:pay', argv: ['cs_123', '--payment-method-id', 'pm_123']},
  clearChaos: {command: 'chaos:clear', argv: []},
  deleteChaosRule: {command: 'chaos:clear', argv: ['chaos_123']},
  testSaveSnapshot: {command: 'snapshots:save', argv: ['-']},
  testLoadSnapshot: {command: 'snapshots:load', argv: [join(ROOT, 'test', 'fixtures', 'snapshot-empty.json')]},
  listRequestLogs: {command: 'logs:tail', argv: ['--last', '5']},
  streamRequestLogs: {command: 'logs:tail', argv: []},
  getOpenApiDocument: {command: 'api:spec', argv: []},
  retrieveCurrentAccount: {command: 'whoami', argv: []},
  listAccounts: {command: 'accounts:list', argv: []},
  createAccount: {command: 'accounts:create', argv: ['--name', 'ci']},
  retrieveAccount: {command: 'accounts:get', argv: ['acct_123']},
  updateAccount: {command: 'accounts:update', argv: ['acct_123', '--name', 'team']},
  deleteAccount: {command: 'accounts:delete', argv: ['acct_123', '--yes']},
  listApiKeys: {command: 'keys:list', argv: ['--json']},
  createApiKey: {command: 'keys:create', argv: ['--permissions', 'payments:read']},
  retrieveCurrentApiKey: {command: 'keys:roll', argv: []},
  retrieveApiKey: {command: 'keys:get', argv: ['key_123']},
  rollApiKey: {command: 'keys:roll', argv: ['key_123']},
  revokeApiKey: {command: 'keys:revoke', argv: ['key_123', '--yes']},
}

/** Operations without a command: only those for machines (tag Operations: load balancers, Prometheus). */
export const KNOWN_GAPS: Record<string, string> = {
  getLiveness: 'for load balancers (GET /healthz); people use gw whoami',
  getReadiness: 'for load balancers (GET /readyz); people use gw whoami',
  getMetrics: 'for Prometheus (GET /metrics)',
}

const doc = openapiDocument() as Json
const operations = Object.values(doc.paths as Json).flatMap((item) => Object.values(item as Json)).filter((o) => (o as Json).operationId) as Json[]
const commands = commandFiles()

describe('every operation in the OpenAPI document has a gw command', () => {
  it('the table covers every operation, and only operations', () => {
    const ids = operations.map((o) => o.operationId as string)
    const covered = [...Object.keys(COMMAND_OF_OPERATION), ...Object.keys(KNOWN_GAPS)]
    expect(ids.filter((id) => !covered.includes(id)), 'operations with neither a command nor a known gap').toEqual([])
    expect(covered.filter((id) => !ids.includes(id)), 'table entries that are not operations').toEqual([])
    expect(Object.keys(KNOWN_GAPS).filter((id) => id in COMMAND_OF_OPERATION), 'a gap that has a command: drop it from KNOWN_GAPS').toEqual([])
    // only what machines ask (a load balancer, Prometheus) may go without a command
    expect(Object.keys(KNOWN_GAPS).filter((id) => operations.find((o) => o.operationId === id)?.tags?.[0] !== 'Operations')).toEqual([])
  })

  it('every command in the table is a command file (one the oclif manifest lists)', () => {
    for (const {command} of Object.values(COMMAND_OF_OPERATION)) expect(commands.has(command), command).toBe(true)
  })
})

// ---------------------------------------------------------------- each command performs its operation

function resolveRef(s: Json): Json {
  let n = s
  while (n && typeof n.$ref === 'string') n = n.$ref.slice(2).split('/').reduce((o: Json, k: string) => o[k.replace(/~1/g, '/')], doc)
  return n
}

/** A value the schema accepts, built from the document (first enum value, prefixed ids, nulls where allowed). */
function sample(schema: Json, depth = 0): unknown {
  const s = resolveRef(schema)
  if (depth > 12) return null
  if (s.const !== undefined) return s.const
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null) ?? null
  if (Array.isArray(s.allOf)) return sample(s.allOf[0], depth + 1)
  const alt = (s.anyOf ?? s.oneOf) as Json[] | undefined
  if (alt) return sample(alt.find((b) => resolveRef(b).type !== 'null') ?? alt[0]!, depth + 1)
  const type = Array.isArray(s.type) ? (s.type.includes('null') ? 'null' : s.type[0]) : s.type
  switch (type) {
    case 'null':
      return null
    case 'string': {
      if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z'
      if (s.format === 'date') return '2026-01-01'
      const p = String(s.pattern ?? '')
      const prefix = /^\^([a-z]+_)/.exec(p)
      if (prefix) return `${prefix[1]}123`
      if (p === '^[A-Z]{3}$') return 'EUR'
      if (p === '^[A-Z]{2}$') return 'NL'
      if (p === '^[0-9]{4}$') return '4242'
      if (p.startsWith('^https://') || s.format === 'uri') return 'https://example.com/x'
      return 'x'
    }
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1)
    case 'boolean':
      return false
    case 'array':
      return []
    default: {
      const o: Json = {}
      for (const k of (s.required ?? []) as string[]) o[k] = sample(s.properties[k], depth + 1)
      return o
    }
  }
}

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

describe.each(Object.entries(COMMAND_OF_OPERATION))('%s', (operationId, {command, argv}) => {
  it(`gw ${command.replace(/:/g, ' ')} sends it`, async () => {
    const op = operations.find((o) => o.operationId === operationId)!
    const seen: string[] = []
    cli.pool
      .intercept({path: () => true, method: () => true})
      .reply((req) => {
        const path = String(req.path).replace(/^\/v1/, '')
        const found = findOperation(req.method, path)
        if (!found) return {statusCode: 404, data: {error: {type: 'invalid_request_error', code: 'route_unknown', message: 'no such route', doc_url: 'https://x', request_id: 'req_1'}}}
        seen.push(found.op.operationId)
        const [status, res] = Object.entries(found.op.responses as Json).find(([s]) => s.startsWith('2'))!
        const content = resolveRef(res as Json).content as Json
        const headers = {'content-type': 'application/json', 'request-id': 'req_1'}
        if (content['text/event-stream']) {
          // the tail runs until stopped, as a user would stop it
          setTimeout(() => process.emit('SIGINT'), 50)
          return {statusCode: 200, data: ': connected\n\n', responseOptions: {headers: {...headers, 'content-type': 'text/event-stream'}}}
        }
        return {statusCode: Number(status), data: JSON.stringify(sample(content['application/json'].schema)), responseOptions: {headers}}
      })
      .persist()
    const mod = (await import(`./${command.replace(/:/g, '/')}.js`)) as {default: {run(argv?: string[], opts?: unknown): Promise<unknown>; flags?: object; baseFlags?: object}}
    // the flags it takes, the global ones included (as the manifest lists them)
    const flags = {...mod.default.baseFlags, ...mod.default.flags}
    const extra = ['--json', ...('yes' in flags ? ['--yes'] : [])]
    const r = await cli.run(mod.default, [...at(), ...extra, ...argv])
    expect(seen, `${command} ${argv.join(' ')}: stderr ${r.stderr}`).toContain(operationId)
    expect(op).toBeDefined()
  })
})
