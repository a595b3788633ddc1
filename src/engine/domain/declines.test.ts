import {describe, expect, it} from 'vitest'
import {ATTEMPT_OUTCOMES, DECLINES, declineKind, declineMessage, failsOver} from './declines.js'

const SOFT = ['processing_error', 'issuer_unavailable', 'try_again_later', 'provider_unavailable', 'reenter_transaction']
const FINAL = ['card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'do_not_honor', 'lost_card', 'stolen_card', 'fraudulent', 'invalid_account', 'authentication_required', 'payment_blocked']

describe('declines', () => {
  it('classifies soft declines', () => {
    for (const c of SOFT) expect(declineKind(c), c).toBe('soft')
  })

  it('classifies final declines', () => {
    for (const c of FINAL) expect(declineKind(c), c).toBe('final')
  })

  it('treats unknown codes as final', () => {
    expect(declineKind('something_new')).toBe('final')
    expect(declineKind('toString')).toBe('final')
    expect(declineKind('__proto__')).toBe('final')
  })

  it('has a human message for every code and a fallback', () => {
    for (const [code, info] of Object.entries(DECLINES)) {
      expect(info.message.length, code).toBeGreaterThan(10)
      expect(declineMessage(code)).toBe(info.message)
    }
    expect(declineMessage('card_declined')).toBe('The card was declined.')
    expect(declineMessage('weird_code')).toBe('The payment was declined (weird_code).')
    expect(declineMessage('constructor')).toBe('The payment was declined (constructor).')
  })

  it('fails over on timeouts, errors and soft declines only', () => {
    expect(failsOver('timeout', null)).toBe(true)
    expect(failsOver('error', null)).toBe(true)
    expect(failsOver('soft_declined', 'issuer_unavailable')).toBe(true)
    expect(failsOver('declined', 'try_again_later')).toBe(true)
    expect(failsOver('declined', 'card_declined')).toBe(false)
    expect(failsOver('declined', 'unknown_code')).toBe(false)
    expect(failsOver('declined', null)).toBe(false)
    expect(failsOver('approved', null)).toBe(false)
    expect(failsOver('authentication_failed', null)).toBe(false)
  })

  it('documents every attempt outcome', () => {
    expect(Object.keys(ATTEMPT_OUTCOMES).sort()).toEqual(
      ['pending', 'approved', 'declined', 'soft_declined', 'timeout', 'error', 'authentication_failed', 'abandoned', 'canceled'].sort(),
    )
    for (const meaning of Object.values(ATTEMPT_OUTCOMES)) expect(meaning.length).toBeGreaterThan(10)
  })
})
