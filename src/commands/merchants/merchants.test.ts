import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {ListEnvelope, Merchant} from '../../api/types.js'
import {at, capturePostBodies, cliEnv, errorBody, json, type CliEnv} from '../../base/test-support/cli.js'
import MerchantsCreate from './create.js'
import MerchantsGet from './get.js'
import MerchantsList from './list.js'
import MerchantsUpdate from './update.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

function merchant(over: Partial<Merchant> = {}): Merchant {
  return {
    id: 'mer_123',
    object: 'merchant',
    business_name: 'Bakery Jansen',
    legal_name: 'Jansen B.V.',
    country: 'NL',
    email: 'ops@jansen.nl',
    kyb_status: 'pending',
    capabilities: {card_payments: 'pending', local_payments: 'pending', payouts: 'pending'},
    mid: null,
    metadata: {},
    livemode: false,
    created_at: '2025-01-01T00:00:00Z',
    ...over,
  }
}

const capturePost = (path: string, reply: object, status = 200) => capturePostBodies(cli, path, reply, status)

describe('merchants create', () => {
  it('sends the names, an uppercased country, email and metadata', async () => {
    const seen = capturePost('/v1/merchants', merchant({metadata: {crm: 'A1'}}), 201)
    const r = await cli.run<Merchant>(MerchantsCreate, [...at(), '--business-name', 'Bakery Jansen', '--legal-name', 'Jansen B.V.', '--country', 'nl', '--email', 'ops@jansen.nl', '--metadata', 'crm=A1'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]).toEqual({business_name: 'Bakery Jansen', legal_name: 'Jansen B.V.', country: 'NL', email: 'ops@jansen.nl', metadata: {crm: 'A1'}})
    expect(r.stdout).toMatch(/^mer_123 {2}pending/)
    expect(r.stdout).toMatch(/Capabilities\s+card_payments pending/)
    expect(r.result?.id).toBe('mer_123')
  })

  it('requires --business-name and a two-letter country (exit 2, nothing sent)', async () => {
    const seen = capturePost('/v1/merchants', merchant(), 201)
    expect((await cli.run(MerchantsCreate, [...at()])).exitCode).toBe(2)
    const r = await cli.run(MerchantsCreate, [...at(), '--business-name', 'X', '--country', 'NLD'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('country code')
    expect(seen).toHaveLength(0)
  })
})

describe('merchants list', () => {
  it('filters by KYB status and draws a table', async () => {
    let path = ''
    cli.pool.intercept({path: (p) => p.startsWith('/v1/merchants'), method: 'GET'}).reply((o) => {
      path = o.path
      return {statusCode: 200, data: {object: 'list', url: '/v1/merchants', data: [merchant({kyb_status: 'active'})], has_more: false}, responseOptions: json}
    })
    const r = await cli.run<ListEnvelope<Merchant>>(MerchantsList, [...at(), '--kyb-status', 'active'])
    expect(r.exitCode).toBe(0)
    expect(new URL(path, 'https://x').searchParams.get('kyb_status')).toBe('active')
    expect(r.stdout).toMatch(/mer_123\s.*Bakery Jansen.*NL.*active/)
  })

  it('rejects an unknown KYB status (exit 2)', async () => {
    expect((await cli.run(MerchantsList, [...at(), '--kyb-status', 'done'])).exitCode).toBe(2)
  })
})

describe('merchants get', () => {
  it('--json returns the merchant', async () => {
    cli.pool.intercept({path: '/v1/merchants/mer_123', method: 'GET'}).reply(200, merchant({kyb_status: 'active', mid: 'MID0000000042'}), json)
    const r = await cli.run(MerchantsGet, [...at(), 'mer_123', '--json'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({id: 'mer_123', mid: 'MID0000000042'})
  })

  it('an unknown merchant exits 5', async () => {
    cli.pool.intercept({path: '/v1/merchants/mer_nope', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', "No such merchant: 'mer_nope'"))
    const r = await cli.run(MerchantsGet, [...at(), 'mer_nope'])
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toContain('mer_nope')
  })
})

describe('merchants update', () => {
  it('sends only the given fields, capabilities nested', async () => {
    const seen = capturePost('/v1/merchants/mer_123', merchant({kyb_status: 'active', capabilities: {card_payments: 'active', local_payments: 'active', payouts: 'inactive'}}))
    const r = await cli.run(MerchantsUpdate, [...at(), 'mer_123', '--email', 'new@jansen.nl', '--payouts', 'inactive', '--card-payments', 'active'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]).toEqual({email: 'new@jansen.nl', capabilities: {card_payments: 'active', payouts: 'inactive'}})
    expect(r.stdout).toContain('payouts inactive')
  })

  it('with nothing to change is a usage error; an API 400 exits 1 with its message', async () => {
    expect((await cli.run(MerchantsUpdate, [...at(), 'mer_123'])).exitCode).toBe(2)
    cli.pool
      .intercept({path: '/v1/merchants/mer_123', method: 'POST'})
      .reply(400, errorBody('invalid_request_error', 'parameter_invalid', 'Capabilities change only once KYB is complete (kyb_status is pending).', {param: 'capabilities'}))
    const r = await cli.run(MerchantsUpdate, [...at(), 'mer_123', '--payouts', 'active'])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('KYB is complete')
  })
})
