import {describe, expect, it} from 'vitest'
import {PROVIDERS, providerProfile} from '../domain/providers.js'
import type {AuthorizeRequest, ProviderCardInput} from '../ports/provider.js'
import {createSimulatedProviders, hash32, SimulatedProvider, simulatedLatency} from './simulated.js'

const atlas = new SimulatedProvider(providerProfile('prov_atlas')!)
const fjord = new SimulatedProvider(providerProfile('prov_fjord')!)

function cardInput(number: string): ProviderCardInput {
  return {brand: 'visa', last4: number.slice(-4), number, exp_month: 12, exp_year: 2034, cvc_provided: true, network_token: false}
}

function auth(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {payment_id: 'pay_1', amount: 2000, currency: 'EUR', payment_method: 'card', card: cardInput('4242424242424242'), route_index: 0, capture: true, ...overrides}
}

describe('SimulatedProvider.authorize', () => {
  it('approves ordinary payments', async () => {
    expect(await atlas.authorize(auth())).toMatchObject({outcome: 'approved', decline_code: null})
    expect(await atlas.authorize(auth({payment_method: 'paypal', card: undefined}))).toMatchObject({outcome: 'approved'})
  })

  it('declines the test decline cards with their code', async () => {
    const cases: [string, string][] = [
      ['4000000000000002', 'card_declined'],
      ['4000000000009995', 'insufficient_funds'],
      ['4000000000000069', 'expired_card'],
      ['4000000000000127', 'incorrect_cvc'],
    ]
    for (const [number, code] of cases) {
      expect(await atlas.authorize(auth({card: cardInput(number)})), number).toMatchObject({outcome: 'declined', decline_code: code})
      expect(await fjord.authorize(auth({card: cardInput(number), route_index: 1})), number).toMatchObject({outcome: 'declined', decline_code: code})
    }
  })

  it('approves challenge, cvv-fail, dispute and refund-fail cards at authorization', async () => {
    for (const n of ['4000000000003220', '4000000000000101', '4000000000000259', '4000000000005126', '5555555555554444', '378282246310005']) {
      expect((await atlas.authorize(auth({card: cardInput(n)}))).outcome, n).toBe('approved')
    }
  })

  it('declines amount 4002 with card_declined on every provider', async () => {
    expect(await atlas.authorize(auth({amount: 4002}))).toMatchObject({outcome: 'declined', decline_code: 'card_declined'})
    expect(await fjord.authorize(auth({amount: 4002, route_index: 1}))).toMatchObject({outcome: 'declined', decline_code: 'card_declined'})
  })

  it('times out amount 4999 on the first provider only', async () => {
    expect(await atlas.authorize(auth({amount: 4999}))).toEqual({outcome: 'timeout', decline_code: null, latency_ms: 4000})
    expect(await fjord.authorize(auth({amount: 4999, route_index: 1}))).toMatchObject({outcome: 'approved', decline_code: null})
  })

  it('errors for a method or currency the provider does not process', async () => {
    expect(await atlas.authorize(auth({payment_method: 'pix', currency: 'BRL', card: undefined}))).toMatchObject({outcome: 'error', decline_code: null})
    expect(await fjord.authorize(auth({currency: 'KWD'}))).toMatchObject({outcome: 'error'})
  })

  it('declines an invalid card number', async () => {
    expect(await atlas.authorize(auth({card: cardInput('4242424242424241')}))).toMatchObject({outcome: 'declined', decline_code: 'invalid_account'})
  })
})

describe('latency', () => {
  it('is deterministic per payment, provider and operation, within p50..p99', async () => {
    const a = await atlas.authorize(auth({payment_id: 'pay_abc'}))
    const b = await atlas.authorize(auth({payment_id: 'pay_abc'}))
    expect(a.latency_ms).toBe(b.latency_ms)
    const p = providerProfile('prov_atlas')!
    const seen = new Set<number>()
    for (let i = 0; i < 500; i++) {
      const ms = simulatedLatency(p, `pay_${i}|authorize`)
      expect(Number.isInteger(ms)).toBe(true)
      expect(ms).toBeGreaterThanOrEqual(p.latency.p50_ms)
      expect(ms).toBeLessThanOrEqual(p.latency.p99_ms)
      seen.add(ms)
    }
    expect(seen.size).toBeGreaterThan(50)
  })

  it('differs across providers and operations', () => {
    const p = providerProfile('prov_atlas')!
    const values = new Set(['authorize', 'capture:100', 'void', 'refund:rf_1', 'increment:10'].map((op) => simulatedLatency(p, `pay_x|${op}`)))
    expect(values.size).toBeGreaterThan(1)
    expect(hash32('a')).not.toBe(hash32('b'))
    expect(hash32('abc')).toBe(hash32('abc'))
  })
})

describe('other operations', () => {
  it('approves capture, increment and void', async () => {
    expect((await atlas.capture({payment_id: 'pay_1', amount: 1000, currency: 'EUR', final: true})).outcome).toBe('approved')
    expect((await atlas.incrementAuthorization({payment_id: 'pay_1', amount: 3000, currency: 'EUR'})).outcome).toBe('approved')
    expect((await atlas.void({payment_id: 'pay_1'})).outcome).toBe('approved')
  })

  it('fails refunds of test card 5126 and approves others', async () => {
    const base = {payment_id: 'pay_1', refund_id: 'rf_1', amount: 500, currency: 'EUR', payment_method: 'card'}
    expect(await atlas.refund({...base, card: cardInput('4000000000005126')})).toMatchObject({outcome: 'declined', decline_code: 'refund_failed'})
    expect(await atlas.refund({...base, card: cardInput('4242424242424242')})).toMatchObject({outcome: 'approved', decline_code: null})
    expect(await atlas.refund({...base, payment_method: 'ideal'})).toMatchObject({outcome: 'approved'})
  })
})

describe('createSimulatedProviders', () => {
  it('creates one connection per profile keyed by id', () => {
    const map = createSimulatedProviders()
    expect([...map.keys()]).toEqual(PROVIDERS.map((p) => p.id))
    for (const [id, conn] of map) {
      expect(conn.id).toBe(id)
      expect(conn).toBeInstanceOf(SimulatedProvider)
    }
  })
})
