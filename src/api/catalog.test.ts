import {describe, expect, it} from 'vitest'
import {METHOD_CODES, METHODS, methodAcceptsCurrency, methodInfo} from './catalog.js'
import {isCurrency} from './money.js'
import {SPEC_CODES} from './test-support/spec-methods.js'

describe('catalog', () => {
  it('holds exactly the 43 method codes of the spec', () => {
    expect(SPEC_CODES).toHaveLength(43)
    expect(METHODS.size).toBe(43)
    expect([...METHOD_CODES]).toEqual(SPEC_CODES)
    for (const code of SPEC_CODES) expect(methodInfo(code)?.code).toBe(code)
    expect(methodInfo('sofort')).toBeUndefined()
    expect(methodInfo('CARD')).toBeUndefined()
  })

  it('binds methods to exactly the currencies the spec shows', () => {
    const exact: Record<string, string[]> = {
      satispay: ['EUR'], mobilepay: ['DKK', 'EUR'], vipps: ['NOK'], twint: ['CHF'], cashapp: ['USD'], kakao_pay: ['KRW'], gopay: ['IDR'],
      bancontact: ['EUR'], p24: ['PLN'], eps: ['EUR'], fpx: ['MYR'],
      blik: ['PLN'], mb_way: ['EUR'], swish: ['SEK'], pix: ['BRL'], paynow: ['SGD'], promptpay: ['THB'],
      multibanco: ['EUR'], boleto: ['BRL'], oxxo: ['MXN'], konbini: ['JPY'],
      bacs_debit: ['GBP'], ach: ['USD'], acss_debit: ['CAD'], becs_debit: ['AUD', 'NZD'],
      sepa_credit: ['EUR'], spei: ['MXN'], mpesa: ['KES'],
      ideal: ['EUR'], upi: ['INR'], sepa_debit: ['EUR'],
    }
    for (const [code, currencies] of Object.entries(exact)) {
      expect([...methodInfo(code)!.currencies].sort(), code).toEqual([...currencies].sort())
    }
    expect(methodInfo('grabpay')!.currencies).toEqual(expect.arrayContaining(['SGD', 'MYR', 'PHP', 'THB']))
    expect(methodInfo('trustly')!.currencies).toEqual(expect.arrayContaining(['EUR', 'SEK', 'NOK', 'DKK', 'PLN', 'GBP']))
    expect(methodInfo('klarna')!.currencies).toEqual(expect.arrayContaining(['EUR', 'USD', 'GBP', 'SEK', 'NOK', 'DKK']))
    for (const code of ['card', 'apple_pay', 'google_pay', 'paypal', 'usdc']) {
      expect(methodInfo(code)!.currencies, code).toEqual(expect.arrayContaining(['EUR', 'USD', 'GBP', 'JPY', 'BRL', 'KWD', 'PLN', 'SEK']))
    }
    expect(methodAcceptsCurrency('pix', 'BRL')).toBe(true)
    expect(methodAcceptsCurrency('pix', 'EUR')).toBe(false)
    expect(methodAcceptsCurrency('nope', 'EUR')).toBe(false)
  })

  it('uses only valid uppercase ISO 4217 currencies, without duplicates', () => {
    for (const m of METHODS.values()) {
      expect(m.currencies.length, m.code).toBeGreaterThan(0)
      expect(new Set(m.currencies).size, m.code).toBe(m.currencies.length)
      for (const c of m.currencies) expect(isCurrency(c), `${m.code} ${c}`).toBe(true)
    }
  })

  it('marks card-family methods as risk-scored, and only cards take manual capture', () => {
    const cardFamily = [...METHODS.values()].filter((m) => m.cardFamily).map((m) => m.code)
    expect(cardFamily.sort()).toEqual(['apple_pay', 'card', 'google_pay'])
    for (const m of METHODS.values()) {
      expect(m.riskScored, m.code).toBe(m.cardFamily)
      expect(m.manualCapture, m.code).toBe(m.code === 'card')
      expect(m.incrementalAuth, m.code).toBe(m.code === 'card')
      expect(m.multiCapture, m.code).toBe(m.code === 'card')
    }
  })

  it('assigns flows per method', () => {
    const flow = (c: string) => methodInfo(c)!.flow
    expect(flow('card')).toBe('card')
    expect(flow('apple_pay')).toBe('wallet_sheet')
    expect(flow('google_pay')).toBe('wallet_sheet')
    for (const c of ['paypal', 'alipay', 'wechat_pay', 'satispay', 'mobilepay', 'vipps', 'twint', 'cashapp', 'kakao_pay', 'grabpay', 'gopay', 'mb_way', 'blik', 'swish', 'mpesa']) {
      expect(flow(c), c).toBe('app_approval')
    }
    for (const c of ['pix', 'upi', 'paynow', 'promptpay', 'usdc']) expect(flow(c), c).toBe('qr')
    for (const m of METHODS.values()) {
      if (m.family === 'bank_redirect') expect(m.flow, m.code).toBe('bank_login')
      if (m.family === 'voucher') expect(m.flow, m.code).toBe('voucher')
      if (m.family === 'bnpl') expect(m.flow, m.code).toBe('bnpl_approval')
      if (m.family === 'direct_debit') expect(m.flow, m.code).toBe('none')
      if (m.family === 'bank_transfer') expect(m.flow, m.code).toBe('transfer_instructions')
    }
  })

  it('has family counts matching the spec table', () => {
    const counts: Record<string, number> = {}
    for (const m of METHODS.values()) counts[m.family] = (counts[m.family] ?? 0) + 1
    expect(counts).toEqual({card: 1, wallet: 13, crypto: 1, bank_redirect: 6, real_time: 7, voucher: 4, bnpl: 3, direct_debit: 5, bank_transfer: 2, mobile_money: 1})
  })

  it('makes BNPL chargeback-free and vouchers full-refund only', () => {
    for (const m of METHODS.values()) {
      expect(m.chargebackFree, m.code).toBe(m.family === 'bnpl')
      expect(m.partialRefund, m.code).toBe(!['boleto', 'oxxo', 'konbini', 'multibanco'].includes(m.code))
    }
  })

  it('gives timings to direct debits, vouchers, bank transfers and Multibanco', () => {
    const day = 86_400
    expect(methodInfo('sepa_debit')!.clearingSeconds).toBe(2 * day)
    expect(methodInfo('bacs_debit')!.clearingSeconds).toBe(3 * day)
    expect(methodInfo('ach')!.clearingSeconds).toBe(2 * day)
    expect(methodInfo('acss_debit')!.clearingSeconds).toBe(3 * day)
    expect(methodInfo('becs_debit')!.clearingSeconds).toBe(2 * day)
    expect(methodInfo('boleto')!.unpaidExpirySeconds).toBe(3 * day)
    expect(methodInfo('oxxo')!.unpaidExpirySeconds).toBe(3 * day)
    expect(methodInfo('konbini')!.unpaidExpirySeconds).toBe(4 * day)
    expect(methodInfo('multibanco')!.unpaidExpirySeconds).toBe(7 * day)
    expect(methodInfo('sepa_credit')!.unpaidExpirySeconds).toBe(7 * day)
    expect(methodInfo('spei')!.unpaidExpirySeconds).toBe(3 * day)
    expect(methodInfo('multibanco')!.confirmDelaySeconds).toBe(day)
    expect(methodInfo('multibanco')!.confirmDelaySeconds!).toBeLessThanOrEqual(2 * day)
    for (const m of METHODS.values()) {
      expect(m.clearingSeconds !== undefined, m.code).toBe(m.family === 'direct_debit')
      expect(m.unpaidExpirySeconds !== undefined, m.code).toBe(m.family === 'voucher' || m.family === 'bank_transfer')
      if (m.code !== 'multibanco') expect(m.confirmDelaySeconds ?? 0, m.code).toBe(0)
    }
  })

  it('has a human name for each method and is immutable', () => {
    expect(methodInfo('ideal')!.name).toBe('iDEAL')
    for (const m of METHODS.values()) expect(m.name.length, m.code).toBeGreaterThan(1)
    expect(Object.isFrozen(methodInfo('card'))).toBe(true)
    expect(Object.isFrozen(methodInfo('card')!.currencies)).toBe(true)
  })
})
