import {describe, expect, it} from 'vitest'
import {usage} from '../../../base/test-support/usage.js'
import {generateReference, parseCardNumber, parseExpiry} from './input.js'

describe('flag values', () => {
  it('expiry dates', () => {
    expect(parseExpiry('12/27')).toEqual({exp_month: 12, exp_year: 2027})
    expect(parseExpiry('3/2031')).toEqual({exp_month: 3, exp_year: 2031})
    expect(parseExpiry('2030-08')).toEqual({exp_month: 8, exp_year: 2030})
    expect(usage(() => parseExpiry('13/27')).message).toContain('month')
    expect(usage(() => parseExpiry('tomorrow')).hint).toContain('MM/YY')
  })

  it('card numbers keep digits only', () => {
    expect(parseCardNumber('4242 4242 4242 4242')).toBe('4242424242424242')
    expect(parseCardNumber('4000-0000-0000-3220')).toBe('4000000000003220')
    expect(usage(() => parseCardNumber('4242')).message).toContain('--card')
  })

  it('generated references are unique and dated', () => {
    const a = generateReference(new Date('2025-03-04T00:00:00Z'))
    expect(a).toMatch(/^gw_20250304_[0-9a-f]{10}$/)
    expect(generateReference()).not.toBe(generateReference())
  })
})
