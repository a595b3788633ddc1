// Routing (docs/api.md#routing-and-failover): failover inside one call, final declines not retried, provider health,
// GET /providers with the 7-day auth rate computed from attempts.
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {cardPayment, createPayment, eventsFor, expectError, getPayment} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

// Every payment a test routes is explained (GET /payments/{id}/routing), and the explanation
// agrees with what the router did: each pass's attempts follow its order, in that order, and
// stop at an approval or a final decline; no excluded provider is ever attempted.
let since = ''
beforeEach(async () => {
  since = (await t.api('GET', '/test_helpers/clock')).body.now
})
afterEach(async () => {
  const listed = await t.api('GET', `/payments?limit=100&created_gte=${since}`)
  for (const p of listed.body.data) {
    const r = await t.api('GET', `/payments/${p.id}/routing`)
    expect(r.status, r.text).toBe(200)
    const {decisions, attempts} = r.body
    if (p.status === 'requires_confirmation') expect(decisions).toEqual([])
    let i = 0
    for (const d of decisions) {
      const excluded = new Set(d.providers.filter((x: any) => !x.eligible).map((x: any) => x.provider))
      if (d.strategy === 'rule_block') {
        expect(d.order).toEqual([])
        expect(p.failure_code).toBe('routing_blocked')
      }
      // this pass's attempts: a prefix of its order (a pending attempt counts as the first)
      const mine = attempts.slice(i).filter((a: any) => d.order.includes(a.provider))
      let k = 0
      for (const a of attempts.slice(i)) {
        if (!d.order.includes(a.provider)) break
        expect(excluded.has(a.provider), `${p.id}: ${a.provider} was excluded`).toBe(false)
        k++
      }
      expect(mine.slice(0, k).map((a: any) => a.provider), p.id).toEqual(d.order.slice(0, k))
      for (const a of attempts.slice(i, i + k - 1)) if (a.outcome !== 'pending') expect(a.decline_class, `${p.id}: failed over after ${a.outcome}`).toBe('soft')
      i += k
    }
    expect(i, `${p.id}: every attempt belongs to a routing pass`).toBe(attempts.length)
  }
})

async function providers(): Promise<Map<string, any>> {
  const r = await t.api('GET', '/providers?limit=100')
  expect(r.status, r.text).toBe(200)
  return new Map(r.body.data.map((p: any) => [p.id, p]))
}

async function setHealth(id: string, status: string) {
  const r = await t.api('POST', `/test_helpers/providers/${id}/health`, {status})
  expect(r.status, r.text).toBe(200)
  return r.body
}

/** approved attempts implied by a provider's rate and total */
const approvedOf = (p: any) => (p.attempts_7d === 0 ? 0 : Math.round(p.auth_rate_7d * p.attempts_7d))

describe('GET /providers', () => {
  it('a fresh engine: every provider active, no 7-day data yet', async () => {
    const r = await t.api('GET', '/providers')
    expect(r.body.object).toBe('list')
    expect(r.body.url).toBe('/v1/providers')
    expect(r.body.data.length).toBeGreaterThanOrEqual(2)
    for (const p of r.body.data) {
      expect(p.id).toMatch(/^prov_/)
      expect(p.object).toBe('provider')
      expect(p.status).toBe('active')
      expect(Array.isArray(p.methods)).toBe(true)
      expect(Array.isArray(p.regions)).toBe(true)
      expect(p.auth_rate_7d).toBeNull()
    }
    const one = r.body.data[0]
    expect((await t.api('GET', `/providers/${one.id}`)).body).toEqual(one)
  })

  it('auth_rate_7d is computed from the attempts', async () => {
    const before = await providers()
    const ok = await createPayment(t, cardPayment())
    const fo = await createPayment(t, cardPayment({amount: 4999}))
    const dec = await t.api('POST', '/payments', cardPayment({}, '4000000000000002'))
    const declined = await getPayment(t, dec.body.error.payment)
    const attempts = [...ok.provider_attempts, ...fo.provider_attempts, ...declined.provider_attempts]
    const after = await providers()
    for (const [id, p] of after) {
      const mine = attempts.filter((a: any) => a.provider === id)
      const b = before.get(id)
      expect(p.attempts_7d - b.attempts_7d, id).toBe(mine.length)
      expect(approvedOf(p) - approvedOf(b), id).toBe(mine.filter((a: any) => a.outcome === 'approved').length)
      if (p.attempts_7d > 0) {
        expect(p.auth_rate_7d).toBeGreaterThanOrEqual(0)
        expect(p.auth_rate_7d).toBeLessThanOrEqual(1)
      }
    }
    const timedOut = fo.provider_attempts[0].provider
    expect(after.get(timedOut).auth_rate_7d).toBeLessThan(1)
  })

  it('the 7-day window follows the engine clock', async () => {
    const before = await providers()
    const busy = [...before.values()].filter((p) => p.attempts_7d > 0)
    expect(busy.length).toBeGreaterThan(0)
    await t.advance(8 * 86_400)
    const after = await providers()
    for (const p of busy) {
      expect(after.get(p.id).attempts_7d).toBe(0)
      expect(after.get(p.id).auth_rate_7d).toBeNull()
    }
  })
})

