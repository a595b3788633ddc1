import {describe, expect, it} from 'vitest'
import {METHODS} from '../../api/catalog.js'
import {isCurrency} from '../../api/money.js'
import {feeFor, fixedFee, fixedFeeTable, PROVIDERS, providerProfile, providerServes, type ProviderProfile} from './providers.js'

const serving = (method: string, currency: string) => PROVIDERS.filter((p) => providerServes(p, method, currency))

describe('PROVIDERS', () => {
  it('has at least six providers with unique opaque prov_ ids', () => {
    expect(PROVIDERS.length).toBeGreaterThanOrEqual(6)
    const ids = PROVIDERS.map((p) => p.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^prov_[a-z0-9_]+$/)
    expect(providerProfile('prov_atlas')?.name).toBe('Atlas Global Acquiring')
    expect(providerProfile('prov_nope')).toBeUndefined()
  })

  it('serves every catalog method in every currency the catalog allows for it', () => {
    const gaps: string[] = []
    for (const m of METHODS.values()) {
      for (const c of m.currencies) if (serving(m.code, c).length === 0) gaps.push(`${m.code}/${c}`)
    }
    expect(gaps).toEqual([])
  })

  it('serves cards in EUR, USD, GBP, BRL and JPY through at least two providers', () => {
    for (const c of ['EUR', 'USD', 'GBP', 'BRL', 'JPY']) expect(serving('card', c).length, c).toBeGreaterThanOrEqual(2)
  })

  it('lists only catalog methods and valid currencies; local currencies are processed currencies', () => {
    for (const p of PROVIDERS) {
      for (const m of p.methods) expect(METHODS.has(m), `${p.id} ${m}`).toBe(true)
      for (const c of p.currencies) expect(isCurrency(c), `${p.id} ${c}`).toBe(true)
      for (const c of p.localCurrencies) expect(p.currencies, `${p.id} ${c}`).toContain(c)
      expect(p.regions.length).toBeGreaterThan(0)
    }
  })

  it('differ in methods, currencies, fees and latency; latency stays under the timeout', () => {
    const distinct = (f: (p: ProviderProfile) => unknown) => new Set(PROVIDERS.map((p) => JSON.stringify(f(p)))).size
    expect(distinct((p) => [...p.methods].sort())).toBe(PROVIDERS.length)
    expect(distinct((p) => [...p.currencies].sort())).toBe(PROVIDERS.length)
    expect(distinct((p) => p.fees)).toBe(PROVIDERS.length)
    expect(distinct((p) => p.latency)).toBe(PROVIDERS.length)
    for (const p of PROVIDERS) {
      expect(p.latency.p50_ms).toBeLessThan(p.latency.p99_ms)
      expect(p.latency.p99_ms).toBeLessThan(p.timeout_ms)
    }
  })
})

describe('feeFor', () => {
  const atlas = providerProfile('prov_atlas')!

  it('charges percent plus fixed in minor units', () => {
    // 2.90% of 10.00 EUR = 0.29 + 0.30
    expect(feeFor(atlas, 1000, 'EUR')).toBe(59)
    expect(feeFor(atlas, 0, 'EUR')).toBe(30)
  })

  it('rounds half up', () => {
    const p = {...atlas, fees: {percent_bps: 250, fixed_minor: 0}}
    expect(feeFor(p, 10, 'EUR')).toBe(0) // 0.25
    expect(feeFor(p, 20, 'EUR')).toBe(1) // 0.5
    expect(feeFor(p, 100, 'EUR')).toBe(3) // 2.5
    expect(feeFor(p, 99, 'EUR')).toBe(2) // 2.475
  })

  it('scales the fixed part by the currency exponent', () => {
    expect(fixedFee(atlas, 'EUR')).toBe(30)
    expect(fixedFee(atlas, 'KWD')).toBe(300)
    expect(fixedFee(atlas, 'JPY')).toBe(0)
    // 2.9% of 1000 JPY = 29, fixed 0.30 yen adds 0.3 -> 29.3 -> 29
    expect(feeFor(atlas, 1000, 'JPY')).toBe(29)
    // 2.9% of 1.000 KWD = 29 fils + 300 fils
    expect(feeFor(atlas, 1000, 'KWD')).toBe(329)
    expect(fixedFeeTable(atlas)).toMatchObject({EUR: 30, USD: 30, JPY: 0, KWD: 300})
  })

  it('returns integers, also for huge amounts', () => {
    for (const p of PROVIDERS) for (const a of [1, 333, 4999, 123_456_789]) expect(Number.isInteger(feeFor(p, a, 'EUR'))).toBe(true)
    expect(feeFor(atlas, 10 ** 15, 'EUR')).toBe(29 * 10 ** 12 + 30)
  })
})

describe('partnerMethods', () => {
  it('are a subset of each provider\'s methods', () => {
    for (const p of PROVIDERS) for (const m of p.partnerMethods ?? []) expect(p.methods, `${p.id} ${m}`).toContain(m)
  })
})
