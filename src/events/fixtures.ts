// `gw trigger` fixtures: for each event type, the real API calls (and test helpers, and clock
// advances) that make the engine emit it. Nothing is faked: the event comes out of the same
// flow a real integration goes through, so webhooks and `gw listen` see it like any other.
import type {Dispute, GwEvent, ListEnvelope, Payment, Provider, Refund} from '../api/types.js'
import {ApiError} from '../client/errors.js'
import type {GwClient} from '../client/index.js'

export interface Created {
  /** what the step did, e.g. "POST /v1/payments" */
  step: string
  object: string
  id: string
  status: string | null
}

export interface FixtureContext {
  client: GwClient
  /** `base` with the --override fields merged in: the fixture's main create call uses it */
  main<T extends Record<string, unknown>>(base: T): T
  /** records (and reports) what a step created or changed */
  record(c: Created): void
  /** advances the engine clock and says so */
  advance(seconds: number, why: string): Promise<void>
  /** a unique reference for the objects this run creates */
  reference: string
}

export interface Fixture {
  type: string
  summary: string
  /** which call the --override fields go to */
  mainCall: string
  run(ctx: FixtureContext): Promise<void>
}

const year = () => new Date().getUTCFullYear() + 3
const card = (number: string) => ({type: 'card', card: {number, exp_month: 12, exp_year: year(), cvc: '123'}})
const RETURN_URL = 'https://example.com/return'
/** card refunds are answered by the rail after 30 minutes of engine time (src/engine/services/refunds.ts) */
const CARD_REFUND_DELAY_S = 30 * 60
const DAY_S = 86_400

function paymentBody(ctx: FixtureContext, number: string, extra: Record<string, unknown> = {}) {
  return ctx.main({
    amount: 2000,
    currency: 'EUR',
    payment_method: 'card',
    payment_method_data: card(number),
    reference: ctx.reference,
    return_url: RETURN_URL,
    description: 'gw trigger',
    ...extra,
  })
}

async function createPayment(ctx: FixtureContext, body: Record<string, unknown>): Promise<Payment> {
  try {
    const p = await ctx.client.post<Payment>('/payments', body)
    ctx.record({step: 'POST /v1/payments', object: 'payment', id: p.id, status: p.status})
    return p
  } catch (e) {
    // a declined card answers 402 and the payment is stored as failed (decisions.md)
    if (e instanceof ApiError && e.status === 402 && e.payment) {
      ctx.record({step: `POST /v1/payments (402 ${e.code})`, object: 'payment', id: e.payment, status: 'failed'})
      return await ctx.client.payments.get(e.payment)
    }
    throw e
  }
}

async function succeededPayment(ctx: FixtureContext, number = '4242424242424242'): Promise<Payment> {
  const p = await createPayment(ctx, paymentBody(ctx, number))
  if (p.status !== 'succeeded')
    throw new Error(`The payment ${p.id} is ${p.status}, not succeeded; check the --override values.`)
  return p
}

async function refund(ctx: FixtureContext, payment: Payment): Promise<Refund> {
  const r = await ctx.client.post<Refund>('/refunds', {payment: payment.id, reason: 'requested_by_customer'})
  ctx.record({step: 'POST /v1/refunds', object: 'refund', id: r.id, status: r.status})
  await ctx.advance(CARD_REFUND_DELAY_S + 1, 'card refunds are answered by the rail after 30 minutes')
  const after = await ctx.client.get<Refund>(`/refunds/${r.id}`)
  ctx.record({step: `GET /v1/refunds/${r.id}`, object: 'refund', id: after.id, status: after.status})
  return after
}

async function openDispute(ctx: FixtureContext): Promise<Dispute> {
  const p = await succeededPayment(ctx)
  const d = await ctx.client.post<Dispute>('/test_helpers/disputes', {payment: p.id, reason: 'product_not_received'})
  ctx.record({step: 'POST /v1/test_helpers/disputes', object: 'dispute', id: d.id, status: d.status})
  return d
}

async function submitEvidence(ctx: FixtureContext, d: Dispute): Promise<Dispute> {
  const out = await ctx.client.post<Dispute>(`/disputes/${d.id}/evidence`, {
    fields: {product_description: 'Two shirts, size M', tracking_number: 'TRACK123456', service_date: new Date().toISOString().slice(0, 10)},
    files: [],
  })
  ctx.record({step: `POST /v1/disputes/${d.id}/evidence`, object: 'dispute', id: out.id, status: out.status})
  return out
}

