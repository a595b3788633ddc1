// The ledger as the application writes and reads it, and what follows captured funds.
import type {Balance} from '../../api/types.js'
import type {LedgerEntry, LedgerEntryType} from '../domain/ledger.js'
import type {PaymentRecord} from '../domain/payment.js'
import {feeFor, providerProfile} from '../domain/providers.js'
import {settlementRunOf} from '../domain/settlement.js'
import type {Core} from '../core/core.js'
import type {Unit} from '../core/unit.js'
import {iso} from '../domain/time.js'

export interface EntryInput {
  type: LedgerEntryType
  amount: number
  currency: string
  payment: string | null
  source?: string | null
  provider?: string | null
  reference?: string | null
  at: Date
  available_at?: Date
}

/** Adds an immutable ledger entry to the unit of work. */
export function recordEntry(u: Unit, e: EntryInput): LedgerEntry {
  const entry: LedgerEntry = {
    id: u.core.ids.next('le'),
    object: 'ledger_entry',
    type: e.type,
    amount: e.amount,
    currency: e.currency,
    payment: e.payment,
    source: e.source ?? null,
    provider: e.provider ?? null,
    reference: e.reference ?? null,
    available_at: iso(e.available_at ?? e.at),
    created_at: iso(e.at),
  }
  u.put('ledger_entry', entry)
  return entry
}

export function entriesFor(u: Pick<Unit, 'all'>, paymentId: string): Promise<LedgerEntry[]> {
  return u.all<LedgerEntry, 'ledger_entry'>('ledger_entry', [{field: 'payment', op: 'eq', value: paymentId}])
}

/** Funds were captured: the amount (pending until its day's settlement run) and the provider's fee. */
export function onPaymentSucceeded(u: Unit, p: PaymentRecord, at: Date): void {
  if (p.amount_captured > 0) {
    const available_at = settlementRunOf(at)
    const entry = (type: LedgerEntryType, amount: number): EntryInput => ({type, amount, currency: p.currency, payment: p.id, provider: p.provider, reference: p.reference, at, available_at})
    recordEntry(u, entry('payment', p.amount_captured))
    const profile = p.provider ? providerProfile(p.provider) : undefined
    const fee = profile ? feeFor(profile, p.amount_captured, p.currency) : 0
    if (fee > 0) recordEntry(u, entry('fee', -fee))
  }
}

/**
 * Available and pending amounts per currency at `now`, currencies in alphabetical order: two
 * sums over the entries' (currency, available_at, amount) columns in the store.
 */
export async function balance(core: Core, now: Date = core.clock.now()): Promise<Balance> {
  const total = await core.store.sum('ledger_entry', {field: 'amount', groupBy: 'currency'})
  const avail = new Map(
    (await core.store.sum('ledger_entry', {field: 'amount', groupBy: 'currency', filters: [{field: 'available_at', op: 'lte', value: iso(now)}]})).map((r) => [r.group, r.sum]),
  )
  return {
    object: 'balance',
    available: total.map((r) => ({amount: avail.get(r.group) ?? 0, currency: r.group})),
    pending: total.map((r) => ({amount: r.sum - (avail.get(r.group) ?? 0), currency: r.group})),
  }
}
