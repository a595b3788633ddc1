// The engine clock's stored settings (docs/decisions.md#clock-jumps-are-bounded): the rules a snapshot load checks them by, and
// the sane values a clock reading falls back to when the store holds anything else.
import {describe, expect, it} from 'vitest'
import {CLOCK_FROZEN_SETTING, CLOCK_OFFSET_SETTING, clockSettingProblem, clockStateOf, MAX_ENGINE_TIME_MS} from './clock.js'

describe('clock settings', () => {
  it('takes what the API writes: an offset of 0 or more whole milliseconds, a frozen instant or empty', () => {
    for (const [k, v] of [
      [CLOCK_OFFSET_SETTING, '0'],
      [CLOCK_OFFSET_SETTING, '172800000'],
      [CLOCK_FROZEN_SETTING, ''],
      [CLOCK_FROZEN_SETTING, String(Date.parse('2030-01-01T00:00:00Z'))],
    ] as const)
      expect(clockSettingProblem(k, v)).toBeUndefined()
  })

  it('refuses what would break the clock: no number, negative, fractional, out of the clock range', () => {
    for (const [k, v] of [
      [CLOCK_OFFSET_SETTING, 'abc'],
      [CLOCK_OFFSET_SETTING, '-1'],
      [CLOCK_OFFSET_SETTING, '1.5'],
      [CLOCK_OFFSET_SETTING, ''],
      [CLOCK_OFFSET_SETTING, String(MAX_ENGINE_TIME_MS)],
      [CLOCK_FROZEN_SETTING, 'abc'],
      [CLOCK_FROZEN_SETTING, '5'],
      [CLOCK_FROZEN_SETTING, '99999999999999999'],
      [CLOCK_FROZEN_SETTING, '1e15'],
    ] as const)
      expect(clockSettingProblem(k, v), `${k}=${v}`).toBeDefined()
  })

  it('falls back to real time and a ticking clock for values it refuses, saying which', () => {
    const bad: string[] = []
    const s = clockStateOf({[CLOCK_OFFSET_SETTING]: '-5', [CLOCK_FROZEN_SETTING]: 'abc'}, (key) => bad.push(key))
    expect(s).toEqual({offsetMs: 0, frozenAtMs: undefined})
    expect(bad).toEqual([CLOCK_OFFSET_SETTING, CLOCK_FROZEN_SETTING])
    expect(clockStateOf({[CLOCK_OFFSET_SETTING]: '1000', [CLOCK_FROZEN_SETTING]: '1893456000000'})).toEqual({offsetMs: 1000, frozenAtMs: 1893456000000})
  })
})
