// Property-based test of the money rules (docs/decisions.md#one-ledger): random sequences of operations over the
// engine's HTTPS API — every method family, confirm, capture, increment, cancel, customer and
// operator steps, refunds, disputes and clock advances — with the money invariants checked
// after every step. One engine serves many sequences (a fresh one every RUNS_PER_ENGINE, half
// of them settling into a payout currency); the invariants are global, so they hold across
// sequences too. Failures fast-check shrinks to are kept as plain regression tests below.
//
// GW_PROPERTY_SEED=<n> replays a run; GW_PROPERTY_RUNS=<n> changes how many sequences run (on
// PostgreSQL, the pg-engine project runs a fifth of them: test-support/property-runs.ts).
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import type {Dispute, Payout, SettlementReport} from '../../api/types.js'
import {feeFor, providerProfile, PROVIDERS} from '../domain/providers.js'
import type {LedgerEntry} from '../domain/ledger.js'
import type {PaymentRecord} from '../domain/payment.js'
import type {RefundRecord} from '../domain/refund.js'
import {settlementRunOf} from '../domain/settlement.js'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {propertyRuns} from '../test-support/property-runs.js'

const RUNS = propertyRuns(250)
/** GW_PROPERTY_STATS=1 prints how often each operation got each answer (to tune the generators) */
const STATS = process.env.GW_PROPERTY_STATS ? new Map<string, number>() : undefined
const RUNS_PER_ENGINE = 10
const DAY = 86_400
const RETURN_URL = 'https://shop.example/return'

// ---------------------------------------------------------------- operations

const card = (number: string) => ({type: 'card', card: {number, exp_month: 12, exp_year: 2045, cvc: number.startsWith('3') ? '1234' : '123'}})

