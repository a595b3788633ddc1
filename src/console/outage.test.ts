// An outage the engine answers through (its store away: a PostgreSQL outage): a 5xx to one of
// the console's requests, or its /readyz saying not ready, is said while it lasts — on the status
// line, the banner and the Gateway view, with the 5xx this console got (the request log, kept in
// the same store, records none until it is back) — and is over once a request is served.
import {describe, expect, it} from 'vitest'
import {ApiError} from '../client/errors.js'
import type {GwClient} from '../client/index.js'
import {gatewayLines} from './models/gateway.js'
import {ConsoleSession} from './session.js'

const client = {baseUrl: 'https://127.0.0.1:4000/v1'} as unknown as GwClient
const storeDown = () => new ApiError({status: 503, type: 'api_error', code: 'store_unavailable', message: 'The store is not answering.'})

describe('an outage the engine answers through', () => {
  it('is said from the first 5xx, counts those of the last minute, and is over when a request is served', async () => {
    let now = 1_000_000
    const session = new ConsoleSession({client, apiKey: 'sk_test_x', profile: 'default', now: () => now})
    expect(session.outage).toBeUndefined()
    const failed = await session.call(() => Promise.reject(storeDown()))
    expect(failed.ok).toBe(false)
    expect(session.connection.state).toBe('live')
    expect(session.outage).toMatchObject({since: 1_000_000, seen: [1_000_000]})
    expect(session.outage?.reason).toContain('The store is not answering.')
    now += 70_000
    await session.call(() => Promise.reject(storeDown()))
    // the first 5xx is over a minute old: one counted, the outage still from its start
    expect(session.outage).toMatchObject({since: 1_000_000, seen: [1_070_000]})
    // a 4xx is the engine serving: no outage from it
    await session.call(() => Promise.resolve('served'))
    expect(session.outage).toBeUndefined()
    await session.call(() => Promise.reject(new ApiError({status: 404, type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment.'})))
    expect(session.outage).toBeUndefined()
    session.close()
  })

  it('comes first in the Gateway view, with what this console got while the request log cannot count it', () => {
    const now = 2_000_000
    const lines = gatewayLines({
      now,
      since: now - 120_000,
      host: '127.0.0.1:4000',
      base: {state: 'not_ready', at: now, reason: 'the store does not answer'},
      instances: {ok: true, value: []},
      stream: {live: false, note: 'reconnecting: 503'},
      providers: undefined,
      backlog: undefined,
      chaos: undefined,
      outage: {since: now - 30_000, reason: 'its /readyz: not ready (the store does not answer)', seen: [now - 90_000, now - 20_000, now - 5_000]},
    })
    expect(lines[0]).toEqual({text: 'Outage since 30s ago: its /readyz: not ready (the store does not answer)', tone: 'bad'})
    expect(lines[1]!.text).toContain('2 5xx to this console in the last minute')
    expect(lines[2]!.text).toContain('/readyz not ready (the store does not answer)')
  })
})
