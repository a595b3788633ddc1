// The accounts' isolation suite (docs/decisions.md#accounts), run against any engine set-up (one SQLite engine, one on
// PostgreSQL, two PostgreSQL instances): every operation of the OpenAPI document is tried
//  - with account B's key against account A's objects: an object of A is 404 resource_missing to
//    B (the same answer as an id that never existed: existence is not leaked), and no answer to B
//    ever holds an id of A (lists, filters, cursors, streams, deliveries, reports, balance, CSV);
//  - with a restricted key lacking the operation's permission (refused, naming it) and one with
//    just that permission (not refused).
// Each operation is called on A's objects as the document describes it: its path with `{id}` as
// A's object of the path's id prefix, and an empty body for a POST; a table below says how to call
// the operations that need more (a query, a body, an object in a state the operation changes). So
// a new operation is tried by every test here without an entry, as soon as the document has it.
import {request} from 'undici'
import {describe, expect, it} from 'vitest'
import {OPERATION_PERMISSIONS, openapiDocument, permissionName} from '../../api/openapi/document.js'
import {RESOURCES} from '../domain/keys.js'
import type {AsKey, Res} from './harness.js'
import {card} from './harness.js'

type Json = Record<string, any>

export interface IsolationWorld {
  /** the engine's own key on the instance account A's data is made through */
  platformA: AsKey
  /** the engine's own key on the instance account B's requests go through (another instance, or the same) */
  platformB: AsKey
  baseUrlB: string
  agentB: unknown
  close(): Promise<void>
}

/** Ids of every kind of A's objects, by id prefix. */
type Ids = Record<string, string>

const RETURN_URL = 'https://shop.example/return'
const cardPayment = (extra: Json = {}, number = '4242424242424242') => ({amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(number), return_url: RETURN_URL, ...extra})

async function ok(r: Promise<Res> | Res, status = 200): Promise<Json> {
  const res = await r
  expect(res.status, res.text).toBe(status)
  return res.body
}

