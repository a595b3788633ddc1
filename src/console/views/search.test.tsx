// Search as an agent types what a customer says, in process (test-support/harness.tsx): a part of
// a hyphenated name, a name typed without its ø, a name of one character (each beyond the API's
// name filter: the customers are read and matched here); the customer's name and email beside a
// payment; Events with their dates; a dispute lost by its deadline said as the CLI says it.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {Dispute, Payment} from '../../api/types.js'
import {bootEngine, card, type TestEngine} from '../../engine/test-support/harness.js'
import {customerMatches, foldText} from '../models/search.js'
import {openConsoleInProcess, type ConsoleUnderTest} from '../test-support/harness.js'

let t: TestEngine
let c: ConsoleUnderTest | undefined
const paid: Record<string, Payment> = {}

beforeAll(async () => {
  t = await bootEngine()
  for (const [ref, name, email] of [
    ['SRCH-1', 'Ñúñez-García', 'nunez@shop.example'],
    ['SRCH-2', 'Ørsted', 'hc@shop.example'],
    ['SRCH-3', '雪', 'yuki@shop.example'],
  ] as const)
    paid[ref] = (await t.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference: ref, customer: {name, email}})).body
}, 60_000)

afterEach(async () => {
  await c?.close()
  c = undefined
})

afterAll(async () => t?.stop())

describe('gw console in process: search and who a payment is from', () => {
  it('folds what is typed as a person types it', () => {
    expect(foldText('Ñúñez-García')).toBe('nunez-garcia')
    expect(foldText('Ørsted  Æbleskiver Straße')).toBe('orsted aebleskiver strasse')
    expect(customerMatches({name: 'Ñúñez-García', email: null}, 'García')).toBe(true)
    expect(customerMatches({name: 'Ørsted', email: null}, 'orsted')).toBe(true)
    expect(customerMatches({name: '雪', email: null}, '雪')).toBe(true)
    expect(customerMatches({name: 'Zoë', email: 'zoe@x.example'}, 'ada')).toBe(false)
  })

  it("finds García in Ñúñez-García, orsted in Ørsted and 雪, and shows each payment's customer by name and email", async () => {
    c = await openConsoleInProcess(t, {cols: 140, rows: 40, initial: [{view: 'home'}, {view: 'payments'}]})
    await c.waitFor('3 payments')
    // the name and email beside each payment
    await c.waitFor('Ñúñez-García <nunez@shop.example>')
    for (const [typed, ref] of [['García', 'SRCH-1'], ['orsted', 'SRCH-2'], ['雪', 'SRCH-3']] as const) {
      await c.press('/')
      await c.waitFor('Enter search · Esc cancel')
      await c.press('\u0015', typed, '\r')
      const found = await c.waitFor((screen) => screen.includes(`containing "${typed}"`) && /1 payment\b/.test(screen))
      expect(found).toContain(ref)
      expect(found).toContain(`customer name or email containing "${typed}"`)
    }
    await c.press('\r')
    await c.waitFor(`${paid['SRCH-3']!.id}  succeeded`)
    await c.waitFor(/Name\s+雪 <yuki@shop\.example>/)
  }, 90_000)

  it('dates the events, and says a dispute lost by its deadline as the CLI does', async () => {
    const dp = (await t.api('POST', '/test_helpers/disputes', {payment: paid['SRCH-1']!.id, reason: 'fraudulent'})).body as Dispute
    await t.api('POST', '/test_helpers/clock/advance', {seconds: 30 * 86_400, wait: true})
    expect((await t.api('GET', `/disputes/${dp.id}`)).body).toMatchObject({status: 'lost', closed_by: 'deadline'})
    c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'disputes'}]})
    await c.waitFor('needing a response')
    await c.press('a')
    await c.waitFor(`lost (deadline missed)`)
    await c.press('4')
    // (the heading comes before the stream's first page: wait for the rows themselves)
    const events = await c.waitFor(/\d\d-\d\d \d\d:\d\d:\d\d [a-z_]+\.[a-z_.]+ /)
    expect(events).toMatch(/DATE\s+TIME\s+TYPE/)
  }, 90_000)
})