describe('failover', () => {
  it('amount 4999: the first provider times out, a different provider approves, inside one call', async () => {
    const p = await createPayment(t, cardPayment({amount: 4999}))
    expect(p.status).toBe('succeeded')
    expect(p.provider_attempts.map((a: any) => a.outcome)).toEqual(['timeout', 'approved'])
    const [first, second] = p.provider_attempts
    expect(first.provider).not.toBe(second.provider)
    expect(p.provider).toBe(second.provider)
    expect(first.latency_ms).toEqual(expect.any(Number))
    expect(first.decline_code).toBeNull()
    expect(Date.parse(second.attempted_at)).toBeGreaterThanOrEqual(Date.parse(first.attempted_at))
    expect((await getPayment(t, p.id)).provider_attempts).toEqual(p.provider_attempts)
  })

  it('failover also happens after a 3-D Secure challenge', async () => {
    const p = await createPayment(t, cardPayment({amount: 4999}, '4000000000003220'))
    const r = await t.api('POST', `/test_helpers/payments/${p.id}/action`, {outcome: 'approve'})
    expect(r.body.status).toBe('succeeded')
    expect(r.body.provider_attempts.map((a: any) => a.outcome)).toEqual(['timeout', 'approved'])
  })

  it('a final decline is never retried: one attempt', async () => {
    for (const body of [cardPayment({amount: 4002}), cardPayment({}, '4000000000000002'), cardPayment({}, '4000000000009995')]) {
      const r = await t.api('POST', '/payments', body)
      expect(r.status).toBe(402)
      const p = await getPayment(t, r.body.error.payment)
      expect(p.provider_attempts).toHaveLength(1)
      expect(p.provider_attempts[0].outcome).not.toBe('timeout')
    }
  })
})

describe('provider health', () => {
  it('disabling a provider removes it from the candidates and emits provider.health.changed', async () => {
    const first = (await createPayment(t, cardPayment())).provider
    const r = await setHealth(first, 'disabled')
    expect(r.id).toBe(first)
    expect(r.status).toBe('disabled')
    expect((await t.api('GET', `/providers/${first}`)).body.status).toBe('disabled')
    const ev = (await eventsFor(t, first))[0]
    expect(ev.type).toBe('provider.health.changed')
    expect(ev.data.object.status).toBe('disabled')
    expect(ev.data.object.id).toBe(first)

    try {
      for (let i = 0; i < 3; i++) {
        const p = await createPayment(t, cardPayment({amount: i === 0 ? 4999 : 2000}))
        expect(p.status).toBe('succeeded')
        for (const a of p.provider_attempts) expect(a.provider).not.toBe(first)
      }
    } finally {
      await setHealth(first, 'active')
    }
    const back = (await eventsFor(t, first))[0]
    expect(back.type).toBe('provider.health.changed')
    expect(back.data.object.status).toBe('active')
  })

  it('setting the same status again emits nothing new', async () => {
    const id = [...(await providers()).keys()][0]!
    const before = (await eventsFor(t, id)).length
    await setHealth(id, 'active')
    expect((await eventsFor(t, id)).length).toBe(before)
  })

  it('a degraded provider is still a candidate, tried after the active ones', async () => {
    const first = (await createPayment(t, cardPayment())).provider
    await setHealth(first, 'degraded')
    try {
      expect((await t.api('GET', `/providers/${first}`)).body.status).toBe('degraded')
      const p = await createPayment(t, cardPayment())
      expect(p.provider).not.toBe(first)
    } finally {
      await setHealth(first, 'active')
    }
  })

  it('every attempt exhausted → failed with failure_code and payment.failed', async () => {
    const all = [...(await providers()).values()].filter((p) => p.methods.includes('card') && p.currencies.includes('EUR'))
    const keep = all[0].id
    for (const p of all.slice(1)) await setHealth(p.id, 'disabled')
    try {
      const r = await t.api('POST', '/payments', cardPayment({amount: 4999}))
      expect([201, 402]).toContain(r.status)
      const p = r.status === 201 ? r.body : await getPayment(t, r.body.error.payment)
      expect(p.status).toBe('failed')
      expect(p.failure_code).toEqual(expect.any(String))
      expect(p.provider_attempts.map((a: any) => [a.provider, a.outcome])).toEqual([[keep, 'timeout']])
      expect((await eventsFor(t, p.id)).map((e) => e.type)).toEqual(['payment.failed'])

      await setHealth(keep, 'disabled')
      const none = await t.api('POST', '/payments', cardPayment())
      const q = none.status === 201 ? none.body : await getPayment(t, none.body.error.payment)
      expect(q.status).toBe('failed')
      expect(q.failure_code).toEqual(expect.any(String))
      expect(q.provider_attempts).toEqual([])
    } finally {
      for (const p of all) await setHealth(p.id, 'active')
    }
    expect((await createPayment(t, cardPayment())).status).toBe('succeeded')
  })

  it('health validation', async () => {
    expectError(await t.api('POST', '/test_helpers/providers/prov_nope/health', {status: 'active'}), 404, 'invalid_request_error')
    const id = [...(await providers()).keys()][0]!
    expectError(await t.api('POST', `/test_helpers/providers/${id}/health`, {status: 'broken'}), 400, 'invalid_request_error')
  })
})