/** Objects of every kind in an account, and what each operation needs to be called on them. */
async function seed(a: AsKey): Promise<{ids: Ids; fresh: (opId: string) => Promise<Ids>}> {
  const ids: Ids = {}
  const cus = await ok(a.api('POST', '/customers', {email: 'ada@example.com', name: 'Ada'}), 201)
  ids.cus = cus.id
  const pm = await ok(a.api('POST', '/payment_methods', {...card(), customer: cus.id}), 201)
  ids.pm = pm.id
  const paid = await ok(a.api('POST', '/payments', cardPayment({customer: cus.id, reference: 'iso-order-1'})), 201)
  ids.pay = paid.id
  ids.rf = (await ok(a.api('POST', '/refunds', {payment: paid.id, amount: 500}), 201)).id
  const disputed = await ok(a.api('POST', '/payments', cardPayment()), 201)
  ids.dp = (await ok(a.api('POST', '/test_helpers/disputes', {payment: disputed.id, reason: 'fraudulent'}), 201)).id
  // an endpoint nobody answers: its deliveries fail and stay listed
  const wh = await ok(a.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/never', enabled_events: ['*']}), 201)
  ids.wh = wh.id
  const mer = await ok(a.api('POST', '/merchants', {business_name: 'Iso Shop', legal_name: 'Iso Shop Ltd', country: 'NL'}), 201)
  ids.mer = mer.id
  ids.rr = (await ok(a.api('POST', '/routing_rules', {priority: 5, action: 'prefer', providers: [{provider: 'prov_atlas'}], conditions: {currency: 'EUR'}}), 201)).id
  ids.key = (await ok(a.api('POST', '/api_keys', {name: 'iso', permissions: ['payments:read']}), 201)).id
  // a settlement run (reports, a payout) and the merchant's KYB
  await a.advance(2 * 86_400)
  const reports = await ok(a.api('GET', '/settlement_reports'))
  expect(reports.data.length, 'settlement reports after two days').toBeGreaterThan(0)
  ids.stl = reports.data[0].id
  const payouts = await ok(a.api('GET', '/payouts'))
  expect(payouts.data.length, 'a payout after two days').toBeGreaterThan(0)
  ids.po = payouts.data[0].id
  const events = await ok(a.api('GET', '/events?limit=1'))
  ids.evt = events.data[0].id
  const deliveries = await ok(a.api('GET', `/webhook_endpoints/${wh.id}/deliveries?limit=1`))
  expect(deliveries.data.length, 'a delivery of the endpoint').toBe(1)
  ids.whd = deliveries.data[0].id
  ids.prov = 'prov_atlas'
  // a checkout session of A
  ids.cs = (await ok(a.api('POST', '/checkout_sessions', {amount: 2000, currency: 'EUR', success_url: RETURN_URL, cancel_url: RETURN_URL}), 201)).id
  // a chaos rule of A on a path nothing calls: its id must never reach B
  ids.chaos = (await ok(a.api('POST', '/chaos/api', {path: '/isolation/unused', fault: '500', for_seconds: 3600}), 201)).id
  // objects in the states the state-changing operations need, made afresh for each call
  const makers: Record<string, () => Promise<string>> = {
    manual: async () => (await ok(a.api('POST', '/payments', cardPayment({capture_method: 'manual'})), 201)).id,
    unconfirmed: async () => (await ok(a.api('POST', '/payments', cardPayment({confirm: false})), 201)).id,
    challenged: async () => (await ok(a.api('POST', '/payments', cardPayment({}, '4000000000003220')), 201)).id,
    review: async () => (await ok(a.api('POST', '/payments', cardPayment({amount: 4991})), 201)).id,
    attached: async () => (await ok(a.api('POST', '/payment_methods', {...card(), customer: cus.id}), 201)).id,
    customer: async () => (await ok(a.api('POST', '/customers', {email: 'x@example.com'}), 201)).id,
    rule: async () => (await ok(a.api('POST', '/routing_rules', {priority: 9, action: 'block', conditions: {currency: 'PLN'}}), 201)).id,
    endpoint: async () => (await ok(a.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/other', enabled_events: ['payment.succeeded']}), 201)).id,
    open: async () => (await ok(a.api('POST', '/test_helpers/disputes', {payment: (await ok(a.api('POST', '/payments', cardPayment()), 201)).id}), 201)).id,
    reviewed: async () => {
      const d = await ok(a.api('POST', '/test_helpers/disputes', {payment: (await ok(a.api('POST', '/payments', cardPayment()), 201)).id}), 201)
      await ok(a.api('POST', `/disputes/${d.id}/evidence`, {fields: {product_description: 'a lamp'}}))
      return d.id
    },
    freshKey: async () => (await ok(a.api('POST', '/api_keys', {permissions: ['events:read']}), 201)).id,
    openSession: async () => (await ok(a.api('POST', '/checkout_sessions', {amount: 2000, currency: 'EUR', success_url: RETURN_URL, cancel_url: RETURN_URL}), 201)).id,
    chaosRule: async () => (await ok(a.api('POST', '/chaos/api', {path: '/isolation/unused', fault: '503', for_seconds: 3600}), 201)).id,
  }
  /** The ids an operation's call needs: the account's objects, plus new ones in the state the operation changes. */
  const fresh = async (opId: string): Promise<Ids> => {
    const out: Ids = {...ids}
    for (const name of NEEDS[opId] ?? []) out[name] = await makers[name]!()
    return out
  }
  return {ids, fresh}
}

interface Call {
  /** path below /v1, with A's (or the caller's own) ids */
  path: string
  body?: Json
  /** extra headers */
  headers?: Record<string, string>
}

/**
 * How to call the operations the document's description is not enough for, given ids: what an
 * account would send. With A's ids and B's key it must find nothing of A; with the caller's own ids
 * it must work. Every other operation is called as callOf says.
 */
const CALLS: Record<string, (i: Ids) => Call> = {
  listPayments: (i) => ({path: `/payments?customer=${i.cus}`}),
  createPayment: (i) => ({path: '/payments', body: {amount: 2000, currency: 'EUR', payment_method_id: i.pm, customer: i.cus, return_url: RETURN_URL}}),
  listCheckoutSessions: (i) => ({path: `/checkout_sessions?payment=${i.pay}`}),
  createCheckoutSession: (i) => ({path: '/checkout_sessions', body: {amount: 2000, currency: 'EUR', success_url: RETURN_URL, cancel_url: RETURN_URL, customer: i.cus}}),
  expireCheckoutSession: (i) => ({path: `/checkout_sessions/${i.openSession}/expire`, body: {}}),
  payCheckoutSession: (i) => ({path: `/checkout_sessions/${i.openSession}/pay`, body: {payment_method_id: i.pm}}),
  confirmPayment: (i) => ({path: `/payments/${i.unconfirmed}/confirm`, body: {}}),
  capturePayment: (i) => ({path: `/payments/${i.manual}/capture`, body: {amount: 500}}),
  incrementAuthorization: (i) => ({path: `/payments/${i.manual}/increment_authorization`, body: {amount: 3000}}),
  cancelPayment: (i) => ({path: `/payments/${i.manual}/cancel`, body: {}}),
  listCustomers: () => ({path: '/customers?email=ada@example.com'}),
  createCustomer: () => ({path: '/customers', body: {email: 'new@example.com'}}),
  updateCustomer: (i) => ({path: `/customers/${i.cus}`, body: {name: 'Renamed'}}),
  deleteCustomer: (i) => ({path: `/customers/${i.customer}`}),
  listPaymentMethods: (i) => ({path: `/payment_methods?customer=${i.cus}`}),
  createPaymentMethod: (i) => ({path: '/payment_methods', body: {...card(), customer: i.cus}}),
  detachPaymentMethod: (i) => ({path: `/payment_methods/${i.attached}/detach`, body: {}}),
  listRefunds: (i) => ({path: `/refunds?payment=${i.pay}`}),
  createRefund: (i) => ({path: '/refunds', body: {payment: i.pay, amount: 100}}),
  listDisputes: (i) => ({path: `/disputes?payment=${i.pay}`}),
  submitDisputeEvidence: (i) => ({path: `/disputes/${i.open}/evidence`, body: {fields: {tracking_number: '1Z999'}}}),
  acceptDispute: (i) => ({path: `/disputes/${i.open}/accept`, body: {}}),
  listEvents: () => ({path: '/events?type=payment.*&limit=100'}),
  streamEvents: (i) => ({path: `/events/stream?last_event_id=${i.evt}`}),
  resendEvent: (i) => ({path: `/events/${i.evt}/resend`, body: {endpoint: i.wh}}),
  createWebhookEndpoint: () => ({path: '/webhook_endpoints', body: {url: 'https://127.0.0.1:9/made', enabled_events: ['payment.failed']}}),
  updateWebhookEndpoint: (i) => ({path: `/webhook_endpoints/${i.wh}`, body: {description: 'renamed'}}),
  deleteWebhookEndpoint: (i) => ({path: `/webhook_endpoints/${i.endpoint}`}),
  replayWebhookEndpoint: (i) => ({path: `/webhook_endpoints/${i.wh}/replay`, body: {within: 86_400}}),
  listProviders: () => ({path: '/providers?currency=EUR'}),
  simulateRouting: (i) => ({path: `/routing/simulate?amount=2000&currency=EUR&payment_method=card&merchant=${i.mer}`}),
  createMerchant: () => ({path: '/merchants', body: {business_name: 'Another shop'}}),
  updateMerchant: (i) => ({path: `/merchants/${i.mer}`, body: {email: 'ops@shop.example'}}),
  listRoutingRules: (i) => ({path: `/routing_rules?merchant=${i.mer}`}),
  createRoutingRule: (i) => ({path: '/routing_rules', body: {merchant: i.mer, priority: 3, action: 'block', conditions: {currency: 'SEK'}}}),
  updateRoutingRule: (i) => ({path: `/routing_rules/${i.rr}`, body: {priority: 7}}),
  deleteRoutingRule: (i) => ({path: `/routing_rules/${i.rule}`}),
  retrieveSettlementReport: (i) => ({path: `/settlement_reports/${i.stl}`, headers: {accept: 'text/csv'}}),
  testPaymentAction: (i) => ({path: `/test_helpers/payments/${i.challenged}/action`, body: {outcome: 'approve'}}),
  testPaymentReview: (i) => ({path: `/test_helpers/payments/${i.review}/review`, body: {decision: 'approve'}}),
  testCreateDispute: (i) => ({path: '/test_helpers/disputes', body: {payment: i.pay}}),
  testResolveDispute: (i) => ({path: `/test_helpers/disputes/${i.reviewed}/resolve`, body: {outcome: 'won'}}),
  testSetProviderHealth: (i) => ({path: `/test_helpers/providers/${i.prov}/health`, body: {status: 'degraded'}}),
  testAdvanceClock: () => ({path: '/test_helpers/clock/advance', body: {seconds: 60}}),
  testSetClock: () => ({path: '/test_helpers/clock', body: {frozen: false}}),
  createChaosApiFault: () => ({path: '/chaos/api', body: {path: '/isolation/unused', fault: '500', count: 1}}),
  // harmless to A (1 ms once, one delivery held a second); B naming A's endpoint must get a 404
  createChaosProviderFault: (i) => ({path: '/chaos/providers', body: {provider: i.prov, fault: 'latency', latency_ms: 1, count: 1}}),
  createChaosWebhookFault: (i) => ({path: '/chaos/webhooks', body: {fault: 'delay', delay_seconds: 1, endpoint: i.wh, count: 1}}),
  deleteChaosRule: (i) => ({path: `/chaos/${i.chaosRule}`}),
  // an empty world: loading it replaces the caller's own state (what a snapshot holds is the caller's to load)
  testLoadSnapshot: () => ({
    path: '/test_helpers/snapshot',
    body: {object: 'snapshot', format: 'gw.snapshot', version: 1, account: 'acct_elsewhere', livemode: false, created_at: '2026-01-01T00:00:00.000Z', engine_time: '2026-01-01T00:00:00.000Z', rows: {objects: [], events: [], jobs: [], idempotency: [], stats: [], settings: {}}},
  }),
  listRequestLogs: () => ({path: '/request_logs?limit=100'}),
  createAccount: () => ({path: '/accounts', body: {name: 'made'}}),
  updateAccount: (i) => ({path: `/accounts/${i.acct}`, body: {name: 'renamed'}}),
  createApiKey: () => ({path: '/api_keys', body: {permissions: ['refunds:read']}}),
  rollApiKey: (i) => ({path: `/api_keys/${i.freshKey}/roll`, body: {expires_in: 0}}),
  revokeApiKey: (i) => ({path: `/api_keys/${i.freshKey}/revoke`, body: {}}),
}

/** The objects made afresh for an operation (it changes their state). */
const NEEDS: Record<string, string[]> = {
  confirmPayment: ['unconfirmed'],
  capturePayment: ['manual'],
  incrementAuthorization: ['manual'],
  cancelPayment: ['manual'],
  detachPaymentMethod: ['attached'],
  deleteCustomer: ['customer'],
  deleteRoutingRule: ['rule'],
  deleteWebhookEndpoint: ['endpoint'],
  submitDisputeEvidence: ['open'],
  acceptDispute: ['open'],
  testResolveDispute: ['reviewed'],
  testPaymentAction: ['challenged'],
  testPaymentReview: ['review'],
  rollApiKey: ['freshKey'],
  revokeApiKey: ['freshKey'],
  deleteChaosRule: ['chaosRule'],
  expireCheckoutSession: ['openSession'],
  payCheckoutSession: ['openSession'],
}

/**
 * What a call of the table needs beyond its operation's x-permission, by what it sends
 * (docs/api.md#what-a-key-reaches): an endpoint receiving payment.failed needs payments:read. A
 * key holding only the operation's permission is refused naming these; with them too it is not.
 */
const CONTENT_NEEDS: Record<string, string[]> = {
  createWebhookEndpoint: ['payments:read'],
}

/** Operations without a key. */
const PUBLIC = new Set(['getOpenApiDocument', 'getLiveness', 'getReadiness', 'getMetrics'])

interface Operation {
  id: string
  method: string
  template: string
  /** the prefix of the path's `{id}` (the document's pattern, `^pay_...`), if it has one */
  idPrefix: string | undefined
  perm: string | undefined
  perms: readonly string[]
}

/** Each operation with what it needs: `perms` (all of them), `perm` as x-permission and error.permission write them. */
function operations(): Operation[] {
  const out: Operation[] = []
  for (const [template, item] of Object.entries(openapiDocument().paths as Json))
    for (const [method, op] of Object.entries(item as Json)) {
      if (!(op as Json).operationId) continue
      const perms = OPERATION_PERMISSIONS.get(op.operationId) ?? []
      expect(op['x-permission'], op.operationId).toBe(perms.length ? permissionName(perms) : undefined)
      const idParam = ((op.parameters ?? []) as Json[]).find((p) => p.in === 'path' && p.name === 'id')
      const idPrefix = /^\^([a-z]+)_/.exec(String(idParam?.schema?.pattern ?? ''))?.[1]
      out.push({id: op.operationId, method: method.toUpperCase(), template, idPrefix, perm: perms.length ? permissionName(perms) : undefined, perms})
    }
  // loading a snapshot of an empty world wipes the caller's account (and the ids the calls after it use): it goes last, wherever the document puts it
  return [...out.filter((o) => o.id !== 'testLoadSnapshot'), ...out.filter((o) => o.id === 'testLoadSnapshot')]
}

/** How an operation is called on the objects `ids` names: its entry in CALLS, else its path with `{id}` as the object of its id prefix (and an empty body for a POST: send). */
function callOf(op: Operation, ids: Ids): Call {
  const call = CALLS[op.id]
  if (call) return call(ids)
  if (!op.template.includes('{id}')) return {path: op.template}
  const id = op.idPrefix ? ids[op.idPrefix] : undefined
  if (!id) throw new Error(`${op.id}: no object of prefix ${op.idPrefix}_ for ${op.template}; seed one, or say how to call it in CALLS`)
  return {path: op.template.replace('{id}', id)}
}

/** A call, with a stream read for a moment and then closed. */
async function send(k: AsKey, baseUrl: string, agent: unknown, method: string, c: Call): Promise<Res> {
  if (method !== 'GET' || !c.path.includes('/stream')) return k.api(method, c.path, c.body ?? (method === 'POST' ? {} : undefined), c.headers)
  const ac = new AbortController()
  const res = await request(`${baseUrl}${c.path}`, {headers: {authorization: `Bearer ${k.key}`, accept: 'text/event-stream'}, dispatcher: agent as never, signal: ac.signal})
  let text = ''
  if (res.statusCode !== 200) text = await res.body.text()
  else {
    const stop = setTimeout(() => ac.abort(), 400)
    try {
      for await (const chunk of res.body) text += String(chunk)
    } catch {
      /* aborted: what arrived is what the stream showed */
    }
    clearTimeout(stop)
  }
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    /* a stream */
  }
  return {status: res.statusCode, headers: res.headers as Res['headers'], body, text}
}

export function isolationSuite(name: string, open: () => Promise<IsolationWorld>): void {
  describe(`isolation and permissions (${name})`, () => {
    it('every operation of the OpenAPI document can be called: by its entry in the table of calls, or by its path and an object of its id prefix; the table names operations only', () => {
      const ops = operations().filter((o) => !PUBLIC.has(o.id))
      const ids: Ids = Object.fromEntries(ops.filter((o) => o.idPrefix).map((o) => [o.idPrefix!, `${o.idPrefix}_1`]))
      const uncallable = ops.filter((o) => !CALLS[o.id] && o.template.includes('{id}') && !o.idPrefix).map((o) => o.id)
      expect(uncallable).toEqual([])
      for (const o of ops) expect(callOf(o, ids).path, o.id).toMatch(/^\/[a-z_]/)
      expect(Object.keys(CALLS).filter((id) => !ops.some((o) => o.id === id))).toEqual([])
      expect(Object.keys(NEEDS).filter((id) => !CALLS[id])).toEqual([])
    })

    it("B's key finds nothing of A's through any operation: an id of A is 404 resource_missing, no answer holds an id of A", async () => {
      const w = await open()
      try {
        const accA = await ok(w.platformA.api('POST', '/accounts', {name: 'A'}), 201)
        const accB = await ok(w.platformB.api('POST', '/accounts', {name: 'B'}), 201)
        const a = asKeyOf(w.platformA, accA.secret_key)
        const b = asKeyOf(w.platformB, accB.secret_key)
        const {ids, fresh} = await seed(a)
        // every object of A, those the state-changing operations need included
        const all: Ids = {acct: accA.id}
        for (const op of Object.keys(CALLS)) Object.assign(all, await fresh(op))
        const secretsOfA = [accA.secret_key, accA.publishable_key]
        const idsOfA = Object.entries(all)
          .filter(([k]) => k !== 'prov')
          .map(([, v]) => v)
        let sentByB = ''
        for (const op of operations()) {
          if (PUBLIC.has(op.id)) continue
          const call = callOf(op, all)
          const r = await send(b, w.baseUrlB, w.agentB, op.method, call)
          const what = `${op.id} (${op.method} /v1${call.path}) as B`
          // (an error, or B's own request log, may name an id B sent: that tells B nothing)
          sentByB += ` ${call.path} ${JSON.stringify(call.body ?? {})}`
          const sent = sentByB
          for (const id of idsOfA) if (!sent.includes(id)) expect(r.text.includes(id), `${what} shows ${id} of A: ${r.text.slice(0, 300)}`).toBe(false)
          for (const s of secretsOfA) expect(r.text.includes(s), `${what} shows a key of A`).toBe(false)
          expect(r.status, `${what}: ${r.text.slice(0, 300)}`).toBeLessThan(500)
          if (op.perm?.startsWith('accounts:')) {
            // B may not manage accounts at all: the same 403 whatever the id (existence is not leaked)
            expect(r.status, what).toBe(403)
            continue
          }
          if (op.template.includes('{id}') && op.template !== '/providers/{id}' && op.template !== '/test_helpers/providers/{id}/health') {
            expect(r.status, `${what}: ${r.text.slice(0, 300)}`).toBe(404)
            expect(r.body?.error?.code, what).toBe('resource_missing')
          }
        }
        // requests that name A's objects in their body or query are 404 too, never 403
        for (const opId of ['createPayment', 'createRefund', 'testCreateDispute', 'createPaymentMethod', 'createRoutingRule', 'simulateRouting']) {
          const r = await send(b, w.baseUrlB, w.agentB, opId === 'simulateRouting' ? 'GET' : 'POST', CALLS[opId]!(all))
          expect(r.status, `${opId} with A's ids as B: ${r.text.slice(0, 300)}`).toBe(404)
        }
        // a stream resuming after A's event is refused as an unknown event
        expect((await send(b, w.baseUrlB, w.agentB, 'GET', CALLS.streamEvents!(all))).status).toBe(400)
        // what B did changed nothing of A's: A's provider health, clock and objects are as they were
        expect((await ok(a.api('GET', '/providers/prov_atlas'))).status).toBe('active')
        expect((await ok(a.api('GET', '/test_helpers/clock'))).offset_seconds).toBe(2 * 86_400)
        expect((await ok(a.api('GET', `/customers/${ids.cus}`))).name).toBe('Ada')
        expect((await ok(a.api('GET', `/payments/${all.manual}`))).status).toBe('requires_capture')
      } finally {
        await w.close()
      }
    })

    it('a publishable key is refused by every operation but the browser\'s: saving a card (without a customer), paying a checkout session', async () => {
      const w = await open()
      try {
        const acc = await ok(w.platformA.api('POST', '/accounts', {name: 'browser'}), 201)
        const a = asKeyOf(w.platformA, acc.secret_key)
        const pk = asKeyOf(w.platformB, acc.publishable_key)
        const {fresh} = await seed(a)
        for (const op of operations()) {
          if (PUBLIC.has(op.id)) continue
          const call = callOf(op, {...(await fresh(op.id)), acct: acc.id})
          const r = await send(pk, w.baseUrlB, w.agentB, op.method, call)
          // the hosted card fields pay a session with the publishable key (its id is the capability)
          if (op.id === 'payCheckoutSession') {
            expect(r.status, r.text).toBe(201)
            continue
          }
          // (the table's createPaymentMethod attaches to a customer: that needs a secret key too)
          expect(r.status, `${op.id} with a publishable key: ${r.text.slice(0, 300)}`).toBe(403)
          expect(r.body.error.type).toBe('permission_error')
        }
        const saved = await send(pk, w.baseUrlB, w.agentB, 'POST', {path: '/payment_methods', body: card()})
        expect(saved.status, saved.text).toBe(201)
      } finally {
        await w.close()
      }
    })

    it("a key without an operation's permission is refused naming it; one with just that permission is not", async () => {
      const w = await open()
      try {
        const acc = await ok(w.platformA.api('POST', '/accounts', {name: 'perms'}), 201)
        const a = asKeyOf(w.platformA, acc.secret_key)
        const {fresh} = await seed(a)
        for (const op of operations()) {
          if (PUBLIC.has(op.id) || !op.perm || op.perm === 'none') continue
          const [resource, level] = op.perms[0]!.split(':') as [string, string]
          const own = {...(await fresh(op.id)), acct: acc.id}
          const call = callOf(op, own)
          if (resource === 'api_keys') {
            // keys are managed with a secret key only: even a restricted key with every permission is refused
            const every = await ok(a.api('POST', '/api_keys', {permissions: ['*:write']}), 201)
            const r = await send(asKeyOf(w.platformB, every.secret), w.baseUrlB, w.agentB, op.method, call)
            expect(r.status, `${op.id} with a restricted key`).toBe(403)
            expect(r.body.error.permission).toBe(op.perm)
            const s = await send(a, w.baseUrlB, w.agentB, op.method, call)
            expect(s.status, `${op.id} with the secret key: ${s.text.slice(0, 300)}`).toBeLessThan(300)
            await ok(a.api('POST', `/api_keys/${every.id}/revoke`, {}))
            continue
          }
          if (resource === 'accounts') {
            // on the platform account: a restricted key with accounts:<level> may, one without may not
            const others = RESOURCES.filter((r) => r !== 'accounts').map((r) => `${r}:write`)
            const lacking = await ok(w.platformA.api('POST', '/api_keys', {permissions: [...others, ...(level === 'write' ? ['accounts:read'] : [])]}), 201)
            const having = await ok(w.platformA.api('POST', '/api_keys', {permissions: [op.perm]}), 201)
            const target = op.template.includes('{id}') ? {...own, acct: (await ok(w.platformA.api('POST', '/accounts', {name: 'target'}), 201)).id} : own
            const r = await send(asKeyOf(w.platformB, lacking.secret), w.baseUrlB, w.agentB, op.method, callOf(op, target))
            expect(r.status, `${op.id} without ${op.perm}`).toBe(403)
            expect(r.body.error.permission).toBe(op.perm)
            const s = await send(asKeyOf(w.platformB, having.secret), w.baseUrlB, w.agentB, op.method, callOf(op, target))
            expect(s.status, `${op.id} with ${op.perm}: ${s.text.slice(0, 300)}`).toBeLessThan(300)
            for (const k of [lacking, having]) await ok(w.platformA.api('POST', `/api_keys/${k.id}/revoke`, {}))
            continue
          }
          // an operation that needs several permissions is refused to a key lacking any one of them (holding the others and every other resource)
          const lackingKeys = []
          for (const need of op.perms) {
            const [res, lvl] = need.split(':') as [string, string]
            const others = RESOURCES.filter((r) => r !== res && r !== 'accounts').map((r) => `${r}:write`)
            const lacking = await ok(a.api('POST', '/api_keys', {permissions: [...others, ...(lvl === 'write' ? [`${res}:read`] : [])]}), 201)
            lackingKeys.push(lacking)
            const r = await send(asKeyOf(w.platformB, lacking.secret), w.baseUrlB, w.agentB, op.method, call)
            expect(r.status, `${op.id} without ${need}: ${r.text.slice(0, 300)}`).toBe(403)
            expect(r.body.error).toMatchObject({type: 'permission_error', code: 'permission_denied', permission: op.perm})
            expect(r.body.error.message, op.id).toContain(`lacks ${need}`)
          }
          const also = CONTENT_NEEDS[op.id] ?? []
          if (also.length > 0) {
            // what the call sends needs more than the operation's permission: refused naming it
            const only = await ok(a.api('POST', '/api_keys', {permissions: [...op.perms]}), 201)
            lackingKeys.push(only)
            const r = await send(asKeyOf(w.platformB, only.secret), w.baseUrlB, w.agentB, op.method, CALLS[op.id]!({...(await fresh(op.id)), acct: acc.id}))
            expect(r.status, `${op.id} with ${op.perm} alone: ${r.text.slice(0, 300)}`).toBe(403)
            expect(r.body.error).toMatchObject({type: 'permission_error', code: 'permission_denied', permission: also.join(',')})
          }
          const having = await ok(a.api('POST', '/api_keys', {permissions: [...op.perms, ...also]}), 201)
          const s = await send(asKeyOf(w.platformB, having.secret), w.baseUrlB, w.agentB, op.method, call)
          expect(s.status, `${op.id} with ${[op.perm, ...also].join(',')}: ${s.text.slice(0, 300)}`).toBeLessThan(300)
          for (const k of [...lackingKeys, having]) await ok(a.api('POST', `/api_keys/${k.id}/revoke`, {}))
        }
      } finally {
        await w.close()
      }
      // several hundred requests one after another: 4-6 s alone, past 30 s on PostgreSQL on a machine loaded 6x
    }, 120_000)
  })
}

/** Another key on the same instance as `via`. */
const asKeyOf = (via: AsKey, key: string): AsKey => via.as(key)