/** Payment kinds: every method family, with the test cards and behaviours the spec names. */
const KINDS = {
  card: (amount: number) => ({amount, currency: 'EUR', payment_method: 'card', payment_method_data: card('4242424242424242')}),
  card_usd: (amount: number) => ({amount, currency: 'USD', payment_method: 'card', payment_method_data: card('5555555555554444')}),
  card_jpy: (amount: number) => ({amount, currency: 'JPY', payment_method: 'card', payment_method_data: card('4242424242424242')}),
  card_manual: (amount: number) => ({amount, currency: 'EUR', payment_method: 'card', capture_method: 'manual', payment_method_data: card('4242424242424242')}),
  card_manual_gbp: (amount: number) => ({amount, currency: 'GBP', payment_method: 'card', capture_method: 'manual', payment_method_data: card('5555555555554444')}),
  amex_manual: (amount: number) => ({amount, currency: 'USD', payment_method: 'card', capture_method: 'manual', payment_method_data: card('378282246310005')}),
  amex: (amount: number) => ({amount, currency: 'USD', payment_method: 'card', payment_method_data: card('378282246310005')}),
  card_3ds: (amount: number) => ({amount, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000003220')}),
  card_3ds_manual: (amount: number) => ({amount, currency: 'EUR', payment_method: 'card', capture_method: 'manual', payment_method_data: card('4000000000003220')}),
  card_declined: (amount: number) => ({amount, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000000002')}),
  card_insufficient: (amount: number) => ({amount, currency: 'GBP', payment_method: 'card', payment_method_data: card('4000000000009995')}),
  card_refund_fails: (amount: number) => ({amount, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000005126')}),
  card_refund_fails_manual: (amount: number) => ({amount, currency: 'EUR', payment_method: 'card', capture_method: 'manual', payment_method_data: card('4000000000005126')}),
  card_disputed: (amount: number) => ({amount, currency: 'USD', payment_method: 'card', payment_method_data: card('4000000000000259')}),
  card_form: (amount: number) => ({amount, currency: 'EUR', payment_method: 'card'}),
  ideal: (amount: number) => ({amount, currency: 'EUR', payment_method: 'ideal'}),
  pix: (amount: number) => ({amount, currency: 'BRL', payment_method: 'pix'}),
  apple_pay: (amount: number) => ({amount, currency: 'GBP', payment_method: 'apple_pay'}),
  klarna: (amount: number) => ({amount, currency: 'EUR', payment_method: 'klarna'}),
  sepa_debit: (amount: number) => ({amount, currency: 'EUR', payment_method: 'sepa_debit'}),
  bacs_debit: (amount: number) => ({amount, currency: 'GBP', payment_method: 'bacs_debit'}),
  boleto: (amount: number) => ({amount, currency: 'BRL', payment_method: 'boleto'}),
  multibanco: (amount: number) => ({amount, currency: 'EUR', payment_method: 'multibanco'}),
} as const
type Kind = keyof typeof KINDS

type ChaosOp = 'down' | 'timeout' | 'soft_decline' | 'api_503' | 'api_500' | 'api_lost'
type Part = 'all' | 'half' | 'third' | 'one' | 'captured' | 'over'
type Op =
  | {op: 'create'; kind: Kind; amount: number; confirm: boolean}
  | {op: 'confirm'; i: number}
  | {op: 'capture'; i: number; part: Part; final: boolean}
  | {op: 'increment'; i: number; by: number}
  | {op: 'cancel'; i: number}
  | {op: 'action'; i: number; outcome: 'approve' | 'fail' | 'abandon'}
  | {op: 'review'; i: number; decision: 'approve' | 'block'}
  | {op: 'refund'; i: number; part: Part}
  | {op: 'dispute'; i: number; part: Part}
  | {op: 'evidence'; i: number}
  | {op: 'accept'; i: number}
  | {op: 'resolve'; i: number; outcome: 'won' | 'lost' | 'escalate'}
  | {op: 'advance'; seconds: number}
  /** a plausible next move for the payment's state, picked at run time by `choice` (the rest are random, often invalid, moves) */
  | {op: 'step'; i: number; choice: number; part: Part; final: boolean}
  /** the previous POST again with the same Idempotency-Key: the same answer, byte for byte, and no money moves twice */
  | {op: 'replay'}
  /** stop the engine and start it on the same data dir */
  | {op: 'restart'}
  /** a fault switched on (docs/decisions.md#failure-on-purpose): a provider down or refusing, API requests failing or their answers lost; the client retries with its key */
  | {op: 'chaos'; fault: ChaosOp; provider: number; path: string; count: number}

/** which of the sequence's payments an operation acts on, counted from the newest: mostly the newest */
const idx = fc.oneof({weight: 4, arbitrary: fc.constant(0)}, {weight: 2, arbitrary: fc.nat({max: 5})})
const part = fc.constantFrom<Part>('all', 'half', 'third', 'one', 'captured', 'over')
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {weight: 5, arbitrary: fc.record({op: fc.constant('create' as const), kind: fc.constantFrom(...(Object.keys(KINDS) as Kind[])), amount: fc.constantFrom(1000, 2000, 4002, 4991, 4992, 4999, 5000, 12_345), confirm: fc.constantFrom(true, true, true, false)})},
  {weight: 1, arbitrary: fc.record({op: fc.constant('confirm' as const), i: idx})},
  {weight: 3, arbitrary: fc.record({op: fc.constant('capture' as const), i: idx, part, final: fc.boolean()})},
  {weight: 1, arbitrary: fc.record({op: fc.constant('increment' as const), i: idx, by: fc.constantFrom(1, 500, 3000)})},
  {weight: 2, arbitrary: fc.record({op: fc.constant('cancel' as const), i: idx})},
  {weight: 3, arbitrary: fc.record({op: fc.constant('action' as const), i: idx, outcome: fc.constantFrom<'approve' | 'fail' | 'abandon'>('approve', 'approve', 'fail', 'abandon')})},
  {weight: 1, arbitrary: fc.record({op: fc.constant('review' as const), i: idx, decision: fc.constantFrom<'approve' | 'block'>('approve', 'block')})},
  {weight: 3, arbitrary: fc.record({op: fc.constant('refund' as const), i: idx, part})},
  {weight: 2, arbitrary: fc.record({op: fc.constant('dispute' as const), i: idx, part})},
  {weight: 2, arbitrary: fc.record({op: fc.constant('evidence' as const), i: idx})},
  {weight: 1, arbitrary: fc.record({op: fc.constant('accept' as const), i: idx})},
  {weight: 2, arbitrary: fc.record({op: fc.constant('resolve' as const), i: idx, outcome: fc.constantFrom<'won' | 'lost' | 'escalate'>('won', 'lost', 'escalate')})},
  {weight: 3, arbitrary: fc.record({op: fc.constant('advance' as const), seconds: fc.constantFrom(61, 1801, 3601, DAY, 2 * DAY + 3600, 7 * DAY + 60, 8 * DAY)})},
  {weight: 16, arbitrary: fc.record({op: fc.constant('step' as const), i: idx, choice: fc.nat({max: 59}), part, final: fc.boolean()})},
  {weight: 2, arbitrary: fc.constant({op: 'replay' as const})},
  {weight: 1, arbitrary: fc.constant({op: 'restart' as const})},
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('chaos' as const),
      fault: fc.constantFrom<ChaosOp>('down', 'timeout', 'soft_decline', 'api_503', 'api_500', 'api_lost', 'api_lost'),
      provider: fc.nat({max: PROVIDERS.length - 1}),
      path: fc.constantFrom('/payments', '/payments/*/capture', '/payments/**', '/refunds', '/test_helpers/**'),
      count: fc.integer({min: 1, max: 4}),
    }),
  },
)

/** The moves that make sense for a payment in its current state (and its dispute's), for `step`. */
async function plausible(t: TestEngine, p: PaymentRecord, o: {i: number; part: Part; final: boolean}): Promise<Op[]> {
  const {i, part, final} = o
  switch (p.status) {
    case 'requires_confirmation':
      return [{op: 'confirm', i}, {op: 'confirm', i}, {op: 'cancel', i}]
    case 'requires_action':
      return [{op: 'action', i, outcome: 'approve'}, {op: 'action', i, outcome: 'approve'}, {op: 'action', i, outcome: 'fail'}, {op: 'action', i, outcome: 'abandon'}, {op: 'cancel', i}, {op: 'advance', seconds: 3601}]
    case 'processing':
      return p.risk?.decision === 'review'
        ? [{op: 'review', i, decision: 'approve'}, {op: 'review', i, decision: 'approve'}, {op: 'review', i, decision: 'block'}]
        : [{op: 'advance', seconds: DAY}, {op: 'advance', seconds: 3 * DAY}, {op: 'cancel', i}]
    case 'requires_capture':
      return [
        {op: 'capture', i, part, final},
        {op: 'capture', i, part: 'third', final: false},
        {op: 'capture', i, part: 'all', final},
        {op: 'increment', i, by: 500},
        {op: 'cancel', i},
        {op: 'cancel', i},
        {op: 'advance', seconds: 7 * DAY + 60},
      ]
    case 'succeeded': {
      const dp = (await t.engine.app.core.store.all<Dispute & {created_at: string}>('dispute', [{field: 'payment', op: 'eq', value: p.id}]))[0]
      if (!dp) return [{op: 'refund', i, part}, {op: 'refund', i, part: 'half'}, {op: 'refund', i, part: 'all'}, {op: 'dispute', i, part}, {op: 'dispute', i, part: 'all'}, {op: 'advance', seconds: 1801}]
      if (dp.status === 'needs_response') return [{op: 'evidence', i}, {op: 'evidence', i}, {op: 'accept', i}, {op: 'refund', i, part}, {op: 'advance', seconds: 7 * DAY + 60}]
      if (dp.status === 'under_review') return [{op: 'resolve', i, outcome: 'won'}, {op: 'resolve', i, outcome: 'lost'}, {op: 'resolve', i, outcome: 'escalate'}, {op: 'refund', i, part}]
      return [{op: 'refund', i, part}, {op: 'refund', i, part: 'all'}, {op: 'advance', seconds: 2 * DAY + 3600}]
    }
    default:
      return [{op: 'refund', i, part}, {op: 'capture', i, part, final}, {op: 'cancel', i}]
  }
}

const amountOf = (p: PaymentRecord, which: Part, base: number): number | undefined => {
  switch (which) {
    case 'all':
      return undefined
    case 'half':
      return Math.max(1, Math.floor(base / 2))
    case 'third':
      return Math.max(1, Math.floor(base / 3))
    case 'one':
      return 1
    case 'captured':
      return p.amount_captured || p.amount
    case 'over':
      return base + 1
  }
}

// ---------------------------------------------------------------- engine and observations

const RANK: Record<string, number> = {requires_confirmation: 0, requires_action: 1, processing: 2, requires_capture: 3, succeeded: 4, failed: 4, canceled: 4}
const TERMINAL_EVENT: Record<string, string> = {'payment.succeeded': 'succeeded', 'payment.failed': 'failed', 'payment.canceled': 'canceled'}
const STAGE_RANK: Record<string, number> = {chargeback: 0, pre_arbitration: 1, arbitration: 2}

interface World {
  t: TestEngine
  runs: number
  /** every event committed, per object id, in commit order */
  events: Map<string, {type: string; status: string}[]>
  /** created_at of the last event committed, and a problem if one was older than its predecessor */
  lastEventAt: string
  /** the seq of the last event read */
  eventSeq: number
  eventOrder: string[]
  /** the last status seen of every payment, dispute and refund */
  seen: Map<string, {status: string; stage?: string}>
  /** the last POST of the current sequence, for `replay` */
  last?: {path: string; body: unknown; key: string; status: number; text: string; at: number}
}

/** Reads the events committed since the last look, in commit order (the log itself is purged after 30 days of engine clock). */
async function observe(w: World): Promise<void> {
  for (;;) {
    const batch = await w.t.engine.app.core.store.eventsAfter(w.eventSeq, 500)
    for (const e of batch) {
      w.eventSeq = e.seq
      // the log is newest first by created_at: events are committed in time order
      if (e.created_at < w.lastEventAt) w.eventOrder.push(`${e.type} at ${e.created_at} committed after an event at ${w.lastEventAt}`)
      if (e.created_at > w.lastEventAt) w.lastEventAt = e.created_at
      const obj = (JSON.parse(e.json) as {data: {object: {id: string; status?: string}}}).data.object
      w.events.set(obj.id, [...(w.events.get(obj.id) ?? []), {type: e.type, status: String(obj.status)}])
    }
    if (batch.length < 500) return
  }
}

let world: World | undefined
let boots = 0
/**
 * Once a sequence has failed, the engine's state is suspect and fast-check starts shrinking:
 * from then on every sequence gets a fresh engine, so the counterexample it reports fails on
 * its own and can be pasted into a regression test.
 */
let shrinking = false

async function worldForRun(fresh = false): Promise<World> {
  if (!world || world.runs >= RUNS_PER_ENGINE || shrinking || fresh) {
    await world?.t.stop()
    const t = await bootEngine({rateLimit: 0, payoutCurrency: boots++ % 2 === 1 ? 'EUR' : undefined})
    const w: World = {t, runs: 0, events: new Map(), seen: new Map(), lastEventAt: '', eventSeq: 0, eventOrder: []}
    world = w
  }
  world.runs++
  world.last = undefined
  return world
}

afterAll(async () => {
  await world?.t.stop()
  if (STATS) process.stderr.write([...STATS].sort().map(([k, n]) => `${String(n).padStart(6)}  ${k}`).join('\n') + '\n')
})

// ---------------------------------------------------------------- one step

let keys = 0

/**
 * The careful client (docs/decisions.md#failure-on-purpose): a fault injected on purpose (marked Gw-Chaos) or an answer lost
 * (the connection dropped) is tried again with the same Idempotency-Key, so whatever the chaos
 * rules do, each operation happens once — which the invariants then check.
 */
async function careful(t: TestEngine, method: string, path: string, body: unknown, headers: Record<string, string>) {
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await t.api(method, path, body, headers)
      if (r.headers['gw-chaos'] === undefined || attempt >= 10) return r
      injected.answers++
    } catch (e) {
      if (attempt >= 10) throw e
      injected.lost++
    }
  }
}
/** API faults the careful client met: answered on purpose with an error, and answers lost. */
const injected = {answers: 0, lost: 0}

