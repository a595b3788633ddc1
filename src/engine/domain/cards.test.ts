import {describe, expect, it} from 'vitest'
import {expiryProblem, parseCardNumber, TEST_CARD_ISSUERS, TEST_CARDS, type CardInfo} from './cards.js'

function card(raw: string): CardInfo {
  const r = parseCardNumber(raw)
  if (!r.ok) throw new Error(`expected ${raw} to parse: ${r.message}`)
  return r.card
}

function problem(raw: string): string {
  const r = parseCardNumber(raw)
  if (r.ok) throw new Error(`expected ${raw} to be rejected`)
  return r.message
}

describe('parseCardNumber', () => {
  it('maps the spec and decisions test cards to their behaviour', () => {
    expect(card('4242 4242 4242 4242').test).toEqual({kind: 'succeed'})
    expect(card('4000 0000 0000 3220').test).toEqual({kind: 'challenge'})
    expect(card('4000 0000 0000 0002').test).toEqual({kind: 'decline', code: 'card_declined'})
    expect(card('4000 0000 0000 9995').test).toEqual({kind: 'decline', code: 'insufficient_funds'})
    expect(card('5555 5555 5555 4444').test).toEqual({kind: 'succeed'})
    expect(card('3782 822463 10005').test).toEqual({kind: 'succeed'})
    expect(card('4000 0000 0000 0259').test).toEqual({kind: 'dispute', reason: 'fraudulent'})
    expect(card('4000 0000 0000 0069').test).toEqual({kind: 'decline', code: 'expired_card'})
    expect(card('4000 0000 0000 0127').test).toEqual({kind: 'decline', code: 'incorrect_cvc'})
    expect(card('4000 0000 0000 0101').test).toEqual({kind: 'cvv_fail'})
    expect(card('4000 0000 0000 5126').test).toEqual({kind: 'refund_fails'})
  })

  it('treats every other Luhn-valid number as succeeding', () => {
    expect(card('6011111111111117').test).toEqual({kind: 'succeed'})
    expect(card('4000056655665556').test).toEqual({kind: 'succeed'})
    expect(card('1234567812345670')).toMatchObject({brand: 'unknown', test: {kind: 'succeed'}})
  })

  it('all named test cards are Luhn-valid', () => {
    for (const n of [...TEST_CARDS.keys(), ...TEST_CARD_ISSUERS.keys()]) expect(parseCardNumber(n).ok, n).toBe(true)
  })

  it('detects the brand and derives last4, funding, country and capabilities', () => {
    expect(card('4242-4242-4242-4242')).toEqual({
      number: '4242424242424242',
      brand: 'visa',
      last4: '4242',
      funding: 'credit',
      country: 'US',
      networkToken: true,
      incrementalAuth: true,
      multiCapture: true,
      test: {kind: 'succeed'},
    })
    expect(card('5555555555554444')).toMatchObject({brand: 'mastercard', last4: '4444', networkToken: true, incrementalAuth: true, multiCapture: true})
    expect(card('378282246310005')).toMatchObject({brand: 'amex', last4: '0005', networkToken: true, incrementalAuth: false, multiCapture: false})
    expect(card('6011111111111117')).toMatchObject({brand: 'discover', networkToken: false, incrementalAuth: false, multiCapture: false})
    expect(card('3566002020360505').brand).toBe('jcb')
    expect(card('3056930009020004').brand).toBe('diners')
  })

  it('is deterministic about funding and country variations', () => {
    expect(card('4000056655665556')).toMatchObject({funding: 'debit', country: 'US'})
    expect(card('5105105105105100')).toMatchObject({funding: 'prepaid'})
    expect(card('4000000760000002')).toMatchObject({country: 'BR'})
    expect(card('4000008260000000')).toMatchObject({country: 'GB', funding: 'debit'})
    expect(card('4000002760000016').country).toBe('DE')
  })

  it('rejects non-digits with a clear message', () => {
    expect(problem('4242 4242 4242 424x')).toMatch(/only digits/)
    expect(problem('4242.4242.4242.4242')).toMatch(/only digits/)
    expect(problem('')).toMatch(/missing/)
    expect(problem('   ')).toMatch(/missing/)
  })

  it('rejects wrong lengths', () => {
    expect(problem('4242 4242 4242')).toMatch(/12 digits; a Visa number has 16, 18 or 19 digits/)
    expect(problem('37828224631000')).toMatch(/American Express number has 15 digits/)
    expect(problem('1234')).toMatch(/4 digits; card numbers have 12 to 19 digits/)
    expect(problem('12345678901234567890')).toMatch(/20 digits/)
  })

  it('rejects numbers that fail the Luhn check', () => {
    expect(problem('4242424242424241')).toMatch(/Luhn/)
    expect(problem('5555555555554445')).toMatch(/Luhn/)
  })
})

describe('expiryProblem', () => {
  const now = new Date('2026-05-15T12:00:00Z')

  it('accepts current and future expiries', () => {
    expect(expiryProblem(5, 2026, now)).toBeNull()
    expect(expiryProblem(6, 2026, now)).toBeNull()
    expect(expiryProblem(1, 2027, now)).toBeNull()
    expect(expiryProblem(12, 2034, now)).toBeNull()
  })

  it('rejects expired cards, naming the field', () => {
    expect(expiryProblem(4, 2026, now)).toMatch(/^exp_month .*expired/)
    expect(expiryProblem(12, 2025, now)).toMatch(/^exp_year .*expired/)
  })

  it('uses UTC for the current month', () => {
    const edge = new Date('2026-06-01T00:30:00Z') // still May in New York, June in UTC
    expect(expiryProblem(5, 2026, edge)).toMatch(/expired/)
  })

  it('requires integer month 1-12 and four-digit year', () => {
    expect(expiryProblem(undefined, 2030, now)).toMatch(/^exp_month is required/)
    expect(expiryProblem(null, 2030, now)).toMatch(/^exp_month is required/)
    expect(expiryProblem('12', 2030, now)).toMatch(/^exp_month must be an integer/)
    expect(expiryProblem(1.5, 2030, now)).toMatch(/^exp_month must be an integer/)
    expect(expiryProblem(0, 2030, now)).toMatch(/^exp_month must be from 1 to 12/)
    expect(expiryProblem(13, 2030, now)).toMatch(/^exp_month must be from 1 to 12/)
    expect(expiryProblem(12, undefined, now)).toMatch(/^exp_year is required/)
    expect(expiryProblem(12, '2030', now)).toMatch(/^exp_year must be a four-digit/)
    expect(expiryProblem(12, 30, now)).toMatch(/^exp_year must be a four-digit year/)
    expect(expiryProblem(12, 2100, now)).toMatch(/^exp_year .*too far/)
  })
})
