// Failures contained to an account (docs/decisions.md#failures-are-contained): counted every time, logged once per account and
// place while they last (again after the repeat interval, with how many were left out).
import {describe, expect, it} from 'vitest'
import {Containment} from './containment.js'
import {StoreUnavailableError} from '../ports/store.js'
import {waitFor} from '../test-support/wait.js'

describe('Containment', () => {
  it('counts every failure and logs each account and place once, then again after the interval with the count left out', () => {
    const lines: string[] = []
    const counted: string[] = []
    let now = 1_000_000
    const realNow = Date.now
    Date.now = () => now
    try {
      const c = new Containment((l) => lines.push(l), (w) => counted.push(w), 60_000)
      for (let i = 0; i < 5; i++) c.report('timeline_job', 'acct_a', new Error('bad row'), 'job payment.auth_expiry pay_1')
      c.report('timeline_job', 'acct_b', new Error('bad row'))
      c.report('clock', 'acct_a', 'clock_offset_ms is no number')
      expect(counted).toEqual([...Array(6).fill('timeline_job'), 'clock'])
      expect(lines).toHaveLength(3)
      expect(lines[0]).toMatch(/^contained \(timeline_job, account acct_a\) job payment\.auth_expiry pay_1: Error: bad row/)
      expect(lines[2]).toMatch(/^contained \(clock, account acct_a\): clock_offset_ms is no number/)
      now += 60_000
      c.report('timeline_job', 'acct_a', new Error('bad row'))
      expect(lines).toHaveLength(4)
      expect(lines[3]).toMatch(/\(4 more since the last line\)/)
    } finally {
      Date.now = realNow
    }
  })

  it('a counter that throws does not turn the contained failure into another', () => {
    const lines: string[] = []
    const c = new Containment(
      (l) => lines.push(l),
      () => {
        throw new Error('metrics gone')
      },
    )
    expect(() => c.report('request_log', null, new Error('x'))).not.toThrow()
    expect(lines[0]).toMatch(/account none/)
  })
})

describe('the store unreachable', () => {
  it('is said once when it goes and once when it is back (asked meanwhile), whatever fails while it lasts; each failure is still counted', async () => {
    const lines: string[] = []
    const counted: string[] = []
    let up = false
    let asked = 0
    const c = new Containment(
      (l) => void lines.push(l),
      (w) => void counted.push(w),
      undefined,
      async () => {
        asked++
        if (!up) throw new StoreUnavailableError('PostgreSQL is not reachable: connect ECONNREFUSED')
      },
      10,
    )
    for (let i = 0; i < 5; i++) for (const where of ['job_runner', 'webhook_claim'] as const) c.report(where, null, new StoreUnavailableError('PostgreSQL is not reachable: connect ECONNREFUSED'))
    await waitFor('asked twice', async () => asked >= 2)
    up = true
    await waitFor('back', async () => lines.length === 2)
    expect(lines[0]).toMatch(/^store unreachable: PostgreSQL is not reachable/)
    expect(lines[1]).toMatch(/^store back after \d+ s$/)
    expect(counted).toHaveLength(10)
    // a later outage is said again
    up = false
    c.report('job_runner', null, new StoreUnavailableError('PostgreSQL is not reachable: again'))
    expect(lines).toHaveLength(3)
    up = true
    await waitFor('back again', async () => lines.length === 4)
  })
})
