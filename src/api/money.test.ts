import {describe, expect, it} from 'vitest'
import {currencyExponent, fromHundredths, isCurrency} from './money.js'

describe('currencyExponent', () => {
  it('returns the ISO 4217 minor-unit exponent', () => {
    expect(currencyExponent('EUR')).toBe(2)
    expect(currencyExponent('BRL')).toBe(2)
    expect(currencyExponent('USD')).toBe(2)
    expect(currencyExponent('JPY')).toBe(0)
    expect(currencyExponent('CLP')).toBe(0)
    expect(currencyExponent('KRW')).toBe(0)
    expect(currencyExponent('KWD')).toBe(3)
    expect(currencyExponent('BHD')).toBe(3)
  })

  it('is undefined for unknown, lowercase or malformed codes', () => {
    expect(currencyExponent('ABC')).toBeUndefined()
    expect(currencyExponent('eur')).toBeUndefined()
    expect(currencyExponent('Eur')).toBeUndefined()
    expect(currencyExponent('EURO')).toBeUndefined()
    expect(currencyExponent('')).toBeUndefined()
    expect(currencyExponent(' EUR')).toBeUndefined()
  })

  it('returns the same answer from the cache', () => {
    for (let i = 0; i < 3; i++) {
      expect(currencyExponent('JPY')).toBe(0)
      expect(currencyExponent('QQQ')).toBeUndefined()
    }
  })
})

describe('isCurrency', () => {
  it('accepts circulating currencies', () => {
    for (const c of ['EUR', 'USD', 'GBP', 'JPY', 'BRL', 'KWD', 'PLN', 'SEK', 'CHF', 'INR', 'KES', 'MXN']) {
      expect(isCurrency(c), c).toBe(true)
    }
  })

  it('rejects metals, test, fund and no-currency codes', () => {
    for (const c of ['XAU', 'XAG', 'XPT', 'XPD', 'XTS', 'XXX', 'XDR', 'XBA', 'CLF', 'USN', 'BOV', 'CHE', 'MXV']) {
      expect(isCurrency(c), c).toBe(false)
    }
  })

  it('rejects lowercase and unknown codes', () => {
    expect(isCurrency('eur')).toBe(false)
    expect(isCurrency('ZZZ')).toBe(false)
    expect(isCurrency('EU')).toBe(false)
  })
})

describe('fromHundredths', () => {
  it('scales cents-equivalents by the exponent, rounding half up', () => {
    expect(fromHundredths(30, 'EUR')).toBe(30)
    expect(fromHundredths(30, 'KWD')).toBe(300)
    expect(fromHundredths(30, 'JPY')).toBe(0)
    expect(fromHundredths(50, 'JPY')).toBe(1)
    expect(fromHundredths(3000, 'JPY')).toBe(30)
    expect(fromHundredths(25, 'ZZZ')).toBe(25)
  })
})
