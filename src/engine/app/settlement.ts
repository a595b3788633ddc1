// Settlement runs and payouts on the engine clock, and their reads. Once a day, for the
// previous engine-clock day, one report per provider and currency is built from the ledger,
// then one payout per payout currency pays that day's reports (and any earlier report left
// unpaid because its payout currency's total was not positive). A payout is a ledger movement:
// one `payout` entry per report it pays debits the report's currency by the report's
// payout_amount, so the balance, the reports and the payouts reconcile.
import {invalid, notFound} from '../domain/errors.js'
import {listPage, type PageQuery} from '../core/lists.js'
import type {LedgerEntry} from '../domain/ledger.js'
import {buildReports, DAY_MS, nextRun, PAYOUT_TRANSIT_DAYS, type Payout, SETTLEMENT_RUN_HOUR_UTC, type SettlementReport} from '../domain/settlement.js'
import type {ClaimedJob, Filter, ListPage} from '../ports/store.js'
import type {Core} from '../core/core.js'
import {recordEntry} from './ledger.js'
import type {Unit} from '../core/unit.js'
import {settingProblem} from '../core/stored-rows.js'

const SCHEDULED = 'settlement_scheduled'
/** Settings key: ids of reports not paid yet (their payout currency's total was not positive), oldest first. */
const UNPAID = 'settlement_unpaid_reports'
/** Settings key: set once payouts are ledger entries (data dirs from before get their payouts booked at start). */
const PAYOUT_LEDGER = 'payout_ledger'

/** The payout's ledger entry for one report it pays: the report's payout_amount leaves the report's currency. */
function bookPayout(u: Unit, po: Payout, r: SettlementReport, at: Date): void {
  if (r.payout_amount === 0) return
  recordEntry(u, {type: 'payout', amount: -r.payout_amount, currency: r.currency, payment: null, source: po.id, provider: r.provider, reference: r.id, at})
}

/** The run that settles the day of `t` (the next day at SETTLEMENT_RUN_HOUR_UTC). */
const runFor = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS + DAY_MS + SETTLEMENT_RUN_HOUR_UTC * 3_600_000

/**
 * When the settlement run after the one due `at` is due: the next day's, unless the engine clock
 * is already past it (it jumped) — then the run of the first day on which anything can have
 * been booked: the day of the first ledger entry after the day just settled, of the first job due
 * from `at` on (a job books at its due time), or today's (requests book from now on). Days
 * between, with nothing to settle, cost nothing: a catch-up is as long as what happened, not as
 * the days the clock passed (docs/api.md#clock-jumps).
 */
async function nextSettlementRun(core: Core, u: Unit, job: ClaimedJob, at: Date): Promise<Date> {
  const next = at.getTime() + DAY_MS
  const now = core.clock.now().getTime()
  if (next > now) return new Date(next)
  // (the run due `at` settled the day before at's: entries from at's day on are not settled yet)
  const unsettled = new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS).toISOString()
  const [entry, due] = await Promise.all([core.store.earliest('ledger_entry', 'created_at', [{field: 'created_at', op: 'gte', value: unsettled}]), core.store.nextJobDue(at.toISOString(), job.id)])
  const firsts = [now, ...[entry, due, ...u.jobsAdded.map((j) => j.due_at)].filter((t): t is string => t !== undefined).map((t) => Date.parse(t))]
  return new Date(Math.max(next, runFor(Math.min(...firsts))))
}

export function registerSettlementJobs(core: Core): void {
  core.jobs.register('settlement.run', async (u, job) => {
    const at = u.now
    const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) - DAY_MS)
    const entries = await u.all<LedgerEntry, 'ledger_entry'>('ledger_entry', [
      {field: 'created_at', op: 'gte', value: day.toISOString()},
      {field: 'created_at', op: 'lte', value: new Date(day.getTime() + DAY_MS - 1).toISOString()},
    ])
    const reports = buildReports(entries, day.toISOString().slice(0, 10), core.payoutCurrency, () => core.ids.next('stl'), at, u.livemode)
    // earlier reports still unpaid join this run's payout
    await u.lock(UNPAID)
    const unpaid: {r: SettlementReport; version: number}[] = []
    for (const id of unpaidReports(core, await core.store.getSetting(UNPAID))) {
      const got = await u.get<SettlementReport>('settlement_report', id)
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
        id: core.ids.next('po'),
        object: 'payout',
        amount,
        currency,
        status: 'in_transit',
        arrival_date: arrival.toISOString().slice(0, 10),
        settlement_reports: rs.map((x) => x.r.id),
        livemode: u.livemode,
        created_at: at.toISOString(),
      }
      for (const x of rs) {
        x.r.payout = po.id
        if (x.version !== undefined) u.put('settlement_report', x.r, x.version)
        bookPayout(u, po, x.r, at)
      }
      u.put('payout', po)
      u.schedule('payout.arrive', po.id, arrival)
    }
    for (const r of reports) {
      u.put('settlement_report', r)
      u.emit('settlement.report.ready', r)
    }
    u.setting(UNPAID, JSON.stringify(stillUnpaid))
    u.schedule('settlement.run', 'settlement', await nextSettlementRun(core, u, job, at))
  }, {barrier: true})
  core.jobs.register('payout.arrive', async (u, job) => {
    const got = await u.get<Payout>('payout', job.ref)
    if (!got || got.obj.status !== 'in_transit') return
    u.put('payout', {...got.obj, status: 'paid'}, got.version)
  })
}

