import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {propertyRuns} from '../test-support/property-runs.js'
import {iso} from './time.js'

describe('iso', () => {
  it('writes any instant exactly as Date#toISOString does', () => {
    fc.assert(
      fc.property(fc.date({noInvalidDate: true}), (d) => {
        expect(iso(d)).toBe(d.toISOString())
      }),
      {numRuns: propertyRuns(5000)},
    )
    // the range it formats itself, densely
    fc.assert(
      fc.property(fc.integer({min: 0, max: 253_402_300_799_999}), (t) => {
        expect(iso(new Date(t))).toBe(new Date(t).toISOString())
      }),
      {numRuns: propertyRuns(20_000)},
    )
  })

  it('gets the edges right: leap days, centuries, the first and last four-digit instants', () => {
    for (const s of ['1970-01-01T00:00:00.000Z', '2000-02-29T23:59:59.999Z', '2000-03-01T00:00:00.000Z', '2100-02-28T12:00:00.001Z', '2100-03-01T00:00:00.000Z', '2024-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z', '1969-12-31T23:59:59.999Z', '+010000-01-01T00:00:00.000Z']) {
      const d = new Date(s)
      expect(iso(d)).toBe(s)
      // and again (the kept last value)
      expect(iso(new Date(d.getTime()))).toBe(s)
    }
  })

  it('throws on an invalid date, as the builtin does', () => {
    expect(() => iso(new Date(NaN))).toThrow(RangeError)
  })
})