async function apply(w: World, op: Op, mine: string[]): Promise<string> {
  const t = w.t
  const store = t.engine.app.core.store
  if (op.op === 'step') {
    if (mine.length === 0) return 'step: no payment'
    const p = (await store.get<PaymentRecord>('payment', mine[mine.length - 1 - (op.i % mine.length)]!))!.obj
    const moves = await plausible(t, p, op)
    return `step → ${await apply(w, moves[op.choice % moves.length]!, mine)}`
  }
  const payment = async (i: number) => {
    if (mine.length === 0) return undefined
    const got = await store.get<PaymentRecord>('payment', mine[mine.length - 1 - (i % mine.length)]!)
    return got?.obj
  }
  const disputeOf = async (i: number) => {
    const p = await payment(i)
    return p ? (await store.all<Dispute & {created_at: string}>('dispute', [{field: 'payment', op: 'eq', value: p.id}]))[0] : undefined
  }
  const call = async (method: string, path: string, body?: unknown) => {
    const key = `prop-${process.pid}-${++keys}`
    const r = await careful(t, method, path, body, method === 'POST' ? {'idempotency-key': key} : {})
    if (r.status >= 500) throw new Error(`${method} ${path} ${JSON.stringify(body)} → ${r.status} ${r.text}`)
    if (method === 'POST' && path !== '/test_helpers/clock/advance') w.last = {path, body, key, status: r.status, text: r.text, at: t.engine.app.core.clock.now().getTime()}
    return r
  }
  const say = (r: {status: number; body: any}) => {
    if (STATS) {
      const k = `${op.op}${op.op === 'create' ? ` ${op.kind}` : ''} ${r.status}${r.body?.error ? ` ${r.body.error.code}` : ''}`
      STATS.set(k, (STATS.get(k) ?? 0) + 1)
    }
    return `${r.status}${r.body?.error ? ` ${r.body.error.code}` : r.body?.status ? ` ${r.body.status}` : ''}`
  }
  switch (op.op) {
    case 'replay': {
      if (!w.last) return 'replay: nothing sent yet'
      const {path, body, key, status, text, at} = w.last
      // replays are answered from the record for 24 hours (engine clock); after that the key is new
      if (t.engine.app.core.clock.now().getTime() - at >= 23 * 3600_000) return 'replay: the 24 h window has passed'
      const r = await careful(t, 'POST', path, body, {'idempotency-key': key})
      expect(r.status, `replay of POST ${path} ${JSON.stringify(body)}`).toBe(status)
      expect(r.text, `replay of POST ${path}: the original body`).toBe(text)
      expect(r.headers['idempotent-replayed']).toBe('true')
      return `replay POST ${path} → ${r.status}`
    }
    case 'restart':
      await t.restart()
      return 'restart'
    case 'chaos': {
      const provider = PROVIDERS[op.provider]!.id
      const [path, body] =
        op.fault === 'down' ? ['/chaos/providers', {provider, fault: 'down', for_seconds: 3600}]
        : op.fault === 'timeout' ? ['/chaos/providers', {provider, fault: 'timeout', rate: 0.5, count: op.count}]
        : op.fault === 'soft_decline' ? ['/chaos/providers', {provider, fault: 'soft_decline', count: op.count}]
        : ['/chaos/api', {method: 'POST', path: op.path, fault: op.fault === 'api_lost' ? 'response_lost' : op.fault.slice(4), count: op.count}]
      const r = await t.api('POST', path, body)
      expect(r.status, r.text).toBe(201)
      return `chaos ${op.fault} ${op.fault.startsWith('api') ? op.path : provider} x${op.count}`
    }
    case 'create': {
      const body = {...KINDS[op.kind](op.amount), return_url: RETURN_URL, ...(op.confirm ? {} : {confirm: false})}
      const r = await call('POST', '/payments', body)
      const id = r.body?.id ?? r.body?.error?.payment
      if (typeof id === 'string') mine.push(id)
      return `create ${op.kind} ${op.amount}${op.confirm ? '' : ' unconfirmed'} → ${say(r)} ${id ?? ''}`
    }
    case 'advance':
      await call('POST', '/test_helpers/clock/advance', {seconds: op.seconds})
      return `advance ${op.seconds}s`
    case 'evidence':
    case 'accept':
    case 'resolve': {
      const dp = await disputeOf(op.i)
      if (!dp) return `${op.op}: no dispute`
      const r =
        op.op === 'evidence'
          ? await call('POST', `/disputes/${dp.id}/evidence`, {fields: {product_description: 'shirt', tracking_number: '1Z999'}})
          : op.op === 'accept'
            ? await call('POST', `/disputes/${dp.id}/accept`)
            : await call('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: op.outcome})
      return `${op.op}${op.op === 'resolve' ? ` ${op.outcome}` : ''} ${dp.id} → ${say(r)}`
    }
  }
  const p = await payment(op.i)
  if (!p) return `${op.op}: no payment`
  let r
  switch (op.op) {
    case 'confirm':
      r = await call('POST', `/payments/${p.id}/confirm`)
      break
    case 'capture': {
      const amount = amountOf(p, op.part, p.amount - p.amount_captured)
      r = await call('POST', `/payments/${p.id}/capture`, {...(amount === undefined ? {} : {amount}), ...(op.final ? {final_capture: true} : {})})
      break
    }
    case 'increment':
      r = await call('POST', `/payments/${p.id}/increment_authorization`, {amount: p.amount + op.by})
      break
    case 'cancel':
      r = await call('POST', `/payments/${p.id}/cancel`)
      break
    case 'action':
      r = await call('POST', `/test_helpers/payments/${p.id}/action`, {outcome: op.outcome})
      break
    case 'review':
      r = await call('POST', `/test_helpers/payments/${p.id}/review`, {decision: op.decision})
      break
    case 'refund': {
      const amount = amountOf(p, op.part, p.amount_captured - p.amount_refunded)
      r = await call('POST', '/refunds', {payment: p.id, ...(amount === undefined ? {} : {amount})})
      break
    }
    case 'dispute': {
      const amount = amountOf(p, op.part, p.amount_captured - p.amount_refunded)
      r = await call('POST', '/test_helpers/disputes', {payment: p.id, ...(amount === undefined ? {} : {amount})})
      break
    }
  }
  return `${op.op} ${JSON.stringify({...op, op: undefined, i: undefined})} ${p.id} (${p.payment_method} ${p.status} ${p.amount_captured}/${p.amount}) → ${say(r)}`
}

// ---------------------------------------------------------------- the invariants

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v)

