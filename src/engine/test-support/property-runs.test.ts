import {describe, expect, it} from 'vitest'
import {propertyRuns} from './property-runs.js'

describe('propertyRuns: how many cases a property test runs', () => {
  it('the full count by default; GW_PROPERTY_SCALE a fraction of it, never under 20 (or the full count if smaller)', () => {
    expect(propertyRuns(250, {})).toBe(250)
    expect(propertyRuns(250, {GW_PROPERTY_SCALE: '0.2'})).toBe(50)
    expect(propertyRuns(40, {GW_PROPERTY_SCALE: '0.2'})).toBe(20)
    expect(propertyRuns(10, {GW_PROPERTY_SCALE: '0.2'})).toBe(10)
    expect(propertyRuns(250, {GW_PROPERTY_SCALE: '1'})).toBe(250)
  })

  it('GW_PROPERTY_RUNS sets the count outright, on either store', () => {
    expect(propertyRuns(250, {GW_PROPERTY_RUNS: '7'})).toBe(7)
    expect(propertyRuns(250, {GW_PROPERTY_RUNS: '7', GW_PROPERTY_SCALE: '0.2'})).toBe(7)
  })

  it('a value that is not a count or a fraction is refused, naming the variable and an example', () => {
    expect(() => propertyRuns(250, {GW_PROPERTY_RUNS: 'ten'})).toThrow(/GW_PROPERTY_RUNS=ten: a positive whole number is expected, e\.g\. 50/)
    expect(() => propertyRuns(250, {GW_PROPERTY_RUNS: '2.5'})).toThrow(/GW_PROPERTY_RUNS=2\.5/)
    expect(() => propertyRuns(250, {GW_PROPERTY_SCALE: '0'})).toThrow(/GW_PROPERTY_SCALE=0: a positive number is expected, e\.g\. 0\.2/)
    expect(() => propertyRuns(250, {GW_PROPERTY_SCALE: '5'})).toThrow(/GW_PROPERTY_SCALE=5: a fraction of the full count/)
  })
})
