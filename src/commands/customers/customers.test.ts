import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Customer} from '../../api/types.js'
import {at, cliEnv, errorBody, json, type CliEnv} from '../../base/test-support/cli.js'
import CustomersDelete from './delete.js'
import CustomersUpdate from './update.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

function customer(over: Partial<Customer> = {}): Customer {
  return {
    id: 'cus_123',
    object: 'customer',
    email: 'jane@example.com',
    name: 'Jane Doe',
    description: null,
    metadata: {},
    livemode: false,
    created_at: '2025-01-01T00:00:00Z',
    ...over,
  }
}

describe('customers update', () => {
  it('sends the given fields; "" clears one (null)', async () => {
    const seen: Record<string, unknown>[] = []
    cli.pool.intercept({path: '/v1/customers/cus_123', method: 'POST'}).reply((o) => {
      seen.push(JSON.parse(String(o.body)))
      return {statusCode: 200, data: customer({email: 'jane@example.org', metadata: {tier: 'gold'}}), responseOptions: json}
    })
    const r = await cli.run<Customer>(CustomersUpdate, [...at(), 'cus_123', '--email', 'jane@example.org', '--description', '', '--metadata', 'tier=gold'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]).toEqual({email: 'jane@example.org', description: null, metadata: {tier: 'gold'}})
    expect(r.stdout).toMatch(/Email\s+jane@example\.org/)
    expect(r.stdout).toContain('tier=gold')
    expect(r.result?.id).toBe('cus_123')
  })

  it('an unknown customer exits 5; nothing to change exits 2', async () => {
    cli.pool.intercept({path: '/v1/customers/cus_nope', method: 'POST'}).reply(404, errorBody('invalid_request_error', 'resource_missing', "No such customer: 'cus_nope'"))
    expect((await cli.run(CustomersUpdate, [...at(), 'cus_nope', '--name', 'X'])).exitCode).toBe(5)
    expect((await cli.run(CustomersUpdate, [...at(), 'cus_123'])).exitCode).toBe(2)
  })
})

describe('customers delete', () => {
  it('on a terminal asks, then deletes; --json returns the deleted object', async () => {
    let calls = 0
    cli.pool
      .intercept({path: '/v1/customers/cus_123', method: 'DELETE'})
      .reply(() => {
        calls++
        return {statusCode: 200, data: {id: 'cus_123', object: 'customer', deleted: true}, responseOptions: json}
      })
      .persist()
    const r = await cli.run(CustomersDelete, [...at(), 'cus_123'], {interactive: true, answers: ['yes']})
    expect(r.exitCode).toBe(0)
    expect(r.prompts[0].question).toContain('delete customer cus_123')
    expect(r.stdout).toContain('Deleted cus_123.')
    const j = await cli.run(CustomersDelete, [...at(), 'cus_123', '--yes', '--json'])
    expect(JSON.parse(j.stdout)).toEqual({id: 'cus_123', object: 'customer', deleted: true})
    expect(calls).toBe(2)
  })

  it('without a terminal and without --yes refuses (exit 9), sending nothing', async () => {
    const r = await cli.run(CustomersDelete, [...at(), 'cus_123'])
    expect(r.exitCode).toBe(9)
    expect(r.stderr).toContain('--yes')
  })
})
