import {describe, expect, it} from 'vitest'
import {BACKOFF_CAP_MS, backoffDelay, retryAfterDelay} from './retry.js'
import {parseRetryAfter} from './http.js'

describe('backoffDelay', () => {
  it('doubles per attempt, with jitter between half and the full step', () => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const step = 500 * 2 ** attempt
      expect(backoffDelay(attempt, () => 0)).toBe(step / 2)
      expect(backoffDelay(attempt, () => 0.999999)).toBeLessThanOrEqual(step)
    }
  })

  it('is capped', () => {
    expect(backoffDelay(30, () => 1)).toBe(BACKOFF_CAP_MS)
  })

  it('jitters: different random draws give different delays', () => {
    const values = new Set(Array.from({length: 20}, () => backoffDelay(2)))
    expect(values.size).toBeGreaterThan(1)
  })
})

describe('Retry-After', () => {
  it('never waits less than the server asked', () => {
    expect(retryAfterDelay(3, () => 0)).toBe(3000)
    expect(retryAfterDelay(3, () => 1)).toBeLessThanOrEqual(3300)
  })

  it('parses seconds and HTTP dates', () => {
    expect(parseRetryAfter('7')).toBe(7)
    expect(parseRetryAfter(null)).toBeUndefined()
    expect(parseRetryAfter('soon')).toBeUndefined()
    const inTen = new Date(Date.now() + 10_000).toUTCString()
    expect(parseRetryAfter(inTen)).toBeGreaterThanOrEqual(9)
  })
})