export const FIXTURES: readonly Fixture[] = [
  {
    type: 'payment.succeeded',
    summary: 'A card payment with test card 4242 that succeeds.',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => void (await createPayment(ctx, paymentBody(ctx, '4242424242424242'))),
  },
  {
    type: 'payment.failed',
    summary: 'A card payment declined by the issuer (test card 4000 0000 0000 0002, card_declined).',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => void (await createPayment(ctx, paymentBody(ctx, '4000000000000002'))),
  },
  {
    type: 'payment.requires_action',
    summary: 'A card payment that asks for 3-D Secure (test card 4000 0000 0000 3220).',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => void (await createPayment(ctx, paymentBody(ctx, '4000000000003220'))),
  },
  {
    type: 'payment.processing',
    summary: 'A 3-D Secure payment whose challenge the customer completes (then it succeeds).',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => {
      const p = await createPayment(ctx, paymentBody(ctx, '4000000000003220'))
      const done = await ctx.client.post<Payment>(`/test_helpers/payments/${p.id}/action`, {outcome: 'approve'})
      ctx.record({step: `POST /v1/test_helpers/payments/${p.id}/action approve`, object: 'payment', id: done.id, status: done.status})
    },
  },
  {
    type: 'payment.risk_review',
    summary: 'A card payment held for risk review (amount 4991).',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => void (await createPayment(ctx, paymentBody(ctx, '4242424242424242', {amount: 4991}))),
  },
  {
    type: 'payment.canceled',
    summary: 'A manual-capture card authorization, then canceled.',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => {
      const p = await createPayment(ctx, paymentBody(ctx, '4242424242424242', {capture_method: 'manual'}))
      const c = await ctx.client.post<Payment>(`/payments/${p.id}/cancel`, {})
      ctx.record({step: `POST /v1/payments/${p.id}/cancel`, object: 'payment', id: c.id, status: c.status})
    },
  },
  {
    type: 'refund.succeeded',
    summary: 'A 4242 payment refunded in full; the clock is advanced past the card rail\'s 30 minutes.',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => void (await refund(ctx, await succeededPayment(ctx))),
  },
  {
    type: 'refund.failed',
    summary: 'A payment with test card 4000 0000 0000 5126, whose refunds fail; the clock is advanced 30 minutes.',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => void (await refund(ctx, await succeededPayment(ctx, '4000000000005126'))),
  },
  {
    type: 'dispute.created',
    summary: 'A 4242 payment, then the network opens a dispute (test helper).',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => void (await openDispute(ctx)),
  },
  {
    type: 'dispute.updated',
    summary: 'A dispute, then evidence is submitted (status under_review).',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => void (await submitEvidence(ctx, await openDispute(ctx))),
  },
  {
    type: 'dispute.closed',
    summary: 'A dispute, evidence, then the issuer rules for the merchant (won).',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => {
      const d = await submitEvidence(ctx, await openDispute(ctx))
      const won = await ctx.client.post<Dispute>(`/test_helpers/disputes/${d.id}/resolve`, {outcome: 'won'})
      ctx.record({step: `POST /v1/test_helpers/disputes/${d.id}/resolve won`, object: 'dispute', id: won.id, status: won.status})
    },
  },
  {
    type: 'settlement.report.ready',
    summary: 'A 4242 payment, then the clock is advanced 2 days so the daily settlement reports it.',
    mainCall: 'POST /v1/payments',
    run: async (ctx) => {
      await succeededPayment(ctx)
      await ctx.advance(2 * DAY_S, 'settlement runs daily for the day before')
    },
  },
  {
    type: 'merchant.updated',
    summary: 'A sub-merchant with a legal name and country; the clock is advanced 61 s for its KYB review.',
    mainCall: 'POST /v1/merchants',
    run: async (ctx) => {
      const m = await ctx.client.post<{id: string; kyb_status: string}>(
        '/merchants',
        ctx.main({business_name: 'Trigger Shop', legal_name: 'Trigger Shop B.V.', country: 'NL', email: 'ops@example.com'}),
      )
      ctx.record({step: 'POST /v1/merchants', object: 'merchant', id: m.id, status: m.kyb_status})
      await ctx.advance(61, 'the KYB review completes 60 s after the merchant has its legal name and country')
      const after = await ctx.client.get<{id: string; kyb_status: string}>(`/merchants/${m.id}`)
      ctx.record({step: `GET /v1/merchants/${m.id}`, object: 'merchant', id: after.id, status: after.kyb_status})
    },
  },
  {
    type: 'provider.health.changed',
    summary: 'A provider degrades and recovers (test helper; two events, its status is restored).',
    mainCall: 'POST /v1/test_helpers/providers/{id}/health',
    run: async (ctx) => {
      const list = await ctx.client.get<ListEnvelope<Provider>>('/providers', {limit: 100})
      const p = list.data.find((x) => x.status === 'active') ?? list.data[0]
      if (!p) throw new Error('The server lists no providers.')
      const original = p.status
      const body = ctx.main({status: original === 'degraded' ? 'active' : 'degraded'})
      const changed = await ctx.client.post<Provider>(`/test_helpers/providers/${p.id}/health`, body)
      ctx.record({step: `POST /v1/test_helpers/providers/${p.id}/health ${String(body.status)}`, object: 'provider', id: p.id, status: changed.status})
      if (changed.status !== original) {
        const back = await ctx.client.post<Provider>(`/test_helpers/providers/${p.id}/health`, {status: original})
        ctx.record({step: `POST /v1/test_helpers/providers/${p.id}/health ${original}`, object: 'provider', id: p.id, status: back.status})
      }
    },
  },
]

export function fixture(type: string): Fixture | undefined {
  return FIXTURES.find((f) => f.type === type)
}

/** Deep-merges `patch` into `base` (objects merge, everything else replaces). */
export function deepMerge<T extends Record<string, unknown>>(base: T, patch: Record<string, unknown>): T {
  const out: Record<string, unknown> = {...base}
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k]
    if (v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur))
      out[k] = deepMerge(cur as Record<string, unknown>, v as Record<string, unknown>)
    else out[k] = v
  }
  return out as T
}

/** The events a run caused: newer than `before`, about an object it touched or of the triggered type. */
export async function eventsSince(client: GwClient, before: string | null, touched: Set<string>, type: string): Promise<GwEvent[]> {
  const out: GwEvent[] = []
  if (before) {
    let cursor = before
    for (;;) {
      const page = await client.events.list({ending_before: cursor, limit: 100})
      out.push(...[...page.data].reverse())
      if (!page.has_more || page.data.length === 0) break
      cursor = page.data[0]!.id
    }
  } else {
    for await (const e of client.events.iterate({}, 1000)) out.push(e)
    out.reverse()
  }
  return out.filter((e) => {
    const id = (e.data?.object as {id?: unknown} | undefined)?.id
    return e.type === type || (typeof id === 'string' && touched.has(id))
  })
}
