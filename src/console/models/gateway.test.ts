// The Gateway view's model without a terminal: the sliding window of the request log (rate,
// p50/p99, 5xx, last seen), an instance's state from its probe and its silence, the addresses
// it is probed at, the webhook backlog in a /metrics text, and the view's lines.
import {describe, expect, it} from 'vitest'
import {backlogFromMetrics, gatewayLines, instanceRows, probeOrigins, quantile, RequestWindow, type Probe} from './gateway.js'

const T0 = 1_700_000_000_000

describe('RequestWindow', () => {
  it('counts requests/s, p50/p99 and 5xx per instance over the last minute, sliding', () => {
    const w = new RequestWindow(T0 - 120_000)
    // a: 100 requests over the first 50 s, latencies 1..100 ms, two of them 5xx
    for (let i = 1; i <= 100; i++) w.add({instance: 'a:1', status: i % 50 === 0 ? 503 : 200, latency_ms: i}, T0 + i * 500)
    w.add({instance: 'b:2', status: 200, latency_ms: 7}, T0 + 1000)
    const now = T0 + 50_000
    const a = w.figures('a:1', now)!
    expect(a.requests).toBe(100)
    expect(a.rps).toBeCloseTo(100 / 60)
    expect(a.p50).toBe(50)
    expect(a.p99).toBe(99)
    expect(a.errors5xx).toBe(2)
    expect(a.lastSeen).toBe(T0 + 50_000)
    // 40 s later the first 30 s have left the window: requests at T0+30.5s .. T0+50s remain
    const later = w.figures('a:1', T0 + 90_000)!
    expect(later.requests).toBe(40)
    expect(later.p50).toBe(80)
    expect(later.errors5xx).toBe(1)
    expect(w.instances()).toEqual(['a:1', 'b:2'])
  })

  it('rates over the time watched before a whole minute has passed', () => {
    const w = new RequestWindow(T0)
    for (let i = 0; i < 20; i++) w.add({instance: 'a:1', status: 200, latency_ms: 5}, T0 + i * 100)
    expect(w.figures('a:1', T0 + 10_000)!.rps).toBeCloseTo(2)
  })

  it('keeps the last minute of an instance gone silent (its figures as of then), and drops older entries', () => {
    const w = new RequestWindow(T0 - 60_000, 60_000)
    for (let i = 0; i < 3000; i++) w.add({instance: 'a:1', status: 200, latency_ms: i < 2000 ? 1 : 9}, T0 + i * 100)
    const last = T0 + 2999 * 100
    const frozen = w.figures('a:1', last + 600_000, true)!
    expect(frozen.asOf).toBe(last)
    expect(frozen.requests).toBe(600)
    expect(frozen.p50).toBe(9)
    expect(w.figures('a:1', last + 600_000)!.requests).toBe(0)
  })

  it('quantile is the nearest rank', () => {
    expect(quantile([], 0.5)).toBeUndefined()
    expect(quantile([3], 0.99)).toBe(3)
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2)
  })
})

describe("an instance's state", () => {
  const w = new RequestWindow(T0 - 60_000)
  w.add({instance: 'up:1', status: 200, latency_ms: 3}, T0)
  w.add({instance: 'quiet:2', status: 200, latency_ms: 3}, T0)
  w.add({instance: 'gone:3', status: 200, latency_ms: 3}, T0)
  w.add({instance: 'draining:4', status: 200, latency_ms: 3}, T0)
  w.add({instance: 'far:5', status: 200, latency_ms: 3}, T0 + 25_000)
  const probes = new Map<string, Probe>([
    ['up:1', {state: 'ready', at: T0}],
    ['quiet:2', {state: 'unreachable', at: T0, reason: 'TLS'}],
    ['gone:3', {state: 'down', at: T0, reason: 'refused'}],
    ['draining:4', {state: 'not_ready', at: T0, reason: 'stopping'}],
  ])
  it('is its probe where it answers; else up while seen, unknown once silent past the threshold', () => {
    const rows = instanceRows(w, probes, T0 + 30_000, 10_000)
    expect(Object.fromEntries(rows.map((r) => [r.figures.instance, r.status]))).toEqual({'up:1': 'up', 'quiet:2': 'unknown', 'gone:3': 'down', 'draining:4': 'not ready', 'far:5': 'up'})
    // a down or unknown instance's figures are as of its last sighting; a live one's as of now
    expect(rows.find((r) => r.figures.instance === 'gone:3')!.figures.asOf).toBe(T0)
    expect(rows.find((r) => r.figures.instance === 'up:1')!.figures.asOf).toBe(T0 + 30_000)
  })

  it('is probed at its own address, and on the loopback first when it runs on this machine', () => {
    expect(probeOrigins('vm:4001', 'https://127.0.0.1:8443/v1', 'vm')).toEqual(['https://127.0.0.1:4001', 'https://vm:4001'])
    expect(probeOrigins('gw-2.internal:8443', 'https://gw.example.com/v1', 'laptop')).toEqual(['https://gw-2.internal:8443'])
    expect(probeOrigins('(unnamed instance)', 'https://127.0.0.1/v1', 'vm')).toEqual([])
  })
})