async function checkInvariants(w: World): Promise<void> {
  await observe(w)
  // plain comparisons collected into one list: thousands of them per step, one expect at the end
  const problems: string[] = []
  const show = (v: unknown) => JSON.stringify(v)
  const eq = (a: unknown, b: unknown, what: string) => a !== b && problems.push(`${what}: ${show(a)}, expected ${show(b)}`)
  const same = (a: unknown, b: unknown, what: string) => show(a) !== show(b) && problems.push(`${what}: ${show(a)}, expected ${show(b)}`)
  const le = (a: number, b: number, what: string) => !(a <= b) && problems.push(`${what}: ${a} > ${b}`)
  const ge = (a: number, b: number, what: string) => !(a >= b) && problems.push(`${what}: ${a} < ${b}`)
  const gt = (a: number, b: number, what: string) => !(a > b) && problems.push(`${what}: ${a} ≤ ${b}`)
  const {t} = w
  const store = t.engine.app.core.store
  const [payments, refunds, disputes, entries, payouts, reports] = await Promise.all([
    store.all<PaymentRecord>('payment'),
    store.all<RefundRecord>('refund'),
    store.all<Dispute & {created_at: string}>('dispute'),
    store.all<LedgerEntry>('ledger_entry'),
    store.all<Payout & {created_at: string}>('payout'),
    store.all<SettlementReport & {created_at: string}>('settlement_report'),
  ])
  const balance = (await t.api('GET', '/balance')).body as {available: {amount: number; currency: string}[]; pending: {amount: number; currency: string}[]}

  // the balance per currency equals the ledger (all entries, payouts included)
  const ledger = new Map<string, number>()
  const moved = new Map<string, number>() // non-payout entries
  for (const e of entries) {
    add(ledger, e.currency, e.amount)
    if (e.type !== 'payout') add(moved, e.currency, e.amount)
  }
  const available = new Map(balance.available.map((x) => [x.currency, x.amount]))
  const pending = new Map(balance.pending.map((x) => [x.currency, x.amount]))
  same([...available.keys()].sort(), [...ledger.keys()].sort(), 'balance currencies = ledger currencies')
  for (const [c, sum] of ledger) eq((available.get(c) ?? 0) + (pending.get(c) ?? 0), sum, `balance of ${c} = its ledger entries`)

  // payouts and reports reconcile: each report is paid by at most one payout, which adds them up
  const byId = new Map(reports.map((r) => [r.id, r]))
  const paidOut = new Map<string, number>()
  const paidReports = new Set<string>()
  for (const po of payouts) {
    let converted = 0
    for (const id of po.settlement_reports) {
      const r = byId.get(id)!
      eq(r.payout, po.id, `report ${id} names payout ${po.id}`)
      eq(paidReports.has(id), false, `report ${id} paid twice`)
      paidReports.add(id)
      add(paidOut, r.currency, r.payout_amount)
      converted += r.converted_payout_amount
    }
    eq(converted, po.amount, `payout ${po.id} = its reports`)
  }
  for (const r of reports) {
    eq(r.gross + r.refunds + r.fees, r.net, `report ${r.id}: gross + refunds + fees = net`)
    eq(r.net + r.adjustments, r.payout_amount, `report ${r.id}: payout_amount = net + adjustments`)
    if (r.payout !== null) eq(paidReports.has(r.id), true, `report ${r.id} names a payout that does not list it`)
  }
  // sum of non-payout entries = available + pending + paid out (in transit included)
  for (const c of new Set([...moved.keys(), ...paidOut.keys()]))
    eq((available.get(c) ?? 0) + (pending.get(c) ?? 0) + (paidOut.get(c) ?? 0), moved.get(c) ?? 0, `${c}: moved = available + pending + paid out`)

  same(w.eventOrder, [], 'events committed out of time order')
  for (const po of payouts) gt(po.amount, 0, `payout ${po.id} is positive`)

  // every movement of a day whose settlement run has happened is on exactly one report line
  // (the engine clock read in process, as `replay` reads it: GET /test_helpers/clock answers the same
  // clock a few ms later, a third of this driver's requests when it was asked for every step)
  const now = t.engine.app.core.clock.now().toISOString()
  const settled = new Map<string, {sum: number; n: number}>()
  for (const e of entries) {
    if (e.type === 'payout' || !e.provider || settlementRunOf(new Date(e.created_at)).toISOString() > now) continue
    const x = settled.get(e.currency) ?? {sum: 0, n: 0}
    settled.set(e.currency, {sum: x.sum + e.amount, n: x.n + 1})
  }
  const reported = new Map<string, {sum: number; n: number}>()
  for (const r of reports)
    for (const l of r.lines) {
      if (l.type === 'conversion') continue
      const x = reported.get(l.currency) ?? {sum: 0, n: 0}
      reported.set(l.currency, {sum: x.sum + l.amount, n: x.n + 1})
    }
  for (const c of new Set([...settled.keys(), ...reported.keys()])) same(reported.get(c), settled.get(c), `${c}: settled entries = report lines`)

  // disputes: a deadline exactly while a response is due
  for (const d of disputes) eq(d.evidence_due_by !== null, d.status === 'needs_response', `${d.id} (${d.status}): evidence_due_by`)

  // the same money, from the business objects alone: captures net of fees, less refunds and disputes
  const expected = new Map<string, number>()
  const refundedOf = new Map<string, number>()
  const disputedOf = new Map<string, number>()
  for (const p of payments) {
    if (p.status !== 'succeeded') continue
    add(expected, p.currency, p.amount_captured - feeFor(providerProfile(p.provider!)!, p.amount_captured, p.currency))
  }
  for (const r of refunds) {
    if (r.status === 'failed') continue
    add(expected, r.currency, -r.amount)
    add(refundedOf, r.payment, r.amount)
  }
  for (const d of disputes) {
    if (d.status === 'won') continue
    add(expected, d.currency, -d.amount)
    add(disputedOf, d.payment, d.amount)
  }
  for (const c of new Set([...expected.keys(), ...moved.keys()])) eq(moved.get(c) ?? 0, expected.get(c) ?? 0, `${c}: ledger = captures - fees - refunds - disputes`)
  // ... and object by object: each payment's captures, each refund's and each dispute's movements
  const bySource = new Map<string, number>()
  const captureOf = new Map<string, number>()
  for (const e of entries) {
    if (e.type === 'payment') add(captureOf, e.payment!, e.amount)
    if (e.source && e.type !== 'payout') add(bySource, e.source, e.amount)
  }
  for (const p of payments) eq(captureOf.get(p.id) ?? 0, p.status === 'succeeded' ? p.amount_captured : 0, `${p.id} (${p.status}): ledger captures`)
  for (const r of refunds) eq(bySource.get(r.id) ?? 0, r.status === 'failed' ? 0 : -r.amount, `${r.id} (${r.status}): ledger`)
  for (const d of disputes) eq(bySource.get(d.id) ?? 0, d.status === 'won' ? 0 : -d.amount, `${d.id} (${d.status}): ledger`)

  // per payment: amounts, refund flags (against amount_captured), forward-only statuses, one terminal event
  for (const p of payments) {
    const tag = `${p.id} (${p.payment_method}, ${p.status}, ${p.amount_captured}/${p.amount})`
    le(p.amount_captured, p.amount, `${tag}: captured ≤ amount`)
    eq(p.amount_refunded, refundedOf.get(p.id) ?? 0, `${tag}: amount_refunded = its refunds`)
    le(p.amount_refunded, p.amount_captured, `${tag}: refunded ≤ captured`)
    le(p.amount_refunded + (disputedOf.get(p.id) ?? 0), p.amount_captured, `${tag}: refunded + disputed ≤ captured`)
    eq(p.refunded, p.amount_captured > 0 && p.amount_refunded === p.amount_captured, `${tag}: refunded flag`)
    eq(p.partially_refunded, p.amount_refunded > 0 && p.amount_refunded < p.amount_captured, `${tag}: partially_refunded flag`)
    if (p.status === 'failed' || p.status === 'canceled') eq(p.amount_captured, 0, `${tag}: a ${p.status} payment keeps no captured money`)
    if (p.status === 'succeeded') gt(p.amount_captured, 0, `${tag}: a succeeded payment captured money`)
    const before = w.seen.get(p.id)
    if (before) {
      ge(RANK[p.status]!, RANK[before.status]!, `${tag}: status moved back from ${before.status}`)
      if (RANK[before.status] === 4) eq(p.status, before.status, `${tag}: left terminal ${before.status}`)
    }
    w.seen.set(p.id, {status: p.status})
    const evs = (w.events.get(p.id) ?? []).filter((e) => e.type.startsWith('payment.'))
    for (let i = 1; i < evs.length; i++) ge(RANK[evs[i]!.status]!, RANK[evs[i - 1]!.status]!, `${tag}: events ${evs.map((e) => e.type).join(', ')}`)
    const terminal = evs.filter((e) => e.type in TERMINAL_EVENT)
    le(terminal.length, 1, `${tag}: terminal events ${terminal.map((e) => e.type).join(', ')}`)
    if (RANK[p.status] === 4) same(terminal.map((e) => TERMINAL_EVENT[e.type]), [p.status], `${tag}: its terminal event`)
  }
  // disputes and refunds only move forward too
  for (const d of disputes) {
    const before = w.seen.get(d.id)
    if (before) {
      ge(STAGE_RANK[d.stage]!, STAGE_RANK[before.stage!]!, `${d.id}: stage moved back`)
      if (['won', 'lost', 'accepted'].includes(before.status)) eq(d.status, before.status, `${d.id}: left ${before.status}`)
    }
    w.seen.set(d.id, {status: d.status, stage: d.stage})
  }
  for (const r of refunds) {
    const before = w.seen.get(r.id)
    if (before && before.status !== 'pending') eq(r.status, before.status, `${r.id}: left ${before.status}`)
    w.seen.set(r.id, {status: r.status})
  }
  expect(problems).toEqual([])
}

