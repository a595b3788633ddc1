// Reconciliation (docs/api.md#the-acquiring-chain, its last stage): "the client matches report
// rows to orders and the payout to the bank credit". Settlement report lines are matched to the
// merchant's orders by reference, amount and currency; each payout to a bank credit by amount,
// currency and arrival date.
//
// Both sides can be large (a 1M-line orders file), so nothing is joined in memory: the orders
// stream (csv-parse) into a temporary SQLite file in batched inserts, beside the period's
// report lines, and every finding is one indexed query whose rows are streamed out. Memory is
// bounded by SQLite's page cache whatever the size of the files.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {Readable} from 'node:stream'
import Database from 'better-sqlite3'
import {parse} from 'csv-parse'
import type {Payout, SettlementReport} from '../../../api/types.js'

export type FindingKind =
  /** a payment line whose reference is in no order */
  | 'not_in_orders'
  /** an order no payment line of the period settled */
  | 'not_settled'
  | 'amount_mismatch'
  | 'currency_mismatch'
  /** an order reference listed more than once, or a reference settled by more than one payment */
  | 'duplicate_order'
  | 'duplicate_settlement'
  /** a payout with no bank credit of its amount and currency on or after its arrival date */
  | 'payout_unpaid'
  /** a bank credit no payout of the period explains (reported; other money may land on the account too) */
  | 'unmatched_credit'
  /** a malformed line of the orders or bank file */
  | 'invalid_line'

export interface Finding {
  kind: FindingKind
  reference: string | null
  payment: string | null
  report: string | null
  payout: string | null
  expected_amount: number | null
  actual_amount: number | null
  currency: string | null
  detail: string
}

export interface CurrencyTotals {
  currency: string
  gross: number
  refunds: number
  fees: number
  disputes: number
  net: number
  payouts: number
}

export interface ReconcileSummary {
  orders: number
  lines: number
  matched: number
  counts: Record<FindingKind, number>
  payouts: {total: number; paid: number; unpaid: number}
  totals: CurrencyTotals[]
  /** true when every payment line matched an order, every order settled and every payout was credited */
  ok: boolean
}

export interface ReconcileInput {
  /** CSV with a header and at least reference, amount (minor units), currency; other columns ignored */
  orders: Readable
  /** the period's settlement reports, with their lines */
  reports: AsyncIterable<SettlementReport> | Iterable<SettlementReport>
  payouts?: readonly Payout[]
  /** CSV with a header and at least date (YYYY-MM-DD), amount (minor units), currency: the bank account's credits */
  bank?: Readable
  /** only this currency */
  currency?: string
  /** each finding as it is found (write them to a CSV) */
  onFinding?: (f: Finding) => void
  /** progress of the orders file (lines read) */
  onOrders?: (lines: number) => void
  /** how long after its arrival date a bank credit may book a payout (default 5 days) */
  bankGraceDays?: number
  /**
   * The payment an unsettled order's reference names, if any (a failed or still pending one):
   * asked for the first `lookupLimit` not_settled findings so their detail says why.
   */
  lookupPayment?: (reference: string) => Promise<{id: string; status: string; failure_code?: string | null} | undefined>
  lookupLimit?: number
}

const BATCH = 10_000
/** The order findings come in: money differences first, then what is missing, then noise. */
const KINDS: FindingKind[] = ['amount_mismatch', 'currency_mismatch', 'payout_unpaid', 'not_settled', 'not_in_orders', 'unmatched_credit', 'duplicate_settlement', 'duplicate_order', 'invalid_line']
/** Reported, but not a reason the period does not reconcile. */
const INFORMATIONAL: ReadonlySet<FindingKind> = new Set(['unmatched_credit'])

/** Reads a CSV with a header, yielding records keyed by column (names lowercased, trimmed) and their line numbers. */
async function* csvRecords(input: Readable): AsyncGenerator<{line: number; row: Record<string, string>}> {
  const parser = input.pipe(parse({columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), skip_empty_lines: true, trim: true, bom: true, relax_column_count: true, info: true}))
  for await (const rec of parser as AsyncIterable<{record: Record<string, string>; info: {lines: number}}>) yield {line: rec.info.lines, row: rec.record}
}

