// gw balance, gw settlement list|get|download, gw payouts list|get against MockAgent.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Balance, ListEnvelope, Payout, SettlementReport} from '../../api/types.js'
import {at, cliEnv, errorBody, json, type CliEnv} from '../../base/test-support/cli.js'
import BalanceCommand from '../balance.js'
import PayoutsGet from '../payouts/get.js'
import PayoutsList from '../payouts/list.js'
import SettlementDownload from './download.js'
import SettlementGet from './get.js'
import SettlementList from './list.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

function report(over: Partial<SettlementReport> = {}): SettlementReport {
  return {
    id: 'stl_1',
    object: 'settlement_report',
    provider: 'prov_a',
    date: '2025-03-01',
    currency: 'EUR',
    gross: 5000,
    refunds: -500,
    fees: -145,
    net: 4355,
    adjustments: -2000,
    payout_amount: 2355,
    payout_currency: 'EUR',
    converted_payout_amount: 2355,
    lines: [
      {type: 'payment', payment: 'pay_1', reference: 'order-1', amount: 5000, currency: 'EUR', created_at: '2025-03-01T10:00:00Z'},
      {type: 'fee', payment: 'pay_1', reference: 'order-1', amount: -145, currency: 'EUR', created_at: '2025-03-01T10:00:00Z'},
      {type: 'refund', payment: 'pay_1', reference: 'order-1', amount: -500, currency: 'EUR', created_at: '2025-03-01T11:00:00Z'},
      {type: 'dispute', payment: 'pay_2', reference: 'order-2', amount: -2000, currency: 'EUR', created_at: '2025-03-01T12:00:00Z'},
    ],
    payout: 'po_1',
    livemode: false,
    created_at: '2025-03-02T02:00:00Z',
    ...over,
  }
}

function payout(over: Partial<Payout> = {}): Payout {
  return {
    id: 'po_1',
    object: 'payout',
    amount: 2355,
    currency: 'EUR',
    status: 'in_transit',
    arrival_date: '2025-03-03',
    settlement_reports: ['stl_1', 'stl_2'],
    livemode: false,
    created_at: '2025-03-02T02:00:00Z',
    ...over,
  }
}

describe('balance', () => {
  it('shows available and pending per currency; a negative available stands out', async () => {
    const b: Balance = {object: 'balance', available: [{amount: -2000, currency: 'EUR'}, {amount: 1500, currency: 'JPY'}], pending: [{amount: 4855, currency: 'EUR'}, {amount: 0, currency: 'JPY'}]}
    cli.pool.intercept({path: '/v1/balance', method: 'GET'}).reply(200, b, json)
    const r = await cli.run(BalanceCommand, [...at()])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('AVAILABLE')
    expect(r.stdout).toMatch(/EUR\s+│\s+-€20\.00 EUR\s+│\s+€48\.55 EUR/)
    expect(r.stdout).toMatch(/JPY\s+│\s+¥1,500 JPY\s+│\s+¥0 JPY/)
  })

  it('--json is the API object; an empty balance says so', async () => {
    const b: Balance = {object: 'balance', available: [], pending: []}
    cli.pool.intercept({path: '/v1/balance', method: 'GET'}).reply(200, b, json).times(2)
    expect(JSON.parse((await cli.run(BalanceCommand, [...at(), '--json'])).stdout)).toEqual(b)
    expect((await cli.run(BalanceCommand, [...at()])).stdout).toContain('No balance yet')
  })
})