// ---------------------------------------------------------------- the property

async function runSequence(ops: Op[], fresh = false): Promise<void> {
  const w = await worldForRun(fresh)
  const mine: string[] = []
  const done: string[] = []
  for (const op of ops) {
    try {
      done.push(await apply(w, op, mine))
      await checkInvariants(w)
    } catch (e) {
      shrinking = true
      ;(e as Error).message = `${(e as Error).message}\n  after:\n    ${done.join('\n    ')}\n  at: ${JSON.stringify(op)}`
      throw e
    }
  }
}

describe('money invariants under random operation sequences (fast-check)', () => {
  it(`hold after every step of ${RUNS} sequences`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, {minLength: 4, maxLength: 20, size: 'max'}), (ops) => runSequence(ops)),
      {numRuns: RUNS, seed: process.env.GW_PROPERTY_SEED ? Number(process.env.GW_PROPERTY_SEED) : undefined, endOnFailure: false},
    )
    // the invariants held with chaos on: faults were injected and retried with their keys
    if (RUNS >= 100) {
      expect(injected.answers).toBeGreaterThan(0)
      expect(injected.lost).toBeGreaterThan(0)
    }
  }, 240_000)
})

// Counterexamples fast-check shrank to, kept as plain sequences on a fresh engine. Each failed
// before the fix named next to it.
describe('regressions found by the property test', () => {
  it('cancel after a partial capture kept the payment canceled with money captured and nothing in the ledger (fixed: it succeeds)', async () => {
    await runSequence(
      [
        {op: 'create', kind: 'card_refund_fails_manual', amount: 1000, confirm: true},
        {op: 'capture', i: 0, part: 'third', final: false},
        {op: 'cancel', i: 0},
        {op: 'refund', i: 0, part: 'all'},
        {op: 'advance', seconds: 7 * DAY + 60},
      ],
      true,
    )
    const store = world!.t.engine.app.core.store
    const [p] = await store.all<PaymentRecord>('payment')
    expect(p).toMatchObject({status: 'succeeded', amount_captured: 333, amount_refunded: 0})
  })

  it('a settled and paid-out day was still on the balance (fixed: payouts are ledger movements)', async () => {
    await runSequence(
      [
        {op: 'create', kind: 'card', amount: 1000, confirm: true},
        {op: 'advance', seconds: 2 * DAY + 3600},
      ],
      true,
    )
  })

  it('after 40 days without events every event was purged and the next one reused an old seq, so readers resuming by seq never saw it (fixed: seqs are never reused)', async () => {
    await runSequence(
      [
        {op: 'create', kind: 'card', amount: 1000, confirm: true},
        {op: 'advance', seconds: 8 * DAY},
        {op: 'advance', seconds: 8 * DAY},
        {op: 'advance', seconds: 8 * DAY},
        {op: 'advance', seconds: 8 * DAY},
        {op: 'advance', seconds: 8 * DAY},
        {op: 'create', kind: 'card', amount: 2000, confirm: true},
      ],
      true,
    )
  })

  it('a settlement run scheduled by a job ran after later-due jobs of the same advance (fixed: due order)', async () => {
    await runSequence(
      [
        {op: 'create', kind: 'card_manual', amount: 2000, confirm: true},
        {op: 'create', kind: 'bacs_debit', amount: 5000, confirm: true},
        {op: 'advance', seconds: 8 * DAY},
      ],
      true,
    )
  })
})