describe('the webhook backlog from /metrics', () => {
  const text = [
    '# HELP gw_webhook_backlog Deliveries waiting',
    '# TYPE gw_webhook_backlog gauge',
    'gw_webhook_backlog{account="acct_1",endpoint="we_1"} 3',
    'gw_webhook_backlog{account="acct_1",endpoint="we_2"} 0',
    'gw_webhook_backlog{account="acct_2",endpoint="we_9"} 50',
    '# TYPE gw_webhook_backlog_oldest_due_seconds gauge',
    'gw_webhook_backlog_oldest_due_seconds{account="acct_1",endpoint="we_1"} 12.5',
    'gw_webhook_backlog_oldest_due_seconds{account="acct_2",endpoint="we_9"} 900',
  ].join('\n')
  it("is this account's deliveries waiting and the oldest due", () => {
    expect(backlogFromMetrics(text, 'acct_1')).toEqual({reported: true, pending: 3, endpoints: 1, oldestDueSeconds: 12.5})
  })
  it('is not reported by an instance that does not hold the fleet gauges', () => {
    expect(backlogFromMetrics('# TYPE gw_instance_info gauge\ngw_instance_info{instance_id="vm:1"} 1\n', 'acct_1')).toEqual({reported: false})
  })
})

describe("the view's lines", () => {
  it('show each instance with its figures and age, a down one as such, providers, backlog, chaos; and a permission instead of a section', () => {
    const w = new RequestWindow(T0 - 60_000)
    for (let i = 0; i < 30; i++) w.add({instance: 'vm:4001', status: i === 0 ? 500 : 200, latency_ms: 10}, T0 + i * 1000)
    w.add({instance: 'vm:4002', status: 200, latency_ms: 40}, T0)
    const now = T0 + 40_000
    const rows = instanceRows(w, new Map<string, Probe>([['vm:4001', {state: 'ready', at: now}], ['vm:4002', {state: 'down', at: now, reason: 'nothing listens at https://127.0.0.1:4002'}]]), now, 10_000)
    const text = gatewayLines({
      now,
      since: T0 - 60_000,
      host: '127.0.0.1:4001',
      base: {state: 'ready', at: now},
      instances: {ok: true, value: rows},
      stream: {live: true},
      providers: {ok: false, message: 'x', permission: 'providers:read'},
      backlog: {value: {reported: true, pending: 2, endpoints: 1, oldestDueSeconds: 4}, at: now, from: '127.0.0.1:4001'},
      chaos: {ok: true, value: []},
      self: 'vm:4001',
    })
      .map((l) => l.text)
      .join('\n')
    expect(text).toContain('Base URL 127.0.0.1:4001: /readyz ready')
    expect(text).toMatch(/vm:4001 \* +up +ready +0\.5 +10ms +10ms +1 +11s ago/)
    expect(text).toMatch(/vm:4002 +down +refused .* 40s ago\n +figures as of 40s ago, when last seen · nothing listens at https:\/\/127\.0\.0\.1:4002/)
    expect(text).toContain('needs providers:read')
    expect(text).toContain('2 deliveries waiting on 1 endpoint, oldest due 4s')
    expect(text).toContain('Chaos rules active (0)')

    const denied = gatewayLines({now, since: T0, host: 'h', base: undefined, instances: {ok: false, message: 'm', permission: 'request_logs:read'}, stream: {live: false}, providers: undefined, backlog: undefined, chaos: undefined})
    expect(denied.map((l) => l.text).join('\n')).toContain('needs request_logs:read (this key may not read the request log)')
  })
})
