import {describe, expect, it} from 'vitest'
import {
  checkEndpointUrl,
  isLoopbackHost,
  nextAttemptAt,
  looksLikePause,
  nextHealth,
  normaliseEnabledEvents,
  RETRY_WINDOW_MS,
  subscribes,
  type EndpointHealth,
} from './webhooks.js'

describe('enabled_events', () => {
  it('accepts known types, `*` and prefixes; rejects unknown types naming the entry', () => {
    expect(normaliseEnabledEvents(['payment.succeeded', 'payment.succeeded', 'refund.failed'])).toEqual({
      events: ['payment.succeeded', 'refund.failed'],
    })
    expect(normaliseEnabledEvents(['payment.succeeded', '*'])).toEqual({events: ['*']})
    expect(normaliseEnabledEvents(['payment.*', 'provider.health.*'])).toEqual({events: ['payment.*', 'provider.health.*']})
    const bad = normaliseEnabledEvents(['payment.succeeded', 'payment.succeded'])
    expect(bad).toMatchObject({index: 1})
    expect((bad as {error: string}).error).toContain('payment.succeeded')
    expect(normaliseEnabledEvents(['nothing.*'])).toMatchObject({index: 0})
    expect(normaliseEnabledEvents([])).toMatchObject({index: -1})
  })

  it('matches exact types, prefixes and `*` (which also covers types added later)', () => {
    expect(subscribes(['payment.succeeded'], 'payment.succeeded')).toBe(true)
    expect(subscribes(['payment.succeeded'], 'payment.failed')).toBe(false)
    expect(subscribes(['payment.*'], 'payment.failed')).toBe(true)
    expect(subscribes(['payment.*'], 'refund.failed')).toBe(false)
    expect(subscribes(['*'], 'brand.new_type')).toBe(true)
  })
})

describe('retry schedule', () => {
  it('backs off 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, then every 12 h, ending at the window with a final attempt', () => {
    const start = new Date('2026-01-01T00:00:00Z')
    const until = new Date(start.getTime() + RETRY_WINDOW_MS)
    let at = start
    const gaps: number[] = []
    for (let n = 1; ; n++) {
      const next = nextAttemptAt(n, at, until)
      if (!next) break
      gaps.push((next.getTime() - at.getTime()) / 1000)
      at = next
    }
    expect(gaps.slice(0, 7)).toEqual([60, 300, 1800, 7200, 21_600, 43_200, 43_200])
    expect(at.getTime()).toBe(until.getTime()) // the last attempt is at 72 h
    expect(gaps.length).toBe(11)
  })
})

describe('endpoint health', () => {
  const healthy: EndpointHealth = {
    status: 'enabled',
    disabled: false,
    disabled_reason: null,
    failing_since: null,
    streak_started_at: null,
    last_failure_at: null,
  }
  const h0 = new Date('2026-01-01T00:00:00Z').getTime()
  const at = (hours: number) => new Date(h0 + hours * 3_600_000)

  it('flags after 3 days of failures, disables after 5, and a success resets it', () => {
    let h = healthy
    const apply = (ok: boolean, hours: number) => (h = nextHealth(h, ok, at(hours)) ?? h)
    apply(false, 0)
    expect(h).toMatchObject({status: 'enabled', streak_started_at: at(0).toISOString()})
    for (let t = 12; t < 72; t += 12) apply(false, t)
    expect(h.status).toBe('enabled')
    apply(false, 72)
    expect(h).toMatchObject({status: 'failing', failing_since: at(0).toISOString(), disabled: false})
    for (let t = 84; t < 120; t += 12) apply(false, t)
    expect(h.disabled).toBe(false)
    apply(false, 120)
    expect(h).toMatchObject({status: 'disabled', disabled: true, disabled_reason: 'failing', failing_since: at(0).toISOString()})
    // disabled endpoints only change when the merchant re-enables them
    expect(nextHealth(h, true, at(121))).toBeUndefined()

    h = healthy
    apply(false, 0)
    for (let t = 12; t <= 72; t += 12) apply(false, t)
    expect(h.status).toBe('failing')
    apply(true, 80)
    expect(h).toEqual(healthy)
  })

  it('a pause of more than a day between failures starts a new streak; hourly failures are not rewritten', () => {
    let h = nextHealth(healthy, false, at(0))!
    expect(nextHealth(h, false, at(0.5))).toBeUndefined() // nothing new worth a write
    h = nextHealth(h, false, at(30))!
    expect(h.streak_started_at).toBe(at(30).toISOString())
    expect(nextHealth(healthy, true, at(1))).toBeUndefined()
  })

  it('a pause that only looks like one (attempts due inside it not recorded yet, after a clock jump) keeps the streak', () => {
    const h = nextHealth(healthy, false, at(0))!
    expect(looksLikePause(h, at(24.5))).toBe(true)
    expect(looksLikePause(h, at(23))).toBe(false)
    expect(nextHealth(h, false, at(24.5), {attemptsDueBetween: true})?.streak_started_at ?? h.streak_started_at).toBe(at(0).toISOString())
    expect(nextHealth(h, false, at(24.5))!.streak_started_at).toBe(at(24.5).toISOString())
  })

  it('failures recorded out of due order within a batch (a clock advance caught up in parallel attempts) give the health of the same failures in order', () => {
    const hours = [0, 12, 24, 36, 48, 60, 72, 84, 96, 108, 120]
    const inOrder = hours.reduce((h, t) => nextHealth(h, false, at(t)) ?? h, healthy)
    const shuffled = [12, 0, 36, 24, 60, 48, 84, 72, 108, 96, 120].reduce((h, t) => nextHealth(h, false, at(t)) ?? h, healthy)
    expect(inOrder).toMatchObject({status: 'disabled', failing_since: at(0).toISOString()})
    expect(shuffled).toMatchObject({status: 'disabled', failing_since: at(0).toISOString()})
    // an earlier failure recorded after a later one never un-flags the endpoint
    const failing = [0, 24, 48, 72].reduce((h, t) => nextHealth(h, false, at(t)) ?? h, healthy)
    expect(failing.status).toBe('failing')
    expect((nextHealth(failing, false, at(30)) ?? failing).status).toBe('failing')
  })
})

describe('urls', () => {
  it('requires https', () => {
    expect(checkEndpointUrl('https://example.com/hook')).toBeUndefined()
    expect(checkEndpointUrl('http://example.com/hook')).toContain('HTTPS')
    expect(checkEndpointUrl('example.com/hook')).toContain('absolute')
  })

  it('recognises loopback hosts only', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) expect(isLoopbackHost(h)).toBe(true)
    for (const h of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com', '127.0.0.1.nip.io']) expect(isLoopbackHost(h)).toBe(false)
  })
})
