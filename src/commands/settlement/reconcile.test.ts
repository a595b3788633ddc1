// gw settlement reconcile: the command body as a plain function against a mock API (reports per
// day with cursors, payouts, report downloads), on real files in a temp dir; and through oclif
// for the exit codes.
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Payout, SettlementReport} from '../../api/types.js'
import {at, BASE, cliEnv, mockApiPerTest, json, type CliEnv} from '../../base/test-support/cli.js'
import {testContext} from '../../base/test-support/context.js'
import type {ReconcileResult} from './shared/reconcile-report.js'
import SettlementReconcile from './reconcile.js'
import {daysOf, settlementReconcile, type ReconcileOptions} from './shared/run-reconcile.js'

const api = mockApiPerTest('gw-reconcile-cmd-')

function report(id: string, date: string, currency: string, orders: [string, number][], payout: string | null): SettlementReport {
  const lines: SettlementReport['lines'] = []
  for (const [i, [reference, amount]] of orders.entries()) {
    lines.push({type: 'payment', payment: `pay_${id}_${i}`, reference, amount, currency, created_at: `${date}T10:00:00.000Z`})
    lines.push({type: 'fee', payment: `pay_${id}_${i}`, reference, amount: -30, currency, created_at: `${date}T10:00:00.000Z`})
  }
  const gross = orders.reduce((a, [, x]) => a + x, 0)
  const fees = -30 * orders.length
  return {id, object: 'settlement_report', provider: 'prov_a', date, currency, gross, refunds: 0, fees, net: gross + fees, adjustments: 0, payout_amount: gross + fees, payout_currency: currency, converted_payout_amount: gross + fees, lines, payout, livemode: false, created_at: `${date}T02:00:00.000Z`}
}

/** Two days: EUR on both (one with a dispute debit), USD on the second; a payout per day and currency. */
function world() {
  const d1 = report('stl_eur1', '2026-03-01', 'EUR', [['order-1', 1000], ['order-2', 2000], ['order-3', 3000]], 'po_eur1')
  d1.lines.push({type: 'dispute', payment: 'pay_old', reference: 'order-0', amount: -500, currency: 'EUR', created_at: '2026-03-01T12:00:00.000Z'})
  const d2 = report('stl_eur2', '2026-03-02', 'EUR', [['order-4', 4000]], 'po_eur2')
  const u2 = report('stl_usd2', '2026-03-02', 'USD', [['order-5', 5000], ['order-6', 6000]], 'po_usd2')
  const reports = [u2, d2, d1] // newest first, as the API lists them
  const payouts: Payout[] = [
    {id: 'po_eur1', object: 'payout', amount: 5410, currency: 'EUR', status: 'paid', arrival_date: '2026-03-03', settlement_reports: ['stl_eur1'], livemode: false, created_at: '2026-03-02T02:00:00.000Z'},
    {id: 'po_eur2', object: 'payout', amount: 3970, currency: 'EUR', status: 'paid', arrival_date: '2026-03-04', settlement_reports: ['stl_eur2'], livemode: false, created_at: '2026-03-03T02:00:00.000Z'},
    {id: 'po_usd2', object: 'payout', amount: 10940, currency: 'USD', status: 'in_transit', arrival_date: '2026-03-04', settlement_reports: ['stl_usd2'], livemode: false, created_at: '2026-03-03T02:00:00.000Z'},
  ]
  const orders = [
    ['order-1', 1000, 'EUR'],
    ['order-2', 2000, 'EUR'],
    ['order-3', 3000, 'EUR'],
    ['order-4', 4000, 'EUR'],
    ['order-5', 5000, 'USD'],
    ['order-6', 6000, 'USD'],
  ] as [string, number, string][]
  return {reports, payouts, orders}
}

/**
 * The API: GET /settlement_reports filtered by date and currency, one report per page (so the
 * command must follow cursors), GET /settlement_reports/{id} and GET /payouts/{id}.
 */
