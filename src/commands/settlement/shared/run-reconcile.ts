// `gw settlement reconcile`'s work: the files checked before the first request, the period's
// reports and payouts fetched, the orders and bank files streamed through the join
// (./reconcile.ts) in bounded memory, the findings written to --out as CSV, all at once or not
// at all. The command (../reconcile.ts) keeps the flags.
import {closeSync, createReadStream, existsSync, openSync, renameSync, rmSync, statSync, writeSync} from 'node:fs'
import {basename, dirname, join, resolve} from 'node:path'
import type {Payout, SettlementReport} from '../../../api/types.js'
import type {Context} from '../../../base/context.js'
import type {GwClient} from '../../../client/index.js'
import {GwError, UsageError} from '../../../errors.js'
import type {Finding} from './reconcile.js'
import type {ReconcileResult} from './reconcile-report.js'

export const ORDERS_EXAMPLE = 'reference,amount,currency\norder-1001,2000,EUR'
export const BANK_EXAMPLE = 'date,amount,currency,description\n2025-03-03,48550,EUR,GW PAYOUT'

/** Most days one run covers (one list request per day at least). */
export const MAX_DAYS = 366
/** Findings kept in memory for --json and the table (every one goes to --out). */
export const FINDINGS_KEPT = 100
/** Report downloads in flight at once. */
const PREFETCH = 4
/** Findings written to --out per write. */
const CSV_BATCH = 1000
const DAY_MS = 86_400_000

/** What `gw settlement reconcile` takes (its flags): the files, the period, the currency. */
export interface ReconcileOptions {
  orders: string
  from?: string
  to?: string
  currency?: string
  bank?: string
  out?: string
}

/**
 * Lists the period's reports and the payouts that reference them, streams the orders file
 * against the reports (each downloaded as it is joined) and the bank file against the payouts,
 * prints the summary and writes every finding to --out; exit code 1 when anything is off.
 */