/** The ids of the reports left unpaid, read defensively (docs/decisions.md#failures-are-contained): a value that is no list of ids counts as none, and is reported. */
function unpaidReports(core: Core, text: string | undefined): string[] {
  const problem = text === undefined ? undefined : settingProblem(UNPAID, text)
  if (problem) core.contain('setting', problem, 'unpaid settlement reports taken as none')
  return text === undefined || problem ? [] : (JSON.parse(text) as string[])
}

/** A new account's settlement: its daily run scheduled, on its own clock (which starts at `now`). */
export function seedSettlement(target: ReturnType<Unit['also']>, now: Date): void {
  target.schedule('settlement.run', 'settlement', nextRun(now))
  target.setting(SCHEDULED, '1')
  target.setting(PAYOUT_LEDGER, '1')
}

/** Makes sure the daily run is scheduled (first start of a data dir), and that payouts are booked in the ledger. */
export async function ensureSettlementScheduled(core: Core): Promise<void> {
  await core.run({}, async (u) => {
    await u.lock(SCHEDULED)
    if (await core.store.getSetting(SCHEDULED)) return
    u.schedule('settlement.run', 'settlement', nextRun(u.now))
    u.setting(SCHEDULED, '1')
  })
  await core.run({}, async (u) => {
    await u.lock(UNPAID)
    if (await core.store.getSetting(PAYOUT_LEDGER)) return
    // a data dir from before payouts were ledger movements: book the payouts it made, and
    // remember the reports left unpaid so the next payout takes them
    const reports = new Map((await u.all<SettlementReport, 'settlement_report'>('settlement_report')).map((r) => [r.id, r]))
    for (const po of await u.all<Payout, 'payout'>('payout')) {
      for (const id of po.settlement_reports) {
        const r = reports.get(id)
        if (r) bookPayout(u, po, r, new Date(po.created_at))
      }
    }
    u.setting(UNPAID, JSON.stringify([...reports.values()].filter((r) => r.payout === null).map((r) => r.id)))
    u.setting(PAYOUT_LEDGER, '1')
  })
}

export async function listReports(core: Core, q: PageQuery<'listSettlementReports'>): Promise<ListPage<SettlementReport>> {
  const filters: Filter<'settlement_report'>[] = []
  for (const f of ['provider', 'currency', 'date'] as const) {
    const v = q[f]
    if (v === undefined) continue
    if (f === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw invalid('date', `date must be YYYY-MM-DD; got '${v}'.`)
    filters.push({field: f, op: 'eq', value: v})
  }
  return listPage<SettlementReport, 'settlement_report'>(core, 'settlement_report', q, filters, 'settlement report')
}

export async function retrieveReport(core: Core, id: string): Promise<SettlementReport> {
  const got = id.startsWith('stl_') ? await core.store.get<SettlementReport>('settlement_report', id) : undefined
  if (!got) throw notFound('settlement report', id)
  return got.obj
}

export async function listPayouts(core: Core, q: PageQuery<'listPayouts'>): Promise<ListPage<Payout>> {
  const filters: Filter<'payout'>[] = []
  if (q.currency !== undefined) filters.push({field: 'currency', op: 'eq', value: q.currency})
  if (q.status !== undefined) filters.push({field: 'status', op: 'eq', value: q.status})
  return listPage<Payout, 'payout'>(core, 'payout', q, filters, 'payout')
}

export async function retrievePayout(core: Core, id: string): Promise<Payout> {
  const got = id.startsWith('po_') ? await core.store.get<Payout>('payout', id) : undefined
  if (!got) throw notFound('payout', id)
  return got.obj
}
