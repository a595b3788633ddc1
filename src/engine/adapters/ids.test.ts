import {describe, expect, it} from 'vitest'
import {RandomIds} from './ids.js'

describe('RandomIds', () => {
  it('makes prefix_ + 24 base62 characters, unique', () => {
    const ids = new RandomIds()
    const seen = new Set<string>()
    for (let i = 0; i < 10_000; i++) {
      const id = ids.next('pay')
      expect(id).toMatch(/^pay_[0-9A-Za-z]{24}$/)
      seen.add(id)
    }
    expect(seen.size).toBe(10_000)
  })

  it('sorts by creation time (byte order, as SQLite compares text), with a random tail', () => {
    const ids = new RandomIds()
    const times = [0, 1, 61, 62, 3843, Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-01-01T00:00:00.001Z'), Date.parse('2099-12-31T23:59:59.999Z')]
    const made = times.map((t) => ids.next('evt', t))
    expect([...made].sort()).toEqual(made)
    const sameMs = [ids.next('evt', 5), ids.next('evt', 5)]
    expect(sameMs[0]!.slice(0, 12)).toBe(sameMs[1]!.slice(0, 12))
    expect(sameMs[0]!.slice(12)).not.toBe(sameMs[1]!.slice(12))
  })
})