describe('currency is a hard filter', () => {
  it('a provider only serves currencies it processes', async () => {
    const all = await providers()
    for (const [currency, method] of [
      ['BRL', 'pix'],
      ['KWD', 'card'],
      ['JPY', 'card'],
    ] as const) {
      const r = await t.api('POST', '/payments', {amount: 3000, currency, payment_method: method, ...(method === 'card' ? {payment_method_data: cardPayment().payment_method_data} : {})})
      expect(r.status, r.text).toBe(201)
      for (const a of r.body.provider_attempts) {
        expect(all.get(a.provider).currencies).toContain(currency)
        expect(all.get(a.provider).methods).toContain(method)
      }
    }
  })
})

describe('routing explained', () => {
  it('a simulation made just before a payment predicts the order the payment was routed in', async () => {
    for (const [amount, currency, method] of [[2000, 'EUR', 'card'], [4999, 'EUR', 'card'], [1500, 'USD', 'card'], [9000, 'BRL', 'card'], [2500, 'GBP', 'card']] as const) {
      const sim = await t.api('GET', `/routing/simulate?amount=${amount}&currency=${currency}&payment_method=${method}&card_brand=visa&country=US`)
      expect(sim.status, sim.text).toBe(200)
      expect(sim.body.object).toBe('routing_decision')
      const p = await createPayment(t, cardPayment({amount, currency}))
      const r = (await t.api('GET', `/payments/${p.id}/routing`)).body
      expect(r.decisions[0].order).toEqual(sim.body.order)
      expect(r.decisions[0].scores).toEqual(sim.body.scores)
      expect(p.provider_attempts[0].provider).toBe(sim.body.order[0])
    }
  })

  it('names why providers were left out, the scores and their parts; a rule changed later does not change the record', async () => {
    const p = await createPayment(t, cardPayment({amount: 3000, currency: 'EUR'}))
    const before = (await t.api('GET', `/payments/${p.id}/routing`)).body.decisions[0]
    expect(before.strategy).toBe('smart_routing')
    expect(before.rule).toBeNull()
    expect(before.providers.some((x: any) => x.excluded === 'currency_not_processed')).toBe(true)
    for (const sc of before.scores) {
      const {weights: w} = before
      const sum = w.cost * sc.cost.component + w.auth_rate * sc.auth_rate.used + w.currency * sc.currency.component + w.method * sc.method.component
      expect(sc.score).toBeCloseTo(sc.degraded ? sum / 2 : sum, 3)
      expect(Number.isInteger(sc.cost.fee)).toBe(true)
    }
    // a block rule now: new payments are blocked, the old record still shows smart routing
    const rule = await t.api('POST', '/routing_rules', {priority: 1, action: 'block', conditions: {currency: 'EUR', amount_gte: 3000, amount_lte: 3000}})
    expect(rule.status, rule.text).toBe(201)
    const blocked = await createPayment(t, cardPayment({amount: 3000, currency: 'EUR'}))
    expect(blocked.failure_code).toBe('routing_blocked')
    const br = (await t.api('GET', `/payments/${blocked.id}/routing`)).body.decisions[0]
    expect(br).toMatchObject({strategy: 'rule_block', order: [], rule: {id: rule.body.id, action: 'block', priority: 1}})
    expect((await t.api('GET', `/payments/${p.id}/routing`)).body.decisions[0]).toEqual(before)
    const sim = await t.api('GET', '/routing/simulate?amount=3000&currency=EUR&payment_method=card')
    expect(sim.body).toMatchObject({strategy: 'rule_block', order: []})
    await t.api('DELETE', `/routing_rules/${rule.body.id}`)
  })

  it('simulate checks its input and creates nothing', async () => {
    const before = (await t.api('GET', '/payments?limit=1')).body.data[0]?.id
    expect((await t.api('GET', '/routing/simulate?amount=2000&currency=EUR')).body.error).toMatchObject({code: 'parameter_missing', param: 'payment_method'})
    expect((await t.api('GET', '/routing/simulate?amount=20.5&currency=EUR&payment_method=card')).body.error).toMatchObject({code: 'parameter_invalid', param: 'amount'})
    expect((await t.api('GET', '/routing/simulate?amount=2000&currency=EUR&payment_method=pix')).body.error).toMatchObject({code: 'currency_not_supported'})
    expect((await t.api('GET', '/routing/simulate?amount=2000&currency=EUR&payment_method=card&merchant=mer_nope')).status).toBe(404)
    expect((await t.api('GET', '/payments?limit=1')).body.data[0]?.id).toBe(before)
    expect((await t.api('GET', '/payments/pay_nope/routing')).status).toBe(404)
  })
})