function serve(w: ReturnType<typeof world>, pool = api.mock.get(BASE)) {
  const seen: string[] = []
  pool
    .intercept({path: (p) => p.startsWith('/v1/settlement_reports'), method: 'GET'})
    .reply<object>((o) => {
      seen.push(o.path)
      const url = new URL(o.path, BASE)
      const id = url.pathname.split('/')[3]
      if (id) {
        const r = w.reports.find((x) => x.id === id)
        return r ? {statusCode: 200, data: r, responseOptions: json} : {statusCode: 404, data: {error: {type: 'invalid_request_error', code: 'resource_missing', message: `No such settlement report: ${id}`, doc_url: 'x', request_id: 'req_1'}}, responseOptions: json}
      }
      const q = url.searchParams
      let data = w.reports.filter((r) => (!q.get('date') || r.date === q.get('date')) && (!q.get('currency') || r.currency === q.get('currency')))
      const after = q.get('starting_after')
      if (after) data = data.slice(data.findIndex((r) => r.id === after) + 1)
      const page = data.slice(0, 1)
      return {statusCode: 200, data: {object: 'list', url: '/v1/settlement_reports', data: page, has_more: data.length > 1}, responseOptions: json}
    })
    .persist()
  pool
    .intercept({path: (p) => p.startsWith('/v1/payouts/'), method: 'GET'})
    .reply((o) => {
      seen.push(o.path)
      return {statusCode: 200, data: w.payouts.find((p) => p.id === o.path.split('/')[3]), responseOptions: json}
    })
    .persist()
  return seen
}

function files(orders: (string | number)[][], bank?: (string | number)[][], header = 'reference,amount,currency,customer') {
  const o = join(api.dir, 'orders.csv')
  writeFileSync(o, `${header}\n${orders.map((r) => [...r, 'someone'].join(',')).join('\n')}\n`)
  let b: string | undefined
  if (bank) {
    b = join(api.dir, 'bank.csv')
    writeFileSync(b, `date,amount,currency,description\n${bank.map((r) => [...r, 'GW PAYOUT'].join(',')).join('\n')}\n`)
  }
  return {orders: o, bank: b}
}

const bankOf = (payouts: Payout[]) => payouts.map((p) => [p.arrival_date, p.amount, p.currency])

async function run(flags: ReconcileOptions, opts: {json?: boolean; tty?: number} = {}) {
  const t = testContext({dispatcher: api.mock, env: api.env(), json: opts.json, tty: opts.tty})
  const result = await settlementReconcile(t.ctx, flags)
  await t.ctx.close()
  return {result, exitCode: t.ctx.exitCode, stdout: t.stdout(), stderr: t.stderr()}
}