export async function settlementReconcile(ctx: Context, flags: ReconcileOptions): Promise<ReconcileResult> {
  const f = flags
  // everything about the files is checked before the first request
  const orders = inputFile(f.orders, '--orders')
  const bank = f.bank === undefined ? undefined : inputFile(f.bank, '--bank')
  const {parse} = await import('csv-parse')
  await checkHeader(parse, orders, 'orders', ['reference', 'amount', 'currency'], ORDERS_EXAMPLE, '--orders')
  if (bank) await checkHeader(parse, bank, 'bank', ['date', 'amount', 'currency'], BANK_EXAMPLE, '--bank')
  const out = f.out === undefined ? undefined : outputFile(f.out, [orders, bank])
  if (f.from && f.to && f.from > f.to) throw new UsageError(`--from ${f.from} is after --to ${f.to}.`, 'The period runs from --from to --to, both included.')

  const client = await ctx.client()
  const progress = await (await import('../../../ui/progress.js')).startProgressBar('Listing settlement reports', {json: ctx.json, stream: ctx.io.stderr as NodeJS.WriteStream, env: ctx.env, write: (l) => ctx.notice(l)})
  let csv: FindingsCsv | undefined
  try {
    const period = await resolvePeriod(client, f.from, f.to, f.currency)
    const days = daysOf(period.from, period.to)
    if (days.length > MAX_DAYS) throw new UsageError(`The period ${period.from} to ${period.to} has ${days.length} days; at most ${MAX_DAYS} at a time.`, 'Reconcile it in parts with --from and --to.')

    // 1. the period's reports: per day, every page
    const listed: {id: string; payout: string | null}[] = []
    for (const [i, date] of days.entries()) {
      progress.set('Listing settlement reports', i, days.length)
      for await (const r of client.settlementReports.iterate({date, currency: f.currency, limit: 100})) listed.push({id: r.id, payout: r.payout})
    }
    if (!listed.length) ctx.notice(ctx.errColor.yellow(`No settlement reports for ${period.from === period.to ? period.from : `${period.from} to ${period.to}`}${f.currency ? ` in ${f.currency}` : ''}: every order will show as not settled. Reports for a day are built at 02:00 UTC the next day.`))

    // 2. the payouts that reference them
    const payoutIds = [...new Set(listed.map((r) => r.payout).filter((id): id is string => id !== null))]
    const payouts: Payout[] = []
    for (const [i, id] of payoutIds.entries()) {
      progress.set('Fetching payouts', i, payoutIds.length)
      payouts.push(await client.payouts.get(id))
    }

    // 3. the orders file, each report downloaded as it is joined, the bank file
    const {reconcile, ReconcileInputError, FINDING_COLUMNS} = await import('./reconcile.js')
    csv = out ? new FindingsCsv(out, FINDING_COLUMNS, (await import('csv-stringify/sync')).stringify) : undefined
    const kept: Finding[] = []
    let total = 0
    let paymentLines = 0
    const at = {file: 'orders' as 'orders' | 'reports' | 'bank'}
    const ordersName = basename(orders)
    progress.set(`Reading ${ordersName}`, 0)
    const reports = async function* (): AsyncGenerator<SettlementReport> {
      at.file = 'reports'
      const inFlight: Promise<SettlementReport>[] = []
      let next = 0
      const fill = () => {
        while (inFlight.length < PREFETCH && next < listed.length) inFlight.push(client.settlementReports.get(listed[next++]!.id))
      }
      fill()
      for (let done = 0; done < listed.length; done++) {
        progress.set('Downloading settlement reports', done, listed.length)
        const report = await inFlight.shift()!
        fill()
        for (const l of report.lines) if (l.type === 'payment' && (!f.currency || report.currency === f.currency)) paymentLines++
        yield report
      }
      progress.set('Downloading settlement reports', listed.length, listed.length)
      at.file = 'bank'
    }
    let summary: Awaited<ReturnType<typeof reconcile>>
    try {
      summary = await reconcile({
        orders: createReadStream(orders),
        reports: reports(),
        payouts,
        bank: bank ? createReadStream(bank) : undefined,
        currency: f.currency,
        onOrders: (lines) => progress.set(`Reading ${ordersName}`, lines),
        // an order that never settled: the payment its reference names says why (failed, still pending)
        lookupPayment: async (reference) => {
          const p = (await client.payments.list({reference, limit: 1})).data[0]
          return p && {id: p.id, status: p.status, failure_code: p.failure_code ?? null}
        },
        onFinding: (finding) => {
          total++
          if (kept.length < FINDINGS_KEPT) kept.push(finding)
          csv?.add(finding)
        },
      })
    } catch (error) {
      const file = at.file === 'bank' ? {path: bank!, flag: '--bank', example: BANK_EXAMPLE} : {path: orders, flag: '--orders', example: ORDERS_EXAMPLE}
      if (error instanceof ReconcileInputError) throw new UsageError(`${file.flag} ${file.path}: ${error.message}`, `The first line names the columns, e.g.:\n  ${file.example.replace('\n', '\n  ')}`)
      if (isCsvError(error)) throw new UsageError(`${file.flag} ${file.path} is not valid CSV: ${(error as Error).message}`, 'Quote fields that contain commas or quotes ("a, b"; a quote inside is doubled: "").')
      if (isFileError(error)) throw new UsageError(`Cannot read ${file.flag} ${file.path}: ${(error as NodeJS.ErrnoException).code}.`)
      throw error
    }
    csv?.finish()
    progress.stop()

    const result: ReconcileResult = {
      period,
      currency: f.currency ?? null,
      reports: listed.map((r) => r.id),
      payouts: payoutIds,
      orders_file: orders,
      bank_file: bank ?? null,
      payment_lines: paymentLines,
      summary,
      out: out ?? null,
      findings_total: total,
      findings: kept,
    }
    if (out) ctx.notice(ctx.errColor.dim(`Wrote ${out} (${total} finding${total === 1 ? '' : 's'}).`))
    if (!ctx.json) {
      const {renderReconcile} = await import('./reconcile-report.js')
      ctx.print(await renderReconcile(result, ctx.color, {width: ctx.out.width}))
    }
    // for CI: 0 only when everything matches (the README's exit codes: 1, a check that found problems)
    if (!summary.ok) ctx.exitCode = 1
    return result
  } finally {
    progress.stop()
    csv?.abort()
  }
}

// ------------------------------------------------------------------ the period

async function resolvePeriod(client: GwClient, from: string | undefined, to: string | undefined, currency: string | undefined): Promise<{from: string; to: string}> {
  if (from && to) return {from, to}
  if (to) return {from: to, to}
  // the latest day that has reports: the newest report (lists are newest first)
  const newest = (await client.settlementReports.list({limit: 1, currency})).data[0]?.date
  if (from) return {from, to: newest && newest > from ? newest : from}
  if (!newest) {
    throw new GwError(`No settlement reports yet${currency ? ` in ${currency}` : ''}: nothing to reconcile against.`, {
      hint: 'Reports for a day are built at 02:00 UTC the next day (test mode: `gw clock advance 1d`). Name a period with --from and --to.',
    })
  }
  return {from: newest, to: newest}
}

