import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {propertyRuns} from '../test-support/property-runs.js'
import {parseCardNumber, TEST_CARD_ISSUERS, TEST_CARDS} from './cards.js'
import {isPublishedTestCard, maskCardNumber, redactShownOnce, scrubShownOnce} from './secrets.js'

/** A Luhn-valid number: the digits given, then the check digit. */
function withCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) {
    const n = body + d
    if (parseCardNumber(n).ok) return n
  }
  return body + '0'
}

describe('card numbers in snapshots', () => {
  it('a published test card stays whole', () => {
    for (const n of [...TEST_CARDS.keys(), ...TEST_CARD_ISSUERS.keys()]) expect(maskCardNumber(n)).toBe(n)
  })

  it('any other card keeps its first six and last four, its brand, length and behaviour, passes the Luhn check, and is never a published test card', () => {
    const visa = fc.array(fc.integer({min: 0, max: 9}), {minLength: 14, maxLength: 14}).map((d) => withCheckDigit(`4${d.join('')}`))
    const amex = fc.array(fc.integer({min: 0, max: 9}), {minLength: 12, maxLength: 12}).map((d) => withCheckDigit(`37${d.join('')}`))
    fc.assert(
      fc.property(fc.oneof(visa, amex), (n) => {
        fc.pre(parseCardNumber(n).ok && !isPublishedTestCard(n))
        const m = maskCardNumber(n)
        expect(m).not.toBe(n)
        expect(m.slice(0, 6)).toBe(n.slice(0, 6))
        expect(m.slice(-4)).toBe(n.slice(-4))
        expect(isPublishedTestCard(m)).toBe(false)
        const a = parseCardNumber(n)
        const b = parseCardNumber(m)
        expect(b.ok).toBe(true)
        if (a.ok && b.ok) expect({brand: b.card.brand, length: m.length, test: b.card.test, funding: b.card.funding, country: b.card.country}).toEqual({brand: a.card.brand, length: n.length, test: a.card.test, funding: a.card.funding, country: a.card.country})
      }),
      {numRuns: propertyRuns(200), examples: [['370000000000002']]},
    )
  })
})

describe('secrets shown once', () => {
  it('an answer keeps each secret redacted, nothing else changed', () => {
    const answer = {id: 'acct_1', object: 'account', name: 'x', secret_key: 'sk_test_0123456789012345678901234567abcd', publishable_key: 'pk_test_0123456789012345678901234567wxyz', metadata: {secret: 1}}
    expect(redactShownOnce(answer)).toEqual({...answer, secret_key: 'sk_test_…abcd', publishable_key: 'pk_test_…wxyz'})
    expect(JSON.stringify(redactShownOnce({secret: 'whsec_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ'}))).toBe('{"secret":"whsec_…NOPQ"}')
  })

  it('a stored answer is scrubbed the same way; other strings and members stay', () => {
    const body = JSON.stringify({id: 'key_1', secret: 'rk_test_0123456789012345678901234567abcd', description: 'sk_test_0123456789012345678901234567zzzz', metadata: {secret: 'plain words'}})
    expect(JSON.parse(scrubShownOnce(body))).toEqual({...JSON.parse(body), secret: 'rk_test_…abcd'})
    expect(scrubShownOnce('{"id":"pay_1"}')).toBe('{"id":"pay_1"}')
    // the redacted form is scrubbed to itself
    expect(scrubShownOnce(scrubShownOnce(body))).toBe(scrubShownOnce(body))
  })
})
