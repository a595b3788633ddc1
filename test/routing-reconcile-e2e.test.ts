// End-to-end for routing explained and reconciliation (docs/decisions.md#routing-explained-and-reconciliation)
// over the built CLI (`node bin/run.js`, from dist/ — `npm test` builds
// first) against an engine booted in this process: `gw payments explain` shows what the router
// did (a 4999 failover hop), `gw routing simulate` agrees with it, and `gw settlement reconcile`
// finds every planted mismatch in a settled period, and none in a clean one.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {ListEnvelope, Payment, PaymentRouting, Payout, RoutingDecision, SettlementReport} from '../src/api/types.js'
import type {ReconcileResult} from '../src/commands/settlement/shared/reconcile-report.js'
import {startCliWorld, type CliWorld} from './support/cli-world.js'

let w: CliWorld
beforeAll(async () => {
  w = await startCliWorld('gw-e2e-ops-', 'commands/settlement/reconcile.js')
}, 60_000)
afterAll(async () => w?.close())

const gw = (args: string[]) => w.gw(args)
const gwJson = <T>(args: string[]) => w.gwJson<T>(args)

const pay = (amount: number, currency: string, reference: string, card = '4242424242424242') =>
  gwJson<Payment>(['payments', 'create', '--amount', String(amount), '--currency', currency, '--method', 'card', '--card', card, '--reference', reference])

