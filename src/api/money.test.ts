import {describe, expect, it} from 'vitest'
import {currencyExponent, displayExponent, EN_US_PREFIX, formatMoney, fromHundredths, isCurrency, minorToDecimal, parseDisplayAmount} from './money.js'

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

describe('money', () => {
  it('uses the ISO 4217 exponent of the currency', () => {
    expect(displayExponent('EUR')).toBe(2)
    expect(displayExponent('JPY')).toBe(0)
    expect(displayExponent('KWD')).toBe(3)
    expect(displayExponent('BRL')).toBe(2)
  })

  it('formats minor units with symbol and code', () => {
    expect(formatMoney(2000, 'EUR')).toBe('€20.00 EUR')
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500 JPY')
    expect(formatMoney(1500, 'KWD')).toBe('1.500 KWD')
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56 USD')
    expect(formatMoney(5, 'EUR')).toBe('€0.05 EUR')
    expect(formatMoney(-250, 'EUR')).toBe('-€2.50 EUR')
    expect(formatMoney(1000, 'CHF')).toBe('10.00 CHF')
  })

  it('formats the common currencies by hand exactly as Intl en-US narrow symbols would', () => {
    const viaIntl = (amount: number, code: string) => {
      const exp = displayExponent(code)
      const value = Number(minorToDecimal(amount, exp))
      const digits = {minimumFractionDigits: exp, maximumFractionDigits: exp}
      const fmt = new Intl.NumberFormat('en-US', {style: 'currency', currency: code, currencyDisplay: 'narrowSymbol', ...digits})
      const symbol = fmt.formatToParts(value).find((p) => p.type === 'currency')?.value
      if (!symbol || symbol === code) return `${new Intl.NumberFormat('en-US', digits).format(value)} ${code}`
      return `${fmt.format(value).replace(/\u00a0/g, ' ')} ${code}`
    }
    const amounts = [0, 1, 5, 99, 100, -250, 1000, 123456, -1234567, 100000000, 98765432109]
    expect(Object.keys(EN_US_PREFIX).length).toBeGreaterThan(30)
    for (const code of Object.keys(EN_US_PREFIX)) {
      for (const amount of amounts) expect(`${code} ${amount}: ${formatMoney(amount, code)}`).toBe(`${code} ${amount}: ${viaIntl(amount, code)}`)
    }
    // other currencies still go through Intl
    expect(formatMoney(1234, 'ISK')).toBe(viaIntl(1234, 'ISK'))
  })

  it('converts exactly, without floating point', () => {
    expect(minorToDecimal(1, 2)).toBe('0.01')
    expect(minorToDecimal(900719925474099, 2)).toBe('9007199254740.99')
    expect(minorToDecimal(7, 0)).toBe('7')
  })

  it('parses a display amount into minor units', () => {
    expect(parseDisplayAmount('20.00', 'EUR')).toBe(2000)
    expect(parseDisplayAmount('20', 'EUR')).toBe(2000)
    expect(parseDisplayAmount('0.1', 'EUR')).toBe(10)
    expect(parseDisplayAmount('19.99', 'eur')).toBe(1999)
    expect(parseDisplayAmount('500', 'JPY')).toBe(500)
    expect(parseDisplayAmount('1.234', 'KWD')).toBe(1234)
    expect(parseDisplayAmount('20.000', 'EUR')).toBe(2000)
  })

  it('rejects amounts the currency cannot express, saying why', () => {
    expect(() => parseDisplayAmount('20.001', 'EUR')).toThrow(/EUR has 2 decimal places/)
    expect(() => parseDisplayAmount('5.5', 'JPY')).toThrow(/JPY has no minor unit/)
    expect(() => parseDisplayAmount('1,000.00', 'EUR')).toThrow(/not a decimal amount/)
    expect(() => parseDisplayAmount('€20', 'EUR')).toThrow(/not a decimal amount/)
  })
})