/** An amount column: an integer of minor units. */
function minor(v: string | undefined): number | null {
  return v !== undefined && /^-?\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : null
}

export async function reconcile(input: ReconcileInput): Promise<ReconcileSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-reconcile-'))
  const db = new Database(join(dir, 'r.db'))
  const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<FindingKind, number>
  const found = (f: Finding) => {
    counts[f.kind]++
    input.onFinding?.(f)
  }
  // malformed lines are found while reading, but reported last (noise next to money)
  const invalid: Finding[] = []
  const stashInvalid = (f: Finding) => {
    if (invalid.length < 10_000) invalid.push(f)
    else counts.invalid_line++ // counted; the first 10,000 are listed
  }
  const blank = {reference: null, payment: null, report: null, payout: null, expected_amount: null, actual_amount: null, currency: null}
  try {
    db.pragma('journal_mode = OFF')
    db.pragma('synchronous = OFF')
    db.pragma('cache_size = -32000')
    db.exec(`CREATE TABLE orders (reference TEXT NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL, line INTEGER NOT NULL);
CREATE TABLE lines (report TEXT NOT NULL, type TEXT NOT NULL, payment TEXT, reference TEXT, amount INTEGER NOT NULL, currency TEXT NOT NULL);
CREATE TABLE credits (date TEXT NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL, used INTEGER NOT NULL DEFAULT 0);`)

    // ---- the orders, streamed in batches
    const insOrder = db.prepare('INSERT INTO orders VALUES (?, ?, ?, ?)')
    const insOrders = db.transaction((rows: [string, number, string, number][]) => {
      for (const r of rows) insOrder.run(r)
    })
    let batch: [string, number, string, number][] = []
    let orders = 0
    let checkedHeader = false
    for await (const {line, row} of csvRecords(input.orders)) {
      if (!checkedHeader) {
        checkedHeader = true
        const missing = ['reference', 'amount', 'currency'].filter((c) => !(c in row))
        if (missing.length) throw new ReconcileInputError(`The orders file needs a header with reference, amount and currency; missing: ${missing.join(', ')}.`)
      }
      const amount = minor(row.amount)
      const currency = (row.currency ?? '').toUpperCase()
      if (!row.reference || amount === null || !/^[A-Z]{3}$/.test(currency)) {
        stashInvalid({...blank, kind: 'invalid_line', reference: row.reference || null, detail: `orders line ${line}: needs a reference, an integer amount in minor units and a currency code (got ${JSON.stringify(row)})`})
        continue
      }
      if (input.currency && currency !== input.currency) continue
      batch.push([row.reference, amount, currency, line])
      orders++
      if (batch.length >= BATCH) {
        insOrders(batch)
        batch = []
        input.onOrders?.(orders)
      }
    }
    insOrders(batch)
    input.onOrders?.(orders)

    // ---- the report lines
    const insLine = db.prepare('INSERT INTO lines VALUES (?, ?, ?, ?, ?, ?)')
    let lines = 0
    const totals = new Map<string, CurrencyTotals>()
    const total = (c: string) => {
      let t = totals.get(c)
      if (!t) totals.set(c, (t = {currency: c, gross: 0, refunds: 0, fees: 0, disputes: 0, net: 0, payouts: 0}))
      return t
    }
    for await (const r of input.reports) {
      if (input.currency && r.currency !== input.currency) continue
      db.transaction(() => {
        for (const l of r.lines) {
          insLine.run(r.id, l.type, l.payment, l.reference, l.amount, l.currency)
          lines++
          if (l.type === 'conversion') continue
          const t = total(l.currency)
          if (l.type === 'payment') t.gross += l.amount
          else if (l.type === 'refund') t.refunds += l.amount
          else if (l.type === 'fee') t.fees += l.amount
          else t.disputes += l.amount
        }
      })()
    }
    for (const t of totals.values()) t.net = t.gross + t.refunds + t.fees
    db.exec('CREATE INDEX orders_ref ON orders(reference); CREATE INDEX lines_ref ON lines(reference, type)')
    // a reference listed more than once is one duplicate_order finding; its first line is the
    // order compared with the settlement (its copies add no findings of their own)
    db.exec('CREATE TABLE first_orders AS SELECT reference, amount, currency, MIN(line) AS line FROM orders GROUP BY reference; CREATE INDEX first_orders_ref ON first_orders(reference)')

    // ---- payouts to bank credits
    const payouts = (input.payouts ?? []).filter((p) => !input.currency || p.currency === input.currency)
    for (const p of payouts) total(p.currency).payouts += p.amount
    let paid = 0
    if (input.bank) {
      const ins = db.prepare('INSERT INTO credits (date, amount, currency) VALUES (?, ?, ?)')
      let checked = false
      for await (const {line, row} of csvRecords(input.bank)) {
        if (!checked) {
          checked = true
          const missing = ['date', 'amount', 'currency'].filter((c) => !(c in row))
          if (missing.length) throw new ReconcileInputError(`The bank file needs a header with date, amount and currency; missing: ${missing.join(', ')}.`)
        }
        const amount = minor(row.amount)
        if (!/^\d{4}-\d{2}-\d{2}$/.test(row.date ?? '') || amount === null || !/^[A-Z]{3}$/.test((row.currency ?? '').toUpperCase())) {
          stashInvalid({...blank, kind: 'invalid_line', detail: `bank line ${line}: needs a date YYYY-MM-DD, an integer amount in minor units and a currency code (got ${JSON.stringify(row)})`})
          continue
        }
        ins.run(row.date, amount, row.currency!.toUpperCase())
      }
    }
    // ---- findings, each one indexed query streamed out, in the order that matters: money
    // differences, then what is missing, then noise (the first screenful shows the first)
    const each = (sql: string, fn: (r: any) => Finding) => {
      for (const r of db.prepare(sql).iterate()) found(fn(r))
    }
    each(
      `SELECT o.reference, o.amount AS expected, o.currency AS oc, l.amount AS actual, l.currency AS lc, l.payment, l.report FROM first_orders o JOIN lines l ON l.reference = o.reference AND l.type = 'payment' WHERE o.amount <> l.amount AND o.currency = l.currency`,
      (r) => ({...blank, kind: 'amount_mismatch', reference: r.reference, payment: r.payment, report: r.report, expected_amount: r.expected, actual_amount: r.actual, currency: r.lc, detail: `order of ${r.expected}, settled ${r.actual} (${r.actual - r.expected > 0 ? '+' : ''}${r.actual - r.expected})`}),
    )
    each(
      `SELECT o.reference, o.amount AS expected, o.currency AS oc, l.amount AS actual, l.currency AS lc, l.payment, l.report FROM first_orders o JOIN lines l ON l.reference = o.reference AND l.type = 'payment' WHERE o.currency <> l.currency`,
      (r) => ({...blank, kind: 'currency_mismatch', reference: r.reference, payment: r.payment, report: r.report, expected_amount: r.expected, actual_amount: r.actual, currency: r.lc, detail: `order in ${r.oc}, settled in ${r.lc}`}),
    )
    const matched = (db.prepare(`SELECT COUNT(*) AS n FROM first_orders o JOIN lines l ON l.reference = o.reference AND l.type = 'payment' AND l.amount = o.amount AND l.currency = o.currency`).get() as {n: number}).n

    if (input.bank) {
      const grace = input.bankGraceDays ?? 5
      const take = db.prepare(
        `UPDATE credits SET used = 1 WHERE rowid = (SELECT rowid FROM credits WHERE used = 0 AND amount = ? AND currency = ? AND date >= ? AND date <= date(?, '+${grace} days') ORDER BY date, rowid LIMIT 1)`,
      )
      for (const p of [...payouts].sort((a, b) => (a.arrival_date < b.arrival_date ? -1 : 1))) {
        if (take.run(p.amount, p.currency, p.arrival_date, p.arrival_date).changes === 1) paid++
        else
          found({...blank, kind: 'payout_unpaid', payout: p.id, expected_amount: p.amount, currency: p.currency, detail: `no bank credit of ${p.amount} ${p.currency} between ${p.arrival_date} and ${grace} days later`})
      }
    }

    // orders never settled: when the reference names a payment that failed or is still pending, say so
    let looked = 0
    const limit = input.lookupLimit ?? 200
    // (streamed: the lookups are the only awaits inside, and nothing else reads the database meanwhile)
    for (const r of db.prepare(`SELECT o.reference, o.amount, o.currency, o.line FROM first_orders o WHERE NOT EXISTS (SELECT 1 FROM lines l WHERE l.reference = o.reference AND l.type = 'payment')`).iterate() as IterableIterator<{reference: string; amount: number; currency: string; line: number}>) {
      let detail = `orders line ${r.line}: no payment line in the period's reports`
      let payment: string | null = null
      if (input.lookupPayment && looked < limit) {
        looked++
        const p = await input.lookupPayment(r.reference).catch(() => undefined)
        if (p) {
          payment = p.id
          detail = `orders line ${r.line}: payment ${p.id} is ${p.status}${p.failure_code ? ` (${p.failure_code})` : ''}, so nothing settled`
        }
      }
      found({...blank, kind: 'not_settled', reference: r.reference, payment, expected_amount: r.amount, currency: r.currency, detail})
    }
    each(
      `SELECT l.reference, l.payment, l.report, l.amount, l.currency FROM lines l WHERE l.type = 'payment' AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.reference = l.reference)`,
      (r) => ({...blank, kind: 'not_in_orders', reference: r.reference, payment: r.payment, report: r.report, actual_amount: r.amount, currency: r.currency, detail: 'settled, but no order has this reference'}),
    )
    if (input.bank && payouts.length)
      each(`SELECT date, amount, currency FROM credits WHERE used = 0 ORDER BY date, rowid`, (r) => ({...blank, kind: 'unmatched_credit', actual_amount: r.amount, currency: r.currency, detail: `bank credit of ${r.amount} ${r.currency} on ${r.date}: no payout of the period explains it`}))
    each(
      `SELECT reference, COUNT(*) AS n, GROUP_CONCAT(payment) AS payments, MAX(currency) AS currency FROM lines WHERE type = 'payment' AND reference IS NOT NULL GROUP BY reference HAVING n > 1`,
      (r) => ({...blank, kind: 'duplicate_settlement', reference: r.reference, currency: r.currency, detail: `settled by ${r.n} payments: ${r.payments}`}),
    )
    each(`SELECT reference, COUNT(*) AS n, MIN(line) AS first FROM orders GROUP BY reference HAVING n > 1`, (r) => ({...blank, kind: 'duplicate_order', reference: r.reference, detail: `listed ${r.n} times in the orders file (first on line ${r.first})`}))
    for (const f of invalid) found(f)
    const findings = KINDS.filter((k) => !INFORMATIONAL.has(k)).reduce((a, k) => a + counts[k], 0)
    return {
      orders,
      lines,
      matched,
      counts,
      payouts: {total: payouts.length, paid, unpaid: input.bank ? payouts.length - paid : 0},
      totals: [...totals.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1)),
      ok: findings === 0,
    }
  } finally {
    db.close()
    rmSync(dir, {recursive: true, force: true})
  }
}

/** The orders or bank file cannot be read as described (a usage error for the CLI). */
export class ReconcileInputError extends Error {}

/** The columns of the mismatches CSV (--out). */
export const FINDING_COLUMNS: (keyof Finding)[] = ['kind', 'reference', 'payment', 'report', 'payout', 'expected_amount', 'actual_amount', 'currency', 'detail']