describe('settlement reconcile (the body)', () => {
  it('a clean period: everything matches, exit 0, an --out with the header only', async () => {
    const w = world()
    const seen = serve(w)
    const f = files(w.orders, bankOf(w.payouts))
    const out = join(api.dir, 'mismatches.csv')
    const r = await run({orders: f.orders, bank: f.bank, from: '2026-03-01', to: '2026-03-02', out})
    expect(r.exitCode).toBeUndefined()
    expect(r.result.summary).toMatchObject({ok: true, orders: 6, matched: 6, payouts: {total: 3, paid: 3, unpaid: 0}})
    expect(r.result).toMatchObject({period: {from: '2026-03-01', to: '2026-03-02'}, reports: ['stl_eur1', 'stl_usd2', 'stl_eur2'], payouts: ['po_eur1', 'po_usd2', 'po_eur2'], payment_lines: 6, findings_total: 0, findings: [], out})
    expect(readFileSync(out, 'utf8')).toBe('kind,reference,payment,report,payout,expected_amount,actual_amount,currency,detail\n')
    // one list per day, following the cursor; each report and payout downloaded once
    const lists = seen.filter((p) => p.includes('?')).map((p) => Object.fromEntries(new URL(p, BASE).searchParams))
    expect(lists).toEqual([
      {date: '2026-03-01', limit: '100'},
      {date: '2026-03-02', limit: '100'},
      {date: '2026-03-02', limit: '100', starting_after: 'stl_usd2'},
    ])
    expect(seen.filter((p) => !p.includes('?')).sort()).toEqual(['/v1/payouts/po_eur1', '/v1/payouts/po_eur2', '/v1/payouts/po_usd2', '/v1/settlement_reports/stl_eur1', '/v1/settlement_reports/stl_eur2', '/v1/settlement_reports/stl_usd2'])
    expect(r.stdout).toMatch(/^Reconciliation 2026-03-01 → 2026-03-02 · 3 reports · 3 payouts/)
    expect(r.stdout).toMatch(/Matched\s+6/)
    expect(r.stdout).toMatch(/Unpaid payouts\s+0 of 3/)
    expect(r.stdout).toMatch(/EUR\s+│ €100\.00 EUR\s+│ €0\.00 EUR\s+│ -€1\.20 EUR\s+│ -€5\.00 EUR\s+│ €98\.80 EUR\s+│ €93\.80 EUR/)
    expect(r.stdout).toContain('✓ Everything matches: 6 orders settled, 3 payouts credited.')
    expect(r.stderr).toContain(`Wrote ${out} (0 findings).`)
    expect(readdirSync(api.dir).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })

  it('finds every planted mismatch, writes them to --out, and exits 1', async () => {
    const w = world()
    serve(w)
    const orders = w.orders.filter(([ref]) => ref !== 'order-2') // settled, missing from the orders
    orders.push(['order-404', 700, 'EUR']) // an order never settled
    orders.find(([ref]) => ref === 'order-3')![1] = 3333 // amount
    orders.find(([ref]) => ref === 'order-5')![2] = 'EUR' // currency
    orders.push([...orders.find(([ref]) => ref === 'order-6')!]) // duplicate
    const bank = bankOf(w.payouts.filter((p) => p.id !== 'po_eur2')) // one payout never credited
    const f = files(orders, bank)
    const out = join(api.dir, 'mismatches.csv')
    // the unsettled order's payment exists but failed: the finding names it
    api.mock
      .get(BASE)
      .intercept({path: '/v1/payments?reference=order-404&limit=1', method: 'GET'})
      .reply(200, {object: 'list', url: '/v1/payments', has_more: false, data: [{id: 'pay_declined', object: 'payment', status: 'failed', failure_code: 'card_declined', reference: 'order-404', amount: 700, currency: 'EUR'}]}, json)
    const r = await run({orders: f.orders, bank: f.bank, from: '2026-03-01', to: '2026-03-02', out})
    expect(r.exitCode).toBe(1)
    expect(r.result.summary.ok).toBe(false)
    expect(r.result.summary.counts).toEqual({not_in_orders: 1, not_settled: 1, amount_mismatch: 1, currency_mismatch: 1, duplicate_order: 1, duplicate_settlement: 0, payout_unpaid: 1, unmatched_credit: 0, invalid_line: 0})
    // money first, then what is missing, then noise
    expect(r.result.findings.map((x) => x.kind)).toEqual(['amount_mismatch', 'currency_mismatch', 'payout_unpaid', 'not_settled', 'not_in_orders', 'duplicate_order'])
    expect(r.result.findings.find((x) => x.kind === 'not_settled')).toMatchObject({payment: 'pay_declined', detail: expect.stringContaining('payment pay_declined is failed (card_declined)')})
    expect(r.stdout.indexOf('amount_mismatch')).toBeLessThan(r.stdout.indexOf('duplicate_order'))
    expect(r.result.findings_total).toBe(6)
    const rows = readFileSync(out, 'utf8').trim().split('\n')
    expect(rows[0]).toBe('kind,reference,payment,report,payout,expected_amount,actual_amount,currency,detail')
    expect(rows.slice(1).map((l) => l.split(',').slice(0, 2).join(',')).sort()).toEqual(['amount_mismatch,order-3', 'currency_mismatch,order-5', 'duplicate_order,order-6', 'not_in_orders,order-2', 'not_settled,order-404', 'payout_unpaid,'])
    expect(rows).toContain('payout_unpaid,,,,po_eur2,3970,,EUR,no bank credit of 3970 EUR between 2026-03-04 and 5 days later')
    expect(r.stdout).toMatch(/In reports, not in orders\s+1/)
    expect(r.stdout).toMatch(/Unpaid payouts\s+1 of 3/)
    expect(r.stdout).toMatch(/amount_mismatch\s+│ order-3\s+│ pay_stl_eur1_2\s+│ €33\.33 EUR\s+│ €30\.00 EUR/)
    expect(r.stdout).toContain(`✗ 6 findings: every one is in ${out}.`)
  })

  it('without a period: the latest day that has reports; without --bank, payouts are not checked', async () => {
    const w = world()
    const seen = serve(w)
    const f = files(w.orders.filter(([ref]) => ['order-4', 'order-5', 'order-6'].includes(ref)))
    const r = await run({orders: f.orders})
    expect(r.result.period).toEqual({from: '2026-03-02', to: '2026-03-02'})
    expect(Object.fromEntries(new URL(seen[0]!, BASE).searchParams)).toEqual({limit: '1'})
    expect(r.result.summary).toMatchObject({ok: true, matched: 3, payouts: {total: 2, paid: 0, unpaid: 0}})
    expect(r.exitCode).toBeUndefined()
    expect(r.stdout).toMatch(/Unpaid payouts\s+not checked \(no --bank file; 2 payouts\)/)
    expect(r.stdout).toContain('✓ Everything matches: 3 orders settled.')
  })

  it('--from alone runs to the latest day; --currency narrows reports, orders and payouts', async () => {
    const w = world()
    const seen = serve(w)
    const f = files(w.orders)
    const r = await run({orders: f.orders, from: '2026-03-01', currency: 'EUR'}, {json: true})
    expect(r.result.period).toEqual({from: '2026-03-01', to: '2026-03-02'})
    expect(r.result.reports.sort()).toEqual(['stl_eur1', 'stl_eur2'])
    expect(r.result.summary).toMatchObject({ok: true, orders: 4, matched: 4})
    expect(seen.filter((p) => p.includes('?')).every((p) => new URL(p, BASE).searchParams.get('currency') === 'EUR')).toBe(true)
    // --json: the body prints nothing itself
    expect(r.stdout).toBe('')
  })

  it('a period without reports says so; its orders are not settled', async () => {
    serve(world())
    const f = files([['order-9', 100, 'EUR']])
    const r = await run({orders: f.orders, from: '2026-02-01', to: '2026-02-02'})
    expect(r.stderr).toContain('No settlement reports for 2026-02-01 to 2026-02-02: every order will show as not settled.')
    expect(r.result.summary.counts.not_settled).toBe(1)
    expect(r.exitCode).toBe(1)
  })

  it('more findings than the table shows: the first 20 on screen, the first 100 in --json, all in --out', async () => {
    const w = world()
    serve(w)
    const f = files([...w.orders, ...Array.from({length: 150}, (_, i) => [`extra-${i}`, 100, 'EUR'] as [string, number, string])])
    const out = join(api.dir, 'all.csv')
    const r = await run({orders: f.orders, from: '2026-03-01', to: '2026-03-02', out}, {tty: 200})
    expect(r.result.findings_total).toBe(150)
    expect(r.result.findings).toHaveLength(100)
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(151)
    expect(r.stdout).toContain('Findings (the first 20 of 150)')
    for (const line of r.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(200)
  })

  it('usage errors name the file and the fix, and send nothing', async () => {
    const w = world()
    const seen = serve(w)
    const err = async (flags: ReconcileOptions) => {
      try {
        await run(flags)
      } catch (error) {
        return error as Error & {exitCode: number; hint?: string}
      }
      throw new Error('expected a usage error')
    }
    const missing = await err({orders: join(api.dir, 'nope.csv')})
    expect(missing.exitCode).toBe(2)
    expect(missing.message).toBe(`--orders ${join(api.dir, 'nope.csv')}: no such file.`)
    expect(missing.hint).toContain('reference,amount,currency')

    expect((await err({orders: api.dir})).message).toContain('is a directory')

    const empty = join(api.dir, 'empty.csv')
    writeFileSync(empty, '')
    const e1 = await err({orders: empty})
    expect(e1.message).toBe(`--orders ${empty} is empty: the orders file needs a header line.`)
    expect(e1.hint).toContain('reference,amount,currency\n  order-1001,2000,EUR')

    const noAmount = files([['order-1', 'EUR']], undefined, 'reference,currency,customer')
    const e2 = await err({orders: noAmount.orders})
    expect(e2.exitCode).toBe(2)
    expect(e2.message).toBe(`--orders ${noAmount.orders} has no amount column (its header: reference,currency,customer); the orders file needs reference, amount, currency.`)

    const good = files(w.orders)
    const badBank = join(api.dir, 'bank.csv')
    writeFileSync(badBank, 'booked,value\n2026-03-03,5410\n')
    const e3 = await err({orders: good.orders, bank: badBank})
    expect(e3.message).toBe(`--bank ${badBank} has no date, amount, currency columns (its header: booked,value); the bank file needs date, amount, currency.`)
    expect(e3.hint).toContain('date,amount,currency,description')

    expect((await err({orders: good.orders, from: '2026-03-02', to: '2026-03-01'})).message).toBe('--from 2026-03-02 is after --to 2026-03-01.')
    expect((await err({orders: good.orders, from: '2024-01-01', to: '2026-03-01'})).message).toMatch(/has 791 days; at most 366/)
    expect((await err({orders: good.orders, out: join(api.dir, 'no', 'such', 'api.dir.csv')})).message).toContain('does not exist')
    expect((await err({orders: good.orders, out: good.orders})).message).toContain('is one of the input files')
    // nothing was asked of the API for any of these
    expect(seen).toEqual([])
  })

  it('a CSV that cannot be parsed is a usage error naming the file; --out is left as it was', async () => {
    serve(world())
    const o = join(api.dir, 'orders.csv')
    writeFileSync(o, 'reference,amount,currency\norder-1,1000,EUR\n"order-2,2000,EUR\n')
    const out = join(api.dir, 'out.csv')
    writeFileSync(out, 'previous run\n')
    await expect(run({orders: o, from: '2026-03-01', to: '2026-03-01', out})).rejects.toThrow(`--orders ${o} is not valid CSV`)
    expect(readFileSync(out, 'utf8')).toBe('previous run\n')
    expect(readdirSync(api.dir).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })

  it('daysOf lists every day of the period, both ends included', () => {
    expect(daysOf('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'])
    expect(daysOf('2026-03-01', '2026-03-01')).toEqual(['2026-03-01'])
  })
})

describe('through oclif', () => {
  let cli: CliEnv
  beforeEach(async () => {
    cli = await cliEnv()
    mkdirSync(join(cli.dir, 'work'))
  })
  afterEach(async () => {
    await cli.cleanup()
  })

  it('exit 1 on findings (--json still prints the result), exit 2 on a usage error, flags from GW_ variables', async () => {
    const w = world()
    serve(w, cli.pool)
    const o = join(cli.dir, 'work', 'orders.csv')
    writeFileSync(o, 'reference,amount,currency\norder-4,4000,EUR\norder-5,5000,USD\n')
    const r = await cli.run<ReconcileResult>(SettlementReconcile, [...at(), '--from', '2026-03-02', '--to', '2026-03-02', '--json'], {env: {GW_ORDERS: o}})
    expect(r.exitCode, r.stderr).toBe(1)
    expect((JSON.parse(r.stdout) as ReconcileResult).summary.counts.not_in_orders).toBe(1)

    const clean = await cli.run(SettlementReconcile, [...at(), '--orders', o, '--from', '2026-03-02', '--currency', 'EUR'])
    expect(clean.exitCode, clean.stderr).toBe(0)

    const bad = await cli.run(SettlementReconcile, [...at(), '--orders', join(cli.dir, 'work', 'missing.csv')])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('missing.csv: no such file')
    const date = await cli.run(SettlementReconcile, [...at(), '--orders', o, '--from', '2026-02-30'])
    expect(date.exitCode).toBe(2)
    expect(date.stderr).toContain('--from "2026-02-30" is not a date')
    expect(existsSync(join(cli.dir, 'work', 'orders.csv'))).toBe(true)
  })
})
