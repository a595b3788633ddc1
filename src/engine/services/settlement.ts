// Settlement (spec §1 acquiring chain, §2 settlement report and payout, decisions.md shape):
// once a day, for the previous engine-clock day, one report per provider and currency is
// built from the ledger, then one payout per payout currency pays that day's reports (and
// any earlier report left unpaid because its day's total was not positive). A payout is a
// ledger movement: one `payout` entry per report it pays debits the report's currency by the
// report's payout_amount, so the balance, the reports and the payouts reconcile.
import {stringify} from 'csv-stringify/sync'
import type {Payout, SettlementLine, SettlementReport} from '../../api/types.js'
import {currencyExponent} from '../domain/money.js'
import {invalid, notFound} from '../http/errors.js'
import type {HandlerResult, RequestCtx} from '../http/router.js'
import {pageParams} from '../http/validate.js'
import type {Kernel} from '../kernel.js'
import type {Filter, Job} from '../ports/store.js'
import {Draft} from './draft.js'
import {SETTLEMENT_RUN_HOUR_UTC, type Ledger, type LedgerEntry} from './ledger.js'

/** Reports for day D are generated at D+1 02:00 UTC, after the day's late entries. */
export {SETTLEMENT_RUN_HOUR_UTC}
/** Settings key: ids of reports not paid yet (their payout currency's total was not positive), oldest first. */
const UNPAID_SETTING = 'settlement_unpaid_reports'
/** Settings key: set once payouts are ledger entries (data dirs from before get their payouts booked at start). */
const PAYOUT_LEDGER_SETTING = 'payout_ledger'
/** A payout arrives at the bank one day after it is sent. */
export const PAYOUT_TRANSIT_DAYS = 1
const DAY_MS = 86_400_000

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

const nextRun = (after: Date) => {
  const d = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), SETTLEMENT_RUN_HOUR_UTC))
  return d.getTime() > after.getTime() ? d : new Date(d.getTime() + DAY_MS)
}

export class SettlementService {
  constructor(
    private k: Kernel,
    private payoutCurrency: string | null,
    private ledger: Ledger,
  ) {
    k.registerJob('settlement.run', (job, at) => this.onRun(job, at))
    k.registerJob('payout.arrive', (job) => this.onArrive(job))
  }

  /** Makes sure the daily run is scheduled (first start of a data dir), and that payouts are booked in the ledger. */
  async init(): Promise<void> {
    const d = new Draft(this.k, null)
    if (!(await this.k.store.getSetting('settlement_scheduled'))) {
      d.schedule('settlement.run', 'settlement', nextRun(this.k.clock.now()))
      d.settings.settlement_scheduled = '1'
    }
    if (!(await this.k.store.getSetting(PAYOUT_LEDGER_SETTING))) {
      // a data dir from before payouts were ledger movements: book the payouts it made, and
      // remember the reports left unpaid so the next payout takes them
      const reports = new Map((await this.k.store.all<SettlementReport>('settlement_report')).map((r) => [r.id, r]))
      for (const po of await this.k.store.all<Payout>('payout')) {
        for (const id of po.settlement_reports) {
          const r = reports.get(id)
          if (r) this.bookPayout(d, po, r, new Date(po.created_at))
        }
      }
      d.settings[UNPAID_SETTING] = JSON.stringify([...reports.values()].filter((r) => r.payout === null).map((r) => r.id))
      d.settings[PAYOUT_LEDGER_SETTING] = '1'
    }
    const cs = d.changeSet()
    if (cs.puts?.length || cs.addJobs?.length || Object.keys(cs.settings ?? {}).length) await this.k.commit(cs)
  }

  /** The payout's ledger entry for one report it pays: the report's payout_amount leaves the report's currency. */
  private bookPayout(d: Draft, po: Payout, r: SettlementReport, at: Date) {
    if (r.payout_amount === 0) return
    this.ledger.record(d, {type: 'payout', amount: -r.payout_amount, currency: r.currency, payment: null, source: po.id, provider: r.provider, reference: r.id, at})
  }

