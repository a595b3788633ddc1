import {describe, expect, it} from 'vitest'
import {colorEnabled, painter, paintStatus} from './color.js'
import {formatDuration} from './detail.js'

describe('colour', () => {
  it('is on for a TTY only, and never with NO_COLOR or TERM=dumb', () => {
    expect(colorEnabled({isTTY: true}, {})).toBe(true)
    expect(colorEnabled({isTTY: false}, {})).toBe(false)
    expect(colorEnabled({}, {})).toBe(false)
    expect(colorEnabled({isTTY: true}, {NO_COLOR: '1'})).toBe(false)
    expect(colorEnabled({isTTY: true}, {TERM: 'dumb'})).toBe(false)
  })

  it('paints statuses only when enabled', () => {
    expect(paintStatus(painter(false), 'succeeded')).toBe('succeeded')
    expect(paintStatus(painter(true), 'succeeded')).toBe('\u001B[32msucceeded\u001B[39m')
    expect(paintStatus(painter(true), 'failed')).toContain('\u001B[31m')
  })
})

describe('detail view', () => {
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0s')
    expect(formatDuration(604800)).toBe('7d')
    expect(formatDuration(90061)).toBe('1d 1h 1m 1s')
  })
})
