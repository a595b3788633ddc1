// Settlement (docs/api.md#the-acquiring-chain, docs/api.md#settlement-and-payouts, docs/decisions.md#settlement-and-payouts),
// pure: one day's ledger entries become one report per provider and currency; conversions to
// a payout currency are lines of their own.
import {stringify} from 'csv-stringify/sync'
import type {Payout, SettlementLine, SettlementReport} from '../../api/types.js'
import type {LedgerEntry} from './ledger.js'
import {currencyExponent} from '../../api/money.js'

/** Reports for day D are generated at D+1 02:00 UTC, after the day's late entries. */
export const SETTLEMENT_RUN_HOUR_UTC = 2
/** A payout arrives at the bank one day after it is sent. */
export const PAYOUT_TRANSIT_DAYS = 1

/** Simulated, fixed conversion rates: units of EUR per unit of the currency. */
export const EUR_PER_UNIT: Readonly<Record<string, number>> = {
  EUR: 1, USD: 0.92, GBP: 1.17, CHF: 1.04, SEK: 0.087, NOK: 0.085, DKK: 0.134, PLN: 0.23, CZK: 0.04, HUF: 0.0025,
  RON: 0.2, JPY: 0.0061, BRL: 0.17, MXN: 0.05, CAD: 0.68, AUD: 0.6, NZD: 0.55, SGD: 0.68, MYR: 0.2, THB: 0.026,
  IDR: 0.000058, INR: 0.011, KRW: 0.00068, CNY: 0.127, HKD: 0.118, KES: 0.0071, KWD: 3.0, AED: 0.25, ZAR: 0.05, PHP: 0.016,
  TRY: 0.027, ILS: 0.25, SAR: 0.245, CLP: 0.00098, COP: 0.00023, PEN: 0.245, ARS: 0.001, TWD: 0.028, VND: 0.000037, EGP: 0.019,
}

export type {SettlementLine, SettlementReport, Payout}
export type LineType = SettlementLine['type']

const LINE_TYPE: Record<Exclude<LedgerEntry['type'], 'payout'>, LineType> = {
  payment: 'payment',
  fee: 'fee',
  refund: 'refund',
  refund_failure: 'refund',
  dispute: 'dispute',
  dispute_reversal: 'dispute_reversal',
}

export function convert(amount: number, from: string, to: string): {amount: number; rate: number} {
  const a = EUR_PER_UNIT[from]
  const b = EUR_PER_UNIT[to]
  if (a === undefined || b === undefined) throw new Error(`no conversion rate from ${from} to ${to}`)
  const rate = Math.round((a / b) * 1e8) / 1e8
  const major = amount / 10 ** (currencyExponent(from) ?? 2)
  return {amount: Math.round(major * rate * 10 ** (currencyExponent(to) ?? 2)), rate}
}

/** Builds one day's reports from its ledger entries. Pure. */
export function buildReports(
  entries: readonly LedgerEntry[],
  date: string,
  payoutCurrency: string | null,
  ids: () => string,
  at: Date,
  livemode: boolean,
): SettlementReport[] {
  const groups = new Map<string, LedgerEntry[]>()
  for (const e of entries) {
    // payouts pay reports; they are not lines of one
    if (!e.provider || e.type === 'payout') continue
    const k = `${e.provider}\u0000${e.currency}`
    const g = groups.get(k)
    if (g) g.push(e)
    else groups.set(k, [e])
  }
  const out: SettlementReport[] = []
  for (const [k, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [provider, currency] = k.split('\u0000') as [string, string]
    const lines: SettlementLine[] = list.map((e) => ({
      type: LINE_TYPE[e.type as Exclude<LedgerEntry['type'], 'payout'>],
      payment: e.payment,
      reference: e.reference,
      amount: e.amount,
      currency: e.currency,
      created_at: e.created_at,
    }))
    const sum = (...t: LineType[]) => lines.filter((l) => t.includes(l.type)).reduce((s, l) => s + l.amount, 0)
    const gross = sum('payment')
    const refunds = sum('refund')
    const fees = sum('fee')
    const net = gross + refunds + fees
    const adjustments = sum('dispute', 'dispute_reversal')
    const payout_amount = net + adjustments
    const id = ids()
    let pc = currency
    let converted = payout_amount
    if (payoutCurrency && payoutCurrency !== currency && EUR_PER_UNIT[currency] !== undefined && EUR_PER_UNIT[payoutCurrency] !== undefined) {
      const c = convert(payout_amount, currency, payoutCurrency)
      pc = payoutCurrency
      converted = c.amount
      lines.push({type: 'conversion', payment: null, reference: id, amount: -payout_amount, currency, created_at: at.toISOString(), rate: c.rate, converted_amount: c.amount, converted_currency: payoutCurrency})
    }
    out.push({
      id,
      object: 'settlement_report',
      provider,
      date,
      currency,
      gross,
      refunds,
      fees,
      net,
      adjustments,
      payout_amount,
      payout_currency: pc,
      converted_payout_amount: converted,
      lines,
      payout: null,
      livemode,
      created_at: at.toISOString(),
    })
  }
  return out
}


export const DAY_MS = 86_400_000

/** When the settlement run that covers the day of `at` happens: the next day at SETTLEMENT_RUN_HOUR_UTC. */
export function settlementRunOf(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) + DAY_MS + SETTLEMENT_RUN_HOUR_UTC * 3_600_000)
}

/** The next settlement run strictly after `after`: SETTLEMENT_RUN_HOUR_UTC on that day or the next. */
export function nextRun(after: Date): Date {
  const d = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), SETTLEMENT_RUN_HOUR_UTC))
  return d.getTime() > after.getTime() ? d : new Date(d.getTime() + DAY_MS)
}

/** CSV of a report: one row per line, each carrying the payment reference (docs/api.md#settlement-and-payouts). Amounts in minor units. */
export function reportCsv(r: SettlementReport): string {
  return stringify(
    r.lines.map((l) => [r.id, r.date, r.provider, l.type, l.payment ?? '', l.reference ?? '', l.amount, l.currency, l.rate ?? '', l.converted_amount ?? '', l.converted_currency ?? '', l.created_at]),
    {header: true, columns: ['report', 'date', 'provider', 'type', 'payment', 'reference', 'amount', 'currency', 'rate', 'converted_amount', 'converted_currency', 'created_at']},
  )
}
