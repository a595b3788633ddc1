import {describe, expect, it} from 'vitest'
import {PLATFORM_ACCOUNT} from '../ports/store.js'
import {SqliteStore} from '../store/sqlite/sqlite-store.js'
import {FleetConfigError, FleetSettings} from './fleet.js'

const open = () => new SqliteStore({path: ':memory:'})
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('fleet settings', () => {
  it('on a shared store the first instance writes them; an instance without flags takes them and says so', async () => {
    const store = open()
    const first = await FleetSettings.agree(store, {rateLimit: 5, payoutCurrency: 'EUR'}, {shared: true, update: false, notes: () => {}})
    expect([first.rateLimit, first.payoutCurrency]).toEqual([5, 'EUR'])
    const notes: string[] = []
    const second = await FleetSettings.agree(store, {}, {shared: true, update: false, notes: (l) => notes.push(l)})
    expect([second.rateLimit, second.payoutCurrency, second.destinations.allowList]).toEqual([5, 'EUR', []])
    expect(notes.join('\n')).toMatch(/--rate-limit 5\/s \(the fleet's setting/)
    await store.close()
  })

  it('an instance started with values that disagree is refused, naming each and the way to change them', async () => {
    const store = open()
    await FleetSettings.agree(store, {rateLimit: 5}, {shared: true, update: false, notes: () => {}})
    const refused = FleetSettings.agree(store, {rateLimit: 7, webhookAllow: ['10.0.0.0/8']}, {shared: true, update: false, notes: () => {}})
    await expect(refused).rejects.toBeInstanceOf(FleetConfigError)
    await expect(refused).rejects.toThrow(/--rate-limit 7\/s disagrees with this database's fleet setting 5\/s.*--webhook-allow 10\.0\.0\.0\/8 disagrees.*--update-fleet-settings/)
    // the same values are no disagreement
    await expect(FleetSettings.agree(store, {rateLimit: 5}, {shared: true, update: false, notes: () => {}})).resolves.toBeInstanceOf(FleetSettings)
    await store.close()
  })

  it('--update-fleet-settings changes them for every instance, which follow at once', async () => {
    const store = open()
    const running = await FleetSettings.agree(store, {rateLimit: 5}, {shared: true, update: false, notes: () => {}})
    const updater = await FleetSettings.agree(store, {rateLimit: 9, webhookAllow: ['10.0.0.0/8']}, {shared: true, update: true, notes: () => {}})
    expect(updater.rateLimit).toBe(9)
    for (let i = 0; i < 100 && running.rateLimit !== 9; i++) await sleep(5)
    expect(running.rateLimit).toBe(9)
    expect(running.destinations.refusal('127.0.0.1')).toMatch(/outside/)
    expect(await store.account(PLATFORM_ACCOUNT).getSetting('fleet.rate_limit')).toBe('9')
    await store.close()
  })

  it("on a store one instance owns (SQLite) the flags or their defaults apply, whatever was stored: gw serve behaves as it always did", async () => {
    const store = open()
    await FleetSettings.agree(store, {rateLimit: 0}, {shared: false, update: false, notes: () => {}})
    const plain = await FleetSettings.agree(store, {}, {shared: false, update: false, notes: () => {}})
    expect(plain.rateLimit).toBe(100)
    expect(plain.payoutCurrency).toBeNull()
    await store.close()
  })
})
