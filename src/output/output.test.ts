import {describe, expect, it} from 'vitest'
import {payment} from '../base/test-support/cli.js'
import {colorEnabled, painter, paintStatus} from './color.js'
import {formatDuration, renderPayment} from './detail.js'
import {displayExponent, EN_US_PREFIX, formatMoney, minorToDecimal, parseDisplayAmount} from './money.js'
import {paymentColumns, renderTable} from './table.js'

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
  it('shows a payment with formatted money, card and attempts', () => {
    const text = renderPayment(payment(), painter(false))
    expect(text.split('\n')[0]).toBe('pay_123  succeeded')
    expect(text).toMatch(/Amount\s+€20\.00 EUR/)
    expect(text).toMatch(/Method\s+card · visa •••• 4242 exp 12\/2030 \(credit, US\)/)
    expect(text).toMatch(/Attempts\s+prov_a approved 12ms/)
    expect(text).not.toMatch(/Next action/)
    expect(text).not.toContain('\u001B[')
  })

  it('shows next_action and failures', () => {
    const text = renderPayment(
      payment({status: 'requires_action', next_action: {type: 'redirect', url: 'https://x/checkout/1'}, failure_code: null}),
      painter(false),
    )
    expect(text).toMatch(/Next action\s+redirect https:\/\/x\/checkout\/1/)
    const failed = renderPayment(payment({status: 'failed', failure_code: 'payment_blocked', failure_message: 'Blocked by risk screening'}), painter(false))
    expect(failed).toMatch(/Failure\s+payment_blocked: Blocked by risk screening/)
  })

  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0s')
    expect(formatDuration(604800)).toBe('7d')
    expect(formatDuration(90061)).toBe('1d 1h 1m 1s')
  })
})

describe('tables', () => {
  it('draws a cli-table3 table with one row per object', async () => {
    const text = await renderTable([payment(), payment({id: 'pay_456', status: 'failed', amount: 150, currency: 'JPY'})], paymentColumns, painter(false))
    expect(text).toContain('ID')
    expect(text).toContain('pay_123')
    expect(text).toContain('€20.00 EUR')
    expect(text).toContain('¥150 JPY')
    expect(text).not.toContain('\u001B[')
    expect(text.split('\n').filter((l) => l.includes('pay_'))).toHaveLength(2)
  })
})
