import {describe, expect, it} from 'vitest'
import {usage} from '../../../base/test-support/usage.js'
import {normalizePath, parseDataPairs} from './raw.js'

describe('gw api -d pairs', () => {
  it('types values and nests keys', () => {
    expect(parseDataPairs(['amount=2000', 'currency=EUR', 'confirm=false', 'card[number]=4242424242424242', 'card.exp_month=12', 'card[cvc]=123', 'x=null'])).toEqual({
      amount: 2000,
      currency: 'EUR',
      confirm: false,
      card: {number: '4242424242424242', exp_month: 12, cvc: '123'},
      x: null,
    })
  })
  it('keeps string fields and metadata values as strings even when they are digits', () => {
    expect(parseDataPairs(['reference=1234', 'metadata[order]=42', 'billing_details[address][postal_code]=10115'])).toEqual({
      reference: '1234',
      metadata: {order: '42'},
      billing_details: {address: {postal_code: '10115'}},
    })
  })
  it('takes raw JSON after :=', () => {
    expect(parseDataPairs(['reference:="123"', 'metadata:={"a":"b"}'])).toEqual({reference: '123', metadata: {a: 'b'}})
    expect(usage(() => parseDataPairs(['m:={bad'])).message).toContain('not JSON')
  })
  it('rejects a pair without =', () => {
    expect(usage(() => parseDataPairs(['amount'])).message).toContain('-d "amount" is not key=value')
  })
  it('normalizes paths', () => {
    expect(normalizePath('payments')).toBe('/payments')
    expect(normalizePath('/v1/payments/pay_1')).toBe('/payments/pay_1')
    expect(normalizePath('/payments?limit=1')).toBe('/payments?limit=1')
    usage(() => normalizePath('https://evil.example/v1/payments'))
  })
})
