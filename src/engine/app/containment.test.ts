// Failures contained to an account (issue 33): counted every time, logged once per account and
// place while they last (again after the repeat interval, with how many were left out).
import {describe, expect, it} from 'vitest'
import {Containment} from './containment.js'

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
