// The ledger: every money movement is one immutable entry in one currency. Payment refund
// totals, the balance and settlement are derived from it.
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
import type {Payment} from '../../api/types.js'

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

/** The payment's refund fields from its ledger entries; flags are computed against amount_captured. */
export function withRefundTotals<P extends Payment>(p: P, entries: readonly LedgerEntry[]): P {
  const {refunded} = paymentMoney(entries)
  return {...p, amount_refunded: refunded, refunded: p.amount_captured > 0 && refunded >= p.amount_captured, partially_refunded: refunded > 0 && refunded < p.amount_captured}
}

/** What can still be refunded (or disputed): captured, less pending and succeeded refunds, less disputed amounts still debited. */
export function refundableOf(p: Payment, entries: readonly LedgerEntry[]): number {
  const m = paymentMoney(entries)
  return Math.max(0, p.amount_captured - m.refunded - m.disputed)
}
