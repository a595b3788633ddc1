// The ledger: every money movement is one immutable entry in one currency (kind
// `ledger_entry`). Payment refund totals, the balance and settlement are derived from it.
//
//   payment           +amount_captured   when a payment succeeds (funds captured)
//   fee               -provider fee      with the payment, same availability
//   refund            -refund amount     when a refund is created (pending counts: the money is owed back)
//   refund_failure    +refund amount     when the rail fails the refund (the debit is reversed)
//   dispute           -disputed amount   when a dispute opens (withheld)
//   dispute_reversal  +disputed amount   when a dispute is won (returned)
//   payout            -report payout     when a payout is sent (one per settlement report it pays)
//
// Credits from captures (and their fee) are pending until the settlement run of their day
// (D+1 02:00 UTC), which makes them available and pays them out at once; every debit and
// every reversal is available at once. So for every currency, at every moment:
//   sum of all entries = available + pending, and
//   sum of the non-payout entries = available + pending + paid out (in transit included).
import {feeFor, providerProfile} from '../domain/providers.js'
import type {HandlerResult, RequestCtx} from '../http/router.js'
import {validate} from '../http/validate.js'
import type {Kernel} from '../kernel.js'
import type {Draft} from './draft.js'
import type {PaymentRecord} from './payments.js'

/** The daily settlement run for day D happens at D+1 at this hour (UTC, engine clock). */
export const SETTLEMENT_RUN_HOUR_UTC = 2
const DAY_MS = 86_400_000

/** When the settlement run that covers the day of `at` happens: the next day at 02:00 UTC. */
export function settlementRunOf(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) + DAY_MS + SETTLEMENT_RUN_HOUR_UTC * 3_600_000)
}

export type LedgerEntryType = 'payment' | 'fee' | 'refund' | 'refund_failure' | 'dispute' | 'dispute_reversal' | 'payout'

export interface LedgerEntry {
  id: string
  object: 'ledger_entry'
  type: LedgerEntryType
  /** signed, minor units of `currency`: credits positive, debits negative */
  amount: number
  currency: string
  /** the payment the movement belongs to (null for payouts) */
  payment: string | null
  /** the refund (`rf_`), dispute (`dp_`) or payout (`po_`) that caused it, else null */
  source: string | null
  /** the provider that moved the money (settlement reports are per provider) */
  provider: string | null
  /** the payment's merchant order id, for settlement lines (a payout entry: the report it pays) */
  reference: string | null
  /** when the amount counts as available rather than pending */
  available_at: string
  created_at: string
}

/** Totals of one payment derived from its entries. */
export interface PaymentMoney {
  captured: number
  /** pending and succeeded refunds (refund minus refund_failure) */
  refunded: number
  /** disputed amounts still debited (dispute minus dispute_reversal): withheld while open, kept when lost or accepted */
  disputed: number
  fees: number
}

export function paymentMoney(entries: readonly LedgerEntry[]): PaymentMoney {
  const m: PaymentMoney = {captured: 0, refunded: 0, disputed: 0, fees: 0}
  for (const e of entries) {
    switch (e.type) {
      case 'payment':
        m.captured += e.amount
        break
      case 'fee':
        m.fees -= e.amount
        break
      case 'refund':
      case 'refund_failure':
        m.refunded -= e.amount
        break
      case 'dispute':
      case 'dispute_reversal':
        m.disputed -= e.amount
        break
    }
  }
  return m
}

export class Ledger {
  constructor(private k: Kernel) {}

  /** Kept for callers that prepared a cache; the balance is summed in the store on demand. */
  async load(): Promise<void> {}

  /** Adds an immutable entry to the unit of work. */
  record(
    d: Draft,
    e: {type: LedgerEntryType; amount: number; currency: string; payment: string | null; source?: string | null; provider?: string | null; reference?: string | null; at: Date; available_at?: Date},
  ): LedgerEntry {
    const entry: LedgerEntry = {
      id: this.k.ids.next('le'),
      object: 'ledger_entry',
      type: e.type,
      amount: e.amount,
      currency: e.currency,
      payment: e.payment,
      source: e.source ?? null,
      provider: e.provider ?? null,
      reference: e.reference ?? null,
      available_at: (e.available_at ?? e.at).toISOString(),
      created_at: e.at.toISOString(),
    }
    d.put('ledger_entry', entry)
    return entry
  }

  /** Success hook of PaymentsService: the captured amount (pending until its day's settlement run) and the provider's fee. */
  onPaymentSucceeded = (p: PaymentRecord, d: Draft, now: Date): void => {
    if (p.amount_captured <= 0) return
    const availableAt = settlementRunOf(now)
    const common = {currency: p.currency, payment: p.id, provider: p.provider, reference: p.reference, at: now, available_at: availableAt}
    this.record(d, {...common, type: 'payment', amount: p.amount_captured})
    const profile = p.provider ? providerProfile(p.provider) : undefined
    const fee = profile ? feeFor(profile, p.amount_captured, p.currency) : 0
    if (fee > 0) this.record(d, {...common, type: 'fee', amount: -fee})
  }

  async entriesFor(paymentId: string): Promise<LedgerEntry[]> {
    return this.k.store.all<LedgerEntry>('ledger_entry', [{field: 'payment', op: 'eq', value: paymentId}])
  }

  /**
   * Available and pending amounts per currency at the engine clock's now, currencies in
   * alphabetical order: two sums over a covering index of the entries (currency,
   * available_at, amount), so nothing is held in memory and start-up reads nothing.
   */
  async balance(now: Date = this.k.clock.now()) {
    const iso = now.toISOString()
    const total = await this.k.store.sum('ledger_entry', {field: 'amount', groupBy: 'currency'})
    const avail = new Map(
      (await this.k.store.sum('ledger_entry', {field: 'amount', groupBy: 'currency', filters: [{field: 'available_at', op: 'lte', value: iso}]})).map(
        (r) => [r.group, r.sum],
      ),
    )
    const available: {amount: number; currency: string}[] = []
    const pending: {amount: number; currency: string}[] = []
    for (const r of total) {
      if (r.group === null) continue
      const a = avail.get(r.group) ?? 0
      available.push({amount: a, currency: r.group})
      pending.push({amount: r.sum - a, currency: r.group})
    }
    return {object: 'balance' as const, available, pending}
  }

  async retrieveBalance(ctx: RequestCtx): Promise<HandlerResult> {
    validate(Object.fromEntries(ctx.query), {})
    return {status: 200, body: await this.balance()}
  }
}