  private async onRun(_job: Job, at: Date) {
    const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) - DAY_MS)
    const date = day.toISOString().slice(0, 10)
    const entries = await this.k.store.all<LedgerEntry>('ledger_entry', [
      {field: 'created_at', op: 'gte', value: day.toISOString()},
      {field: 'created_at', op: 'lte', value: new Date(day.getTime() + DAY_MS - 1).toISOString()},
    ])
    const d = new Draft(this.k, null)
    const reports = buildReports(entries, date, this.payoutCurrency, () => this.k.ids.next('stl'), at, this.k.livemode)
    // earlier reports still unpaid (their day's total was not positive) join this run's payout
    const unpaid: {r: SettlementReport; version: number}[] = []
    for (const id of JSON.parse((await this.k.store.getSetting(UNPAID_SETTING)) ?? '[]') as string[]) {
      const got = await this.k.store.get<SettlementReport>('settlement_report', id)
      if (got && got.obj.payout === null) unpaid.push({r: got.obj, version: got.version})
    }
    // one payout per payout currency, referencing every report it pays
    const byCurrency = new Map<string, {r: SettlementReport; version?: number}[]>()
    for (const x of [...unpaid, ...reports.map((r) => ({r}))]) byCurrency.set(x.r.payout_currency, [...(byCurrency.get(x.r.payout_currency) ?? []), x])
    const stillUnpaid: string[] = []
    for (const [currency, rs] of byCurrency) {
      const amount = rs.reduce((s, x) => s + x.r.converted_payout_amount, 0)
      if (amount <= 0) {
        // nothing to pay out: the reports' money stays on the balance until a later payout takes it
        stillUnpaid.push(...rs.map((x) => x.r.id))
        continue
      }
      const arrival = new Date(at.getTime() + PAYOUT_TRANSIT_DAYS * DAY_MS)
      const po: Payout = {
        id: this.k.ids.next('po'),
        object: 'payout',
        amount,
        currency,
        status: 'in_transit',
        arrival_date: arrival.toISOString().slice(0, 10),
        settlement_reports: rs.map((x) => x.r.id),
        livemode: this.k.livemode,
        created_at: at.toISOString(),
      }
      for (const x of rs) {
        x.r.payout = po.id
        if (x.version !== undefined) d.put('settlement_report', x.r, x.version)
        this.bookPayout(d, po, x.r, at)
      }
      d.put('payout', po)
      d.schedule('payout.arrive', po.id, arrival)
    }
    for (const r of reports) {
      d.put('settlement_report', r)
      d.emit('settlement.report.ready', r, at)
    }
    d.settings[UNPAID_SETTING] = JSON.stringify(stillUnpaid)
    d.schedule('settlement.run', 'settlement', new Date(at.getTime() + DAY_MS))
    return d.changeSet()
  }

  private async onArrive(job: Job) {
    const got = await this.k.store.get<Payout>('payout', job.ref)
    if (!got || got.obj.status !== 'in_transit') return undefined
    const d = new Draft(this.k, null)
    const paid: Payout = {...got.obj, status: 'paid'}
    d.put('payout', paid, got.version)
    return d.changeSet()
  }

  async listReports(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['provider', 'currency', 'date'])
    const filters: Filter[] = []
    for (const f of ['provider', 'currency', 'date'] as const) {
      const v = ctx.query.get(f)
      if (v === null) continue
      if (f === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw invalid('date', `date must be YYYY-MM-DD; got '${v}'.`)
      filters.push({field: f, op: 'eq', value: v})
    }
    const res = await this.k.store.list<SettlementReport>('settlement_report', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such settlement report.`)
    return {status: 200, body: {object: 'list', url: '/v1/settlement_reports', data: res.data, has_more: res.has_more}}
  }

  async retrieveReport(ctx: RequestCtx): Promise<HandlerResult> {
    const id = ctx.params.id!
    const got = id.startsWith('stl_') ? await this.k.store.get<SettlementReport>('settlement_report', id) : undefined
    if (!got) throw notFound('settlement report', id)
    const accept = String(ctx.headers.accept ?? '')
    if (accept.includes('text/csv')) return {status: 200, text: {contentType: 'text/csv; charset=utf-8', body: reportCsv(got.obj)}}
    return {status: 200, body: got.obj}
  }

  async listPayouts(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['currency', 'status'])
    const filters: Filter[] = []
    for (const f of ['currency', 'status'] as const) {
      const v = ctx.query.get(f)
      if (v !== null) filters.push({field: f, op: 'eq', value: v})
    }
    const res = await this.k.store.list<Payout>('payout', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such payout.`)
    return {status: 200, body: {object: 'list', url: '/v1/payouts', data: res.data, has_more: res.has_more}}
  }

  async retrievePayout(ctx: RequestCtx): Promise<HandlerResult> {
    const id = ctx.params.id!
    const got = id.startsWith('po_') ? await this.k.store.get<Payout>('payout', id) : undefined
    if (!got) throw notFound('payout', id)
    return {status: 200, body: got.obj}
  }
}

/** CSV of a report: one row per line, each carrying the payment reference (§2). Amounts in minor units. */
export function reportCsv(r: SettlementReport): string {
  return stringify(
    r.lines.map((l) => [r.id, r.date, r.provider, l.type, l.payment ?? '', l.reference ?? '', l.amount, l.currency, l.rate ?? '', l.converted_amount ?? '', l.converted_currency ?? '', l.created_at]),
    {header: true, columns: ['report', 'date', 'provider', 'type', 'payment', 'reference', 'amount', 'currency', 'rate', 'converted_amount', 'converted_currency', 'created_at']},
  )
}