describe('settlement list', () => {
  it('passes the filters and prints a table', async () => {
    let query: Record<string, string> = {}
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/settlement_reports?'), method: 'GET'})
      .reply((o) => {
        query = Object.fromEntries(new URL(o.path, 'https://x').searchParams)
        return {statusCode: 200, data: {object: 'list', url: '/v1/settlement_reports', data: [report()], has_more: false}, responseOptions: json}
      })
    const r = await cli.run(SettlementList, [...at(), '--provider', 'prov_a', '--currency', 'eur', '--date', '2025-03-01', '--limit', '5'])
    expect(r.exitCode).toBe(0)
    expect(query).toEqual({provider: 'prov_a', currency: 'EUR', date: '2025-03-01', limit: '5'})
    expect(r.stdout).toContain('stl_1')
    expect(r.stdout).toContain('€23.55 EUR')
    expect(r.stdout).toContain('po_1')
  })

  it('--json is the envelope; bad dates and currencies are usage errors', async () => {
    const env: ListEnvelope<SettlementReport> = {object: 'list', url: '/v1/settlement_reports', data: [], has_more: false}
    cli.pool.intercept({path: (p) => p.startsWith('/v1/settlement_reports'), method: 'GET'}).reply(200, env, json)
    expect(JSON.parse((await cli.run(SettlementList, [...at(), '--json'])).stdout)).toEqual(env)
    const bad = await cli.run(SettlementList, [...at(), '--date', 'yesterday'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('--date "yesterday" is not a date')
    expect((await cli.run(SettlementList, [...at(), '--currency', 'EURO'])).exitCode).toBe(2)
  })
})

describe('settlement get', () => {
  it('shows the totals and the lines, and how to download the CSV', async () => {
    cli.pool.intercept({path: '/v1/settlement_reports/stl_1', method: 'GET'}).reply(200, report(), json)
    const r = await cli.run(SettlementGet, [...at(), 'stl_1'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/Gross\s+€50\.00 EUR/)
    expect(r.stdout).toMatch(/Refunds\s+-€5\.00 EUR/)
    expect(r.stdout).toMatch(/Fees\s+-€1\.45 EUR/)
    expect(r.stdout).toMatch(/Net\s+€43\.55 EUR/)
    expect(r.stdout).toMatch(/Adjustments\s+-€20\.00 EUR\s+\(dispute debits and returns\)/)
    expect(r.stdout).toMatch(/Payout amount\s+€23\.55 EUR/)
    expect(r.stdout).toMatch(/dispute\s+│\s+pay_2\s+│\s+order-2/)
    expect(r.stderr).toContain('gw settlement download stl_1')
  })

  it('a converted report shows the converted payout and the rate on the conversion line', async () => {
    const converted = report({
      currency: 'USD',
      payout_currency: 'EUR',
      converted_payout_amount: 2167,
      lines: [{type: 'conversion', payment: null, reference: 'stl_1', amount: -2355, currency: 'USD', created_at: '2025-03-02T02:00:00Z', rate: 0.92, converted_amount: 2167, converted_currency: 'EUR'}],
    })
    cli.pool.intercept({path: '/v1/settlement_reports/stl_1', method: 'GET'}).reply(200, converted, json)
    const r = await cli.run(SettlementGet, [...at(), 'stl_1'])
    expect(r.stdout).toMatch(/Converted\s+€21\.67 EUR/)
    expect(r.stdout).toContain('€21.67 EUR @ 0.92')
  })

  it('a bad id is a usage error; an unknown one exits 5', async () => {
    expect((await cli.run(SettlementGet, [...at(), 'po_1'])).stderr).toContain('settlement report ids start with stl_')
    cli.pool.intercept({path: '/v1/settlement_reports/stl_x', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', 'No such settlement report'))
    expect((await cli.run(SettlementGet, [...at(), 'stl_x'])).exitCode).toBe(5)
  })
})

describe('settlement download', () => {
  const CSV = 'report,date,provider,type,payment,reference,amount,currency\nstl_1,2025-03-01,prov_a,payment,pay_1,order-1,5000,EUR\n'

  function csvReply() {
    const accepts: string[] = []
    cli.pool
      .intercept({path: '/v1/settlement_reports/stl_1', method: 'GET'})
      .reply((o) => {
        accepts.push(String((o.headers as Record<string, string>).accept))
        return {statusCode: 200, data: CSV, responseOptions: {headers: {'content-type': 'text/csv; charset=utf-8', 'request-id': 'req_1'}}}
      })
      .persist()
    return accepts
  }

  it('asks for text/csv and writes the CSV to stdout without --output', async () => {
    const accepts = csvReply()
    const r = await cli.run(SettlementDownload, [...at(), 'stl_1'])
    expect(r.exitCode).toBe(0)
    expect(accepts).toEqual(['text/csv'])
    expect(r.stdout).toBe(CSV)
  })

  it('--output writes the file and says so on stderr, stdout stays empty', async () => {
    csvReply()
    const file = join(cli.dir, 'stl_1.csv')
    const r = await cli.run(SettlementDownload, [...at(), 'stl_1', '--output', file])
    expect(r.exitCode).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(CSV)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(`Wrote ${file} (1 row)`)
  })

  it('an unwritable --output is a usage error', async () => {
    csvReply()
    const r = await cli.run(SettlementDownload, [...at(), 'stl_1', '--output', join(cli.dir, 'missing', 'dir', 'x.csv')])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('ENOENT')
  })
})

describe('payouts', () => {
  it('list passes filters and prints a table', async () => {
    let query: Record<string, string> = {}
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/payouts?'), method: 'GET'})
      .reply((o) => {
        query = Object.fromEntries(new URL(o.path, 'https://x').searchParams)
        return {statusCode: 200, data: {object: 'list', url: '/v1/payouts', data: [payout()], has_more: false}, responseOptions: json}
      })
    const r = await cli.run(PayoutsList, [...at(), '--currency', 'EUR', '--status', 'in_transit'])
    expect(r.exitCode).toBe(0)
    expect(query).toEqual({currency: 'EUR', status: 'in_transit'})
    expect(r.stdout).toMatch(/po_1\s+│\s+in_transit\s+│\s+€23\.55 EUR\s+│\s+2025-03-03/)
  })

  it('get shows the arrival date and the reports; --json is the object', async () => {
    cli.pool.intercept({path: '/v1/payouts/po_1', method: 'GET'}).reply(200, payout(), json).times(2)
    const r = await cli.run(PayoutsGet, [...at(), 'po_1'])
    expect(r.stdout).toMatch(/^po_1 {2}in_transit/)
    expect(r.stdout).toMatch(/Arrival date\s+2025-03-03/)
    expect(r.stdout).toMatch(/Reports\s+stl_1\n\s+stl_2/)
    expect(JSON.parse((await cli.run(PayoutsGet, [...at(), 'po_1', '--json'])).stdout)).toEqual(payout())
  })

  it('a bad id is a usage error', async () => {
    const r = await cli.run(PayoutsGet, [...at(), 'pay_1'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('payout ids start with po_')
  })
})