/** Every day from `from` to `to`, both included. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = []
  const end = Date.parse(`${to}T00:00:00Z`)
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10))
  return days
}

// ------------------------------------------------------------------ the files

function inputFile(path: string, flag: string): string {
  const what = flag === '--orders' ? 'your orders (reference,amount,currency)' : 'your bank credits (date,amount,currency)'
  if (!existsSync(path)) throw new UsageError(`${flag} ${path}: no such file.`, `Give the path of a CSV of ${what}.`)
  if (statSync(path).isDirectory()) throw new UsageError(`${flag} ${path} is a directory, not a file.`, `Give the path of a CSV of ${what}.`)
  return path
}

/** The header of a CSV file must name `needed` (case and spaces do not matter). */
async function checkHeader(parse: typeof import('csv-parse').parse, path: string, what: string, needed: string[], example: string, flag: string): Promise<void> {
  let header: string[] | undefined
  try {
    const parser = createReadStream(path).pipe(parse({to_line: 1, bom: true, relax_column_count: true}))
    for await (const record of parser as AsyncIterable<string[]>) header ??= record.map((h) => h.trim().toLowerCase())
  } catch (error) {
    if (isFileError(error)) throw new UsageError(`Cannot read ${flag} ${path}: ${(error as NodeJS.ErrnoException).code}.`)
    throw new UsageError(`${flag} ${path} is not valid CSV: ${(error as Error).message}`)
  }
  const hint = `The first line names the columns (amount in minor units; other columns are ignored), e.g.:\n  ${example.replace('\n', '\n  ')}`
  if (!header) throw new UsageError(`${flag} ${path} is empty: the ${what} file needs a header line.`, hint)
  const missing = needed.filter((c) => !header!.includes(c))
  if (missing.length) {
    throw new UsageError(`${flag} ${path} has no ${missing.join(', ')} column${missing.length === 1 ? '' : 's'} (its header: ${header.join(',') || '(empty)'}); the ${what} file needs ${needed.join(', ')}.`, hint)
  }
}

function outputFile(path: string, inputs: (string | undefined)[]): string {
  const target = resolve(path)
  if (inputs.some((i) => i !== undefined && resolve(i) === target)) throw new UsageError(`--out ${path} is one of the input files; it would be overwritten.`, 'Name another file, e.g. --out mismatches.csv')
  const dir = dirname(target)
  if (!existsSync(dir)) throw new UsageError(`--out ${path}: the directory ${dir} does not exist.`)
  if (existsSync(target) && statSync(target).isDirectory()) throw new UsageError(`--out ${path} is a directory; name a file, e.g. --out ${join(path, 'mismatches.csv')}.`)
  return path
}

const isFileError = (e: unknown) => typeof (e as NodeJS.ErrnoException)?.code === 'string' && /^E[A-Z]+$/.test((e as NodeJS.ErrnoException).code!)
const isCsvError = (e: unknown) => typeof (e as {code?: unknown})?.code === 'string' && (e as {code: string}).code.startsWith('CSV_')

/**
 * The findings CSV: written in batches to a temporary file beside --out and renamed over it once
 * the run is complete, so a failed run never leaves half a file (or clobbers the last good one).
 */
class FindingsCsv {
  private readonly tmp: string
  private fd: number
  private batch: Finding[] = []
  private header = true
  constructor(
    readonly path: string,
    private readonly columns: readonly string[],
    private readonly stringify: typeof import('csv-stringify/sync').stringify,
  ) {
    this.tmp = join(dirname(resolve(path)), `.${basename(path)}.${process.pid}.tmp`)
    try {
      this.fd = openSync(this.tmp, 'w')
    } catch (error) {
      throw new UsageError(`Cannot write --out ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`)
    }
  }

  add(f: Finding): void {
    this.batch.push(f)
    if (this.batch.length >= CSV_BATCH) this.flush()
  }

  private flush(): void {
    writeSync(this.fd, this.stringify(this.batch, {header: this.header, columns: [...this.columns]}))
    this.header = false
    this.batch = []
  }

  finish(): void {
    this.flush()
    closeSync(this.fd)
    this.fd = -1
    renameSync(this.tmp, this.path)
  }

  /** After a failure: the temporary file goes, --out is left as it was. */
  abort(): void {
    if (this.fd === -1) return
    closeSync(this.fd)
    this.fd = -1
    rmSync(this.tmp, {force: true})
  }
}
