import {describe, expect, it} from 'vitest'
import {assessRisk, RISK_BLOCK_THRESHOLD, RISK_REVIEW_THRESHOLD, riskDecision, type RiskInput} from './risk.js'

const base: RiskInput = {amount: 2000, currency: 'EUR', payment_method: 'card', cvc: 'provided', cvvFail: false}

describe('assessRisk', () => {
  it('approves an ordinary card payment with a low score', () => {
    const r = assessRisk(base)
    expect(r.decision).toBe('approved')
    expect(r.score).toBeLessThan(30)
    expect(r.checks).toEqual({avs_result: 'unavailable', cvv_result: 'pass'})
  })

  it('is deterministic', () => {
    expect(assessRisk({...base, billingPostalCode: '1011AB'})).toEqual(assessRisk({...base, billingPostalCode: '1011AB'}))
  })

  it('exports thresholds: < 65 approved, 65-84 review, >= 85 blocked', () => {
    expect(RISK_REVIEW_THRESHOLD).toBe(65)
    expect(RISK_BLOCK_THRESHOLD).toBe(85)
    expect(riskDecision(0)).toBe('approved')
    expect(riskDecision(64)).toBe('approved')
    expect(riskDecision(65)).toBe('review')
    expect(riskDecision(84)).toBe('review')
    expect(riskDecision(85)).toBe('blocked')
    expect(riskDecision(99)).toBe('blocked')
  })

  it('holds amount 4991 for review and blocks 4992, whatever else', () => {
    for (const extra of [{}, {cvvFail: true, billingPostalCode: '00000', billingCountry: 'FR', cardCountry: 'US'}, {cvc: 'cryptogram' as const}]) {
      const review = assessRisk({...base, ...extra, amount: 4991})
      expect(review.decision).toBe('review')
      expect(review.score).toBeGreaterThanOrEqual(65)
      expect(review.score).toBeLessThan(85)
      const blocked = assessRisk({...base, ...extra, amount: 4992})
      expect(blocked.decision).toBe('blocked')
      expect(blocked.score).toBeGreaterThanOrEqual(85)
      expect(blocked.score).toBeLessThanOrEqual(99)
    }
    expect(assessRisk({...base, amount: 4991, currency: 'JPY'}).decision).toBe('review')
    expect(assessRisk({...base, amount: 4990}).decision).toBe('approved')
    expect(assessRisk({...base, amount: 4993}).decision).toBe('approved')
  })

  it('reports CVV pass / fail / unavailable', () => {
    expect(assessRisk(base).checks.cvv_result).toBe('pass')
    expect(assessRisk({...base, cvc: 'missing'}).checks.cvv_result).toBe('unavailable')
    expect(assessRisk({...base, cvc: 'cryptogram'}).checks.cvv_result).toBe('unavailable')
    expect(assessRisk({...base, cvc: 'cryptogram', cvvFail: true}).checks.cvv_result).toBe('unavailable')
    expect(assessRisk({...base, cvvFail: true}).checks.cvv_result).toBe('fail')
    expect(assessRisk({...base, cvc: 'missing', cvvFail: true}).checks.cvv_result).toBe('fail')
  })

  it('raises the score by 30 on CVV fail but still approves a normal amount', () => {
    const ok = assessRisk(base)
    const fail = assessRisk({...base, cvvFail: true})
    expect(fail.score - ok.score).toBe(30)
    expect(fail.decision).toBe('approved')
  })

  it('reports AVS: no postal code unavailable, 00000 fail (+20), else pass', () => {
    expect(assessRisk({...base, billingPostalCode: null}).checks.avs_result).toBe('unavailable')
    expect(assessRisk({...base, billingPostalCode: '  '}).checks.avs_result).toBe('unavailable')
    expect(assessRisk({...base, billingPostalCode: '94107'}).checks.avs_result).toBe('pass')
    const fail = assessRisk({...base, billingPostalCode: '00000'})
    expect(fail.checks.avs_result).toBe('fail')
    expect(fail.score - assessRisk({...base, billingPostalCode: '94107'}).score).toBe(20)
    expect(fail.decision).toBe('approved')
  })

  it('can tip to review when several checks fail on a larger amount', () => {
    const r = assessRisk({...base, amount: 500_000, cvvFail: true, billingPostalCode: '00000', billingCountry: 'NG', cardCountry: 'US'})
    expect(r.decision).not.toBe('approved')
  })

  it('adds a little when the billing country differs from the card country', () => {
    const same = assessRisk({...base, billingCountry: 'US', cardCountry: 'us'})
    const diff = assessRisk({...base, billingCountry: 'FR', cardCountry: 'US'})
    expect(diff.score).toBeGreaterThan(same.score)
    expect(diff.score - same.score).toBeLessThanOrEqual(15)
    expect(assessRisk({...base, billingCountry: 'FR'}).score).toBe(assessRisk(base).score)
  })

  it('penalises a missing CVC slightly but not a cryptogram', () => {
    expect(assessRisk({...base, cvc: 'missing'}).score).toBeGreaterThan(assessRisk(base).score)
    expect(assessRisk({...base, cvc: 'cryptogram'}).score).toBe(assessRisk(base).score)
  })

  it('grows slowly with the amount on a log scale, normalised by exponent', () => {
    const s = (amount: number, currency = 'EUR') => assessRisk({...base, amount, currency}).score
    expect(s(100)).toBeLessThanOrEqual(s(10_000))
    expect(s(10_000)).toBeLessThanOrEqual(s(1_000_000))
    expect(s(1_000_000)).toBeLessThan(30)
    expect(s(100_000_000)).toBeLessThan(RISK_REVIEW_THRESHOLD)
    expect(s(1_000_000_000_000)).toBeLessThan(RISK_REVIEW_THRESHOLD)
    expect(s(2000, 'JPY')).toBe(s(200_000, 'EUR'))
    expect(s(0)).toBe(0)
    for (const amount of [1, 99, 12345, 10 ** 9]) {
      const r = assessRisk({...base, amount, cvvFail: true, billingPostalCode: '00000', billingCountry: 'FR', cardCountry: 'US', cvc: 'missing'})
      expect(Number.isInteger(r.score)).toBe(true)
      expect(r.score).toBeGreaterThanOrEqual(0)
      expect(r.score).toBeLessThanOrEqual(99)
    }
  })
})
