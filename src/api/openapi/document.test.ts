// The OpenAPI document covers exactly what the engine routes, with the shared vocabulary, and the
// engine and the package serve the same document.
import {routes} from '../../engine/http/routes.js'
import {readFileSync} from 'node:fs'
import {resolve} from 'node:path'
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {METHOD_CODES as ENGINE_METHOD_CODES} from '../catalog.js'
import {DECLINES} from '../../engine/domain/declines.js'
import {bootEngine, type TestEngine} from '../../engine/test-support/harness.js'
import {EVENT_TYPES, MAX_ENABLED_EVENTS} from '../event-types.js'
import {EVIDENCE_LIMITS} from '../dispute-evidence.js'
import {PAYMENT_STATUSES} from '../types.js'
import {OPERATION_IDS, OPERATION_PERMISSIONS, openapiDocument, permissionName} from './document.js'
import {API_DOC, permissionTable, permissionTableIn} from './generate.js'
import {CARD_ERROR_CODES, METHOD_CODES, requestSchemas, responseSchemas} from './schemas.js'

type Json = Record<string, any>
const doc = openapiDocument() as Json

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t?.stop())

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with a bearer security scheme applied to every operation but the document itself', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({type: 'http', scheme: 'bearer'})
    expect(doc.security).toEqual([{bearerAuth: []}])
    const open = Object.values(doc.paths as Json).flatMap((item) => Object.values(item as Json)).filter((op: Json) => op.operationId && op.security?.length === 0)
    // the document itself, and what a load balancer and Prometheus ask (at the root)
    expect(open.map((op: Json) => op.operationId)).toEqual(['getLiveness', 'getReadiness', 'getMetrics', 'getOpenApiDocument'])
  })

  it('documents exactly the routes the engine serves', () => {
    // each route is named by its operationId, whose method, path and schemas are the document's: every operation has one
    const engine = routes(t.engine.app).router.list()
    const documented = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json)
        .filter(([m]) => m !== 'servers')
        .map(([m, op]) => `${m.toUpperCase()} ${path} ${(op as Json).operationId}`),
    )
    // the pipeline serves the document itself, before authentication, and the operations at the root (operations.ts)
    expect(documented.filter((r) => !/^GET \/(openapi\.json|healthz|readyz|metrics) /.test(r)).sort()).toEqual(engine.sort())
  })

  it("docs/api.md's permission table is the document's x-permission, operation for operation (npm run contract writes it)", () => {
    const md = readFileSync(API_DOC, 'utf8')
    expect(permissionTableIn(md), 'docs/api.md\'s permission table is stale: run npm run contract').toBe(permissionTable(doc))
    const table = new Map<string, string>()
    for (const m of md.matchAll(/^\| `([a-z_:,]+)` \| ([A-Za-z, ]+) \|$/gm)) for (const id of m[2]!.split(', ')) table.set(id, m[1]!)
    const documented = new Map(OPERATION_IDS.filter((id) => OPERATION_PERMISSIONS.has(id)).map((id) => [id, permissionName(OPERATION_PERMISSIONS.get(id)!)]))
    expect(Object.fromEntries(table)).toEqual(Object.fromEntries(documented))
    // resending or replaying an event hands over its payload, so it needs events:read too (docs/decisions.md#permissions)
    expect(doc.paths['/events/{id}/resend'].post['x-permission']).toBe('webhooks:write,events:read')
    expect(doc.paths['/webhook_endpoints/{id}/replay'].post['x-permission']).toBe('webhooks:write,events:read')
  })

  it('has one readable operationId per operation', () => {
    expect(new Set(OPERATION_IDS).size).toBe(OPERATION_IDS.length)
    for (const id of OPERATION_IDS) expect(id).toMatch(/^[a-z][A-Za-z]+$/)
    expect(OPERATION_IDS).toEqual(expect.arrayContaining(['createPayment', 'listPayments', 'retrievePayment', 'capturePayment', 'createRefund', 'submitDisputeEvidence']))
  })

  it('uses the shared vocabulary: 43 method codes, payment statuses, event types, decline codes', () => {
    expect([...METHOD_CODES]).toEqual([...ENGINE_METHOD_CODES])
    expect(METHOD_CODES).toHaveLength(43)
    expect(doc.components.schemas.MethodCode.enum).toEqual([...METHOD_CODES])
    expect(doc.components.schemas.PaymentStatus.enum).toEqual([...PAYMENT_STATUSES])
    expect(doc.components.schemas.Event.properties.type.examples).toEqual([...EVENT_TYPES])
    const finals = Object.entries(DECLINES).filter(([code, d]) => d.kind === 'final' && !['payment_blocked', 'refund_failed'].includes(code)).map(([c]) => c)
    expect([...CARD_ERROR_CODES].sort()).toEqual(finals.sort())
  })

  it('gives every id its prefix pattern', () => {
    const s = doc.components.schemas
    const prefixes: [string, string][] = [
      ['Payment', 'pay'], ['Customer', 'cus'], ['PaymentMethod', 'pm'], ['Refund', 'rf'], ['Dispute', 'dp'], ['Event', 'evt'], ['WebhookEndpoint', 'wh'],
      ['WebhookDelivery', 'whd'], ['Provider', 'prov'], ['Merchant', 'mer'], ['RoutingRule', 'rr'], ['SettlementReport', 'stl'], ['Payout', 'po'],
    ]
    for (const [name, prefix] of prefixes) expect(s[name].properties.id.pattern, name).toBe(`^${prefix}_[0-9A-Za-z]+$`)
    expect(doc.paths['/payments/{id}'].get.parameters[0]).toMatchObject({in: 'path', name: 'id', schema: {pattern: '^pay_[0-9A-Za-z]+$'}})
  })

  it('takes its limits from the constants the code names them by (changing one changes what the validator enforces)', () => {
    const s = doc.components.schemas
    const evidence = s.DisputeEvidenceSubmit.properties
    expect(evidence.fields).toMatchObject({maxProperties: EVIDENCE_LIMITS.maxFields, propertyNames: {maxLength: EVIDENCE_LIMITS.maxKeyLength}, additionalProperties: {maxLength: EVIDENCE_LIMITS.maxValueLength}})
    expect(evidence.files).toMatchObject({maxItems: EVIDENCE_LIMITS.maxFiles, items: {maxLength: EVIDENCE_LIMITS.maxUrlLength}})
    expect(s.WebhookEndpointCreate.properties.enabled_events.maxItems).toBe(MAX_ENABLED_EVENTS)
    expect(s.WebhookEndpointUpdate.properties.enabled_events.maxItems).toBe(MAX_ENABLED_EVENTS)
  })

  it('keeps request and response schema names apart', () => {
    const a = Object.keys(responseSchemas())
    const b = Object.keys(requestSchemas())
    expect(a.filter((n) => b.includes(n))).toEqual([])
  })

  it('documents the headers: Idempotency-Key ≤ 255 on POSTs, Service-Version, Request-Id, Retry-After on 429, Idempotent-Replayed', () => {
    const create = doc.paths['/payments'].post
    expect(create.parameters).toEqual(expect.arrayContaining([{$ref: '#/components/parameters/Idempotency-Key'}, {$ref: '#/components/parameters/Service-Version'}]))
    expect(doc.components.parameters['Idempotency-Key'].schema.maxLength).toBe(255)
    expect(create.responses['201'].headers).toHaveProperty('Request-Id')
    expect(create.responses['201'].headers).toHaveProperty('Idempotent-Replayed')
    expect(doc.components.responses.TooManyRequests.headers).toHaveProperty('Retry-After')
    for (const status of ['400', '401', '402', '404', '409', '413', '429', '500']) expect(create.responses[status], status).toBeDefined()
  })
})

describe('GET /v1/openapi.json', () => {
  it('serves the document without an API key, with a Request-Id', async () => {
    const r = await t.api('GET', '/openapi.json', undefined, {authorization: ''})
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/^application\/json/)
    expect(r.headers['request-id']).toMatch(/^req_/)
    expect(r.body).toEqual(JSON.parse(JSON.stringify(doc)))
  })

  it('still checks Service-Version', async () => {
    const r = await t.api('GET', '/openapi.json', undefined, {'service-version': 'v2'})
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe('version_invalid')
  })

  it('is GET only: a POST is an authenticated unknown route', async () => {
    const r = await request(`${t.engine.baseUrl}/openapi.json`, {method: 'POST', dispatcher: t.agent})
    expect(r.statusCode).toBe(401)
    await r.body.text()
  })

  // that the build writes this document to dist/openapi.json: test/release/build-outputs.test.ts
  it('is shipped in the package as gw/openapi.json (dist/openapi.json, built by npm run build)', () => {
    const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../package.json'), 'utf8'))
    expect(pkg.exports['./openapi.json']).toBe('./dist/openapi.json')
    expect(pkg.files).toContain('dist')
  })
})
