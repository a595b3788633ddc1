// Deadlines against the engine clock with a key that may not read it (docs/decisions.md#the-gateways-clock): the CLI takes
// the time from the Gw-Engine-Time header of the answers it gets; where a server does not send it
// and the key cannot read the clock, it says once on stderr what it counts from.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Dispute, ListEnvelope} from '../../api/types.js'
import {dispute as baseDispute} from '../../api/test-support/objects.js'
import {apiKeySelf, at, cliEnv, errorBody, json, type CliEnv} from '../../base/test-support/cli.js'
import {exactDuration} from './shared/display.js'
import DisputesDue from './due.js'
import DisputesGet from './get.js'
import DisputesList from './list.js'

const RK = 'rk_test_support_0123456789abcdef4J4N'
const H = 3600_000
const D = 24 * H

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const dispute = (over: Partial<Dispute> = {}) => baseDispute({id: 'dp_1', payment: 'pay_1', evidence_due_by: null, created_at: '2025-01-01T00:00:00.000Z', ...over})
const env = (data: Dispute[]): ListEnvelope<Dispute> => ({object: 'list', url: '/v1/disputes', data, has_more: false})
/** an answer of a gw that says its engine time */
const saying = (engine: number) => ({headers: {...json.headers, 'gw-engine-time': new Date(engine).toISOString()}})
/** the clock endpoint refuses a key without test_helpers:read (any call of it fails the test that must not make it) */
function clockRefused() {
  const calls: string[] = []
  cli.pool
    .intercept({path: '/v1/test_helpers/clock', method: 'GET'})
    .reply(() => {
      calls.push('clock')
      return {statusCode: 403, data: errorBody('permission_error', 'permission_denied', 'This restricted key lacks test_helpers:read.', {permission: 'test_helpers:read'}), responseOptions: json}
    })
    .persist()
  return calls
}

describe('the engine clock 7 days ahead, a restricted key without test_helpers:read', () => {
  const engine = Date.now() + 7 * D + 60_000
  const soon = dispute({id: 'dp_6h', evidence_due_by: new Date(engine + 6 * H + 30_000).toISOString()})
  const later = dispute({id: 'dp_3d', evidence_due_by: new Date(engine + 3 * D + 30_000).toISOString()})

  it('disputes due lists what is due within 1d on the engine clock, "6h left", from the list answer alone', async () => {
    const clockCalls = clockRefused()
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'}).reply(200, env([later, soon]), saying(engine))
    const r = await cli.run<Dispute[]>(DisputesDue, [...at(RK), '--within', '1d'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.result?.map((d) => d.id)).toEqual(['dp_6h'])
    expect(r.stdout).toContain('6h left')
    expect(r.stdout).not.toContain('7d')
    expect(r.stderr).toContain('The engine clock is 7d ahead of the wall clock')
    expect(r.stderr).not.toContain("this computer's clock")
    expect(clockCalls).toEqual([])
  })

  it('disputes get and list read it from their own answers too', async () => {
    const clockCalls = clockRefused()
    cli.pool.intercept({path: '/v1/disputes/dp_6h', method: 'GET'}).reply(200, soon, saying(engine)).persist()
    cli.pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(403, errorBody('permission_error', 'permission_denied', 'lacks payments:read'), saying(engine)).persist()
    const got = await cli.run(DisputesGet, [...at(RK), 'dp_6h'])
    expect(got.exitCode, got.stderr).toBe(0)
    expect(got.stdout).toContain('(6h left)')
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes'), method: 'GET'}).reply(200, env([later, soon]), saying(engine))
    const listed = await cli.run(DisputesList, [...at(RK)])
    expect(listed.exitCode, listed.stderr).toBe(0)
    expect(listed.stdout).toContain('6h left')
    expect(listed.stdout).toContain('3d left')
    expect(clockCalls).toEqual([])
  })

  it('an older server (no header) that the key cannot ask for its clock: this computer\'s clock, said once, never silently', async () => {
    clockRefused()
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(200, apiKeySelf(['disputes:read']), json)
    const wallSoon = dispute({id: 'dp_wall', evidence_due_by: new Date(Date.now() + 5 * H + 30_000).toISOString()})
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'}).reply(200, env([wallSoon]), json)
    const r = await cli.run<Dispute[]>(DisputesDue, [...at(RK), '--within', '1d'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('5h left')
    expect(r.stderr.match(/does not say its engine time/g)).toHaveLength(1)
    expect(r.stderr).toContain("times are counted from this computer's clock, now ")
  })
})

describe('--within says the window exactly', () => {
  it('a bare 144 is 144 seconds: "within 2m 24s", not "2m"', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'}).reply(200, env([]), saying(Date.now()))
    const r = await cli.run(DisputesDue, [...at(RK), '--within', '144'])
    expect(r.stderr).toContain('--within 144 has no unit: read as 144 seconds')
    expect(r.stdout.trim()).toBe('No disputes need a response within 2m 24s.')
    expect(exactDuration(7 * 86_400)).toBe('7d')
    expect(exactDuration(93_784)).toBe('1d 2h 3m 4s')
  })
})