describe('routing explained', () => {
  it('explain shows the 4999 failover hop, and simulate (just before) decided the same', async () => {
    const simulated = await gwJson<RoutingDecision>(['routing', 'simulate', '--amount', '4999', '--currency', 'EUR', '--method', 'card', '--card-brand', 'visa', '--country', 'US'])
    const p = await pay(4999, 'EUR', 'order-failover')
    expect(p.status).toBe('succeeded')
    const routing = await gwJson<PaymentRouting>(['payments', 'explain', p.id])
    expect(routing.decisions).toHaveLength(1)
    const [decided] = routing.decisions
    // the same decision: inputs, exclusions, scores with their parts, the order
    const {decided_at: _a, ...sim} = simulated
    const {decided_at: _b, ...made} = decided!
    expect(made).toEqual(sim)
    // and what the router did: the first provider timed out (soft), the second approved
    expect(routing.attempts.map((a) => [a.provider, a.outcome, a.decline_class])).toEqual([
      [simulated.order[0], 'timeout', 'soft'],
      [simulated.order[1], 'approved', null],
    ])
    expect(p.provider).toBe(simulated.order[1])

    const shown = await gw(['payments', 'explain', p.id])
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toContain(`approved by ${simulated.order[1]} after 1 failover (${simulated.order[0]}: timeout)`)
    expect(shown.stdout).toMatch(new RegExp(`│ 1 │ ${simulated.order[0]}\\s+│ timeout\\s+│\\s+│ soft → next provider`))
    expect(shown.stdout).toMatch(new RegExp(`│ 2 │ ${simulated.order[1]}\\s+│ approved`))
    expect(shown.stdout).toMatch(/Strategy\s+smart routing/)

    const again = await gw(['routing', 'simulate', '--display-amount', '49.99', '--currency', 'EUR'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/^Simulated routing/)
    expect(again.stdout).toMatch(/Would try\s+prov_\w+, then/)
  }, 90_000)
})

describe('settlement reconcile', () => {
  const csv = (header: string, rows: (string | number)[][]) => `${header}\n${rows.map((r) => r.join(',')).join('\n')}\n`

  it('finds every planted mismatch in a settled period and none in a clean one', async () => {
    // a period: EUR and USD payments (and the 4999 failover above), one that the network disputes
    await Promise.all([1000, 2500, 3100, 4200].map((amount, i) => pay(amount, 'EUR', `order-eur-${i + 1}`)))
    await Promise.all([pay(5300, 'EUR', 'order-eur-5'), pay(1800, 'USD', 'order-usd-1'), pay(2600, 'USD', 'order-usd-2'), pay(3000, 'EUR', 'order-disputed', '4000000000000259')])
    const advanced = await gw(['clock', 'advance', '2d'])
    expect(advanced.code, advanced.stderr).toBe(0)
    expect(advanced.stdout).toContain('settlement.report.ready')

    // into a pipe, --all is NDJSON
    const listed = await gw(['payments', 'list', '--all'])
    expect(listed.code, listed.stderr).toBe(0)
    const payments = listed.stdout.trim().split('\n').map((l) => JSON.parse(l) as Payment).filter((p) => p.status === 'succeeded')
    expect(payments.length).toBeGreaterThanOrEqual(8)
    const reports = (await gwJson<ListEnvelope<SettlementReport>>(['settlement', 'list', '--limit', '100'])).data
    const days = [...new Set(reports.map((r) => r.date))].sort()
    const period = ['--from', days[0]!, '--to', days[days.length - 1]!]
    const payouts = (await gwJson<ListEnvelope<Payout>>(['payouts', 'list', '--limit', '100'])).data
    expect(payouts.map((p) => p.currency).sort()).toContain('USD')

    const orders = payments.map((p) => [p.reference, p.amount, p.currency, `customer of ${p.id}`])
    const bank = payouts.map((p) => [p.arrival_date, p.amount, p.currency, `GW PAYOUT ${p.id}`])

    // clean: every order settled, every payout credited
    writeFileSync(join(w.work, 'orders.csv'), csv('reference,amount,currency,note', orders))
    writeFileSync(join(w.work, 'bank.csv'), csv('date,amount,currency,description', bank))
    const clean = await gw(['settlement', 'reconcile', '--orders', 'orders.csv', '--bank', 'bank.csv', '--out', 'clean.csv', ...period])
    expect(clean.code, clean.stdout + clean.stderr).toBe(0)
    expect(clean.stdout).toContain(`✓ Everything matches: ${payments.length} orders settled, ${payouts.length} payouts credited.`)
    expect(clean.stdout).toMatch(/DISPUTE DEBITS/)
    expect(readFileSync(join(w.work, 'clean.csv'), 'utf8').trim().split('\n')).toHaveLength(1)

    // planted: one missing, one extra, one amount changed, one currency changed, one duplicate; the bank misses a payout
    const planted = orders.filter(([ref]) => ref !== 'order-eur-1')
    planted.push(['order-never-paid', 1234, 'EUR', 'extra'])
    planted.find(([ref]) => ref === 'order-eur-2')![1] = 2501
    planted.find(([ref]) => ref === 'order-usd-1')![2] = 'EUR'
    planted.push([...planted.find(([ref]) => ref === 'order-eur-3')!])
    const unpaid = payouts.find((p) => p.currency === 'USD')!
    writeFileSync(join(w.work, 'orders-planted.csv'), csv('reference,amount,currency,note', planted))
    writeFileSync(join(w.work, 'bank-planted.csv'), csv('date,amount,currency,description', bank.filter((b) => !String(b[3]).endsWith(unpaid.id))))
    const found = await gw(['settlement', 'reconcile', '--orders', 'orders-planted.csv', '--bank', 'bank-planted.csv', '--out', 'mismatches.csv', ...period])
    expect(found.code, found.stderr).toBe(1)
    expect(found.stdout).toContain('✗ 6 findings: every one is in mismatches.csv.')
    const rows = readFileSync(join(w.work, 'mismatches.csv'), 'utf8').trim().split('\n')
    expect(rows[0]).toBe('kind,reference,payment,report,payout,expected_amount,actual_amount,currency,detail')
    const kinds = rows.slice(1).map((l) => l.split(','))
    expect(kinds.map(([kind, reference, , , payout]) => `${kind} ${reference || payout}`).sort()).toEqual(
      [
        'amount_mismatch order-eur-2',
        'currency_mismatch order-usd-1',
        'duplicate_order order-eur-3',
        'not_in_orders order-eur-1',
        'not_settled order-never-paid',
        `payout_unpaid ${unpaid.id}`,
      ].sort(),
    )

    // --json: the same, as counts
    const json = await gw(['settlement', 'reconcile', '--orders', 'orders-planted.csv', '--bank', 'bank-planted.csv', ...period, '--json'])
    expect(json.code).toBe(1)
    const result = JSON.parse(json.stdout) as ReconcileResult
    expect(result.summary.counts).toEqual({not_in_orders: 1, not_settled: 1, amount_mismatch: 1, currency_mismatch: 1, duplicate_order: 1, duplicate_settlement: 0, payout_unpaid: 1, unmatched_credit: 0, invalid_line: 0})
    expect(result.summary.totals.find((t) => t.currency === 'EUR')!.disputes).toBeLessThan(0)
    expect(result.summary.totals.find((t) => t.currency === 'EUR')!.fees).toBeLessThan(0)
  }, 180_000)

  it('unusable files exit 2 naming the file and the fix', async () => {
    const missing = await gw(['settlement', 'reconcile', '--orders', 'nope.csv'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--orders nope.csv: no such file.')
    writeFileSync(join(w.work, 'no-amount.csv'), 'reference,currency\norder-1,EUR\n')
    const columns = await gw(['settlement', 'reconcile', '--orders', 'no-amount.csv'])
    expect(columns.code).toBe(2)
    expect(columns.stderr).toContain('--orders no-amount.csv has no amount column')
    expect(columns.stderr).toContain('reference,amount,currency')
    expect(columns.stdout).toBe('')
  }, 60_000)
})
