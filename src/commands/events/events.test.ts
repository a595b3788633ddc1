import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {GwEvent} from '../../api/types.js'
import {at, cliEnv, errorBody, json, type CliEnv} from '../../base/test-support/cli.js'
import {ev, frame, list} from './shared/test-support/events.js'
import EventsGet from './get.js'
import EventsList from './list.js'
import EventsResend from './resend.js'
import EventsTail from './tail.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const sse = {headers: {'content-type': 'text/event-stream'}}

describe('events list', () => {
  it('passes the type filter (repeated and comma-separated), dates and cursors', async () => {
    const paths: string[] = []
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/events?'), method: 'GET'})
      .reply((o) => {
        paths.push(o.path)
        return {statusCode: 200, data: list([ev(2), ev(1, 'refund.failed')], true), responseOptions: json}
      })
      .persist()
    const r = await cli.run(EventsList, [...at(), '--type', 'payment.*', '-t', 'refund.failed,payment.*', '--created-gte', '2025-01-01', '--limit', '2', '--ending-before', 'evt_0'])
    expect(r.exitCode).toBe(0)
    const q = new URL(`https://x${paths[0]}`).searchParams
    expect(Object.fromEntries(q)).toEqual({type: 'payment.*,refund.failed', created_gte: '2025-01-01T00:00:00.000Z', limit: '2', ending_before: 'evt_0'})
    expect(r.stdout).toContain('evt_2')
    expect(r.stdout).toContain('refund.failed')
    expect(r.stdout).toContain('€10.02 EUR')
    expect(r.stderr).toContain('--starting-after evt_1')
  })

  it('* means every type; a malformed type is a usage error', async () => {
    const paths: string[] = []
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/events'), method: 'GET'})
      .reply((o) => {
        paths.push(o.path)
        return {statusCode: 200, data: list([]), responseOptions: json}
      })
      .persist()
    const all = await cli.run(EventsList, [...at(), '--type', '*'])
    expect(all.stdout).toContain('No events.')
    expect(paths[0]).toBe('/v1/events')
    const bad = await cli.run(EventsList, [...at(), '--type', 'Payment'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain("--events 'payment.*'")
  })

  it('--all --json streams NDJSON into a pipe', async () => {
    cli.pool.intercept({path: '/v1/events?limit=100', method: 'GET'}).reply(200, list([ev(3), ev(2)], true), json)
    cli.pool.intercept({path: '/v1/events?limit=100&starting_after=evt_2', method: 'GET'}).reply(200, list([ev(1)]), json)
    const r = await cli.run(EventsList, [...at(), '--all', '--json'])
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(['evt_3', 'evt_2', 'evt_1'])
  })
})

describe('events get', () => {
  it('shows the event and the object it carries', async () => {
    cli.pool.intercept({path: '/v1/events/evt_7', method: 'GET'}).reply(200, ev(7), json)
    const r = await cli.run<GwEvent>(EventsGet, [...at(), 'evt_7'])
    expect(r.stdout).toMatch(/^evt_7 {2}payment.succeeded/)
    expect(r.stdout).toMatch(/Object\s+pay_7 \(succeeded\)/)
    expect(r.stdout).toMatch(/Request\s+req_7/)
    expect(r.stdout).toContain('"amount": 1007')
    expect(r.result?.id).toBe('evt_7')
  })

  it('an unknown id exits 5; a non-evt id is a usage error', async () => {
    cli.pool.intercept({path: '/v1/events/evt_nope', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', 'No such event: evt_nope'), json)
    expect((await cli.run(EventsGet, [...at(), 'evt_nope'])).exitCode).toBe(5)
    expect((await cli.run(EventsGet, [...at(), 'pay_1'])).exitCode).toBe(2)
  })
})

describe('events resend', () => {
  it('resends to one endpoint or to all subscribed', async () => {
    const bodies: unknown[] = []
    const delivery = {id: 'whd_1', object: 'webhook_delivery', event: 'evt_1', event_type: 'payment.succeeded', endpoint: 'wh_1', status: 'pending', attempts: [], next_attempt_at: null, undeliverable_reason: null, livemode: false, created_at: 'x'}
    cli.pool
      .intercept({path: '/v1/events/evt_1/resend', method: 'POST'})
      .reply((o) => {
        bodies.push(JSON.parse(String(o.body)))
        return {statusCode: 200, data: {object: 'list', url: '/v1/events/evt_1/resend', data: [delivery], has_more: false}, responseOptions: json}
      })
      .persist()
    const one = await cli.run(EventsResend, [...at(), 'evt_1', '--endpoint', 'wh_1'])
    expect(one.stdout).toContain('whd_1  payment.succeeded  → wh_1  pending')
    expect(one.stderr).toContain('Queued 1 delivery of evt_1')
    await cli.run(EventsResend, [...at(), 'evt_1'])
    expect(bodies).toEqual([{endpoint: 'wh_1'}, {}])
    const bad = await cli.run(EventsResend, [...at(), 'evt_1', '--endpoint', 'we_1'])
    expect(bad.exitCode).toBe(2)
  })

  it('says so when no endpoint subscribes', async () => {
    cli.pool
      .intercept({path: '/v1/events/evt_1/resend', method: 'POST'})
      .reply(400, errorBody('invalid_request_error', 'no_webhook_endpoints', 'No enabled webhook endpoint subscribes to payment.succeeded; name one with endpoint to resend to it.'), json)
    const r = await cli.run(EventsResend, [...at(), 'evt_1'])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('No enabled webhook endpoint subscribes')
  })
})

describe('events tail in a pipe', () => {
  it('prints NDJSON, says on stderr when disconnected and reconnected, and marks backfilled events', async () => {
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([ev(1)]), json)
    cli.pool.intercept({path: '/v1/events/stream?type=payment.*', method: 'GET'}).reply(200, `: connected\n\n${frame(ev(2))}`, sse)
    cli.pool.intercept({path: '/v1/events?ending_before=evt_2&type=payment.*&limit=100', method: 'GET'}).reply(200, list([ev(3)]), json)
    cli.pool
      .intercept({path: '/v1/events/stream?type=payment.*', method: 'GET', headers: {'last-event-id': 'evt_3'}})
      .reply(() => {
        // stop the tail as a user would, once this connection has delivered
        setTimeout(() => process.emit('SIGINT'), 50)
        return {statusCode: 200, data: frame(ev(4)), responseOptions: sse}
      })
    // after the second connection ends, the tail keeps trying until it is stopped
    cli.pool.intercept({path: (p) => p.startsWith('/v1/events'), method: 'GET'}).reply(200, list([]), json).persist()
    const r = await cli.run(EventsTail, [...at(), '--events', 'payment.*'])
    expect(r.exitCode).toBe(0)
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as GwEvent & {backfilled?: boolean})
    expect(lines.map((l) => [l.id, l.backfilled ?? false])).toEqual([
      ['evt_2', false],
      ['evt_3', true],
      ['evt_4', false],
    ])
    // live lines are the event exactly as sent
    expect(r.stdout.split('\n')[0]).toBe(JSON.stringify(ev(2)))
    expect(r.stderr).toContain('Tailing payment.* from api.test')
    expect(r.stderr).toMatch(/Disconnected from api.test: the server closed the stream\. Reconnecting in 0\.3s/)
    expect(r.stderr).toContain('Reconnected to api.test; backfilled 1 event')
  })

  it('stops with exit 3 when the key is rejected', async () => {
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(401, errorBody('authentication_error', 'api_key_invalid', 'Invalid API key.'), json)
    const r = await cli.run(EventsTail, [...at()])
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('Stopped')
  })
})
