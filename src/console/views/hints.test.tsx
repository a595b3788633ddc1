// Hints that are true, in process (test-support/harness.tsx): the footer offers only what the
// object's status allows; under a restricted key an action says the permission before asking
// anything; the payment's timeline names what the key may not read; a type no event has is said
// with the nearest one; the message after evidence names the test helper that rules.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {Dispute, GwEvent, Payment} from '../../api/types.js'
import {bootEngine, card, type TestEngine} from '../../engine/test-support/harness.js'
import {eventFilterProblem, parseEventFilter} from '../models/events.js'
import {openConsoleInProcess, type ConsoleUnderTest} from '../test-support/harness.js'
import {unavailableLine} from './payments.js'

let t: TestEngine
let c: ConsoleUnderTest | undefined
let paid: Payment

const footer = (con: ConsoleUnderTest) => con.lines().filter((l) => l.trim()).at(-1) ?? ''
const restrictedKey = async (permissions: string[]) => (await t.api('POST', '/api_keys', {name: 'support', permissions})).body.secret as string

beforeAll(async () => {
  t = await bootEngine()
  paid = (await t.api('POST', '/payments', {amount: 2500, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference: 'HINTS-1'})).body
}, 60_000)

afterEach(async () => {
  await c?.close()
  c = undefined
})

afterAll(async () => t?.stop())

describe('gw console in process: hints that are true', () => {
  it('offers on a succeeded payment what it allows (refund), not capture or cancel; on a won dispute neither answer nor accept', async () => {
    c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'payment', id: paid.id}]})
    await c.waitFor(`${paid.id}  succeeded`)
    await c.waitFor(/f refund/)
    expect(footer(c)).not.toMatch(/capture|cancel/)
    await c.close()

    const other = (await t.api('POST', '/payments', {amount: 900, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference: 'HINTS-2'})).body as Payment
    const dp = (await t.api('POST', '/test_helpers/disputes', {payment: other.id, reason: 'product_not_received'})).body as Dispute
    // (read again every 250 ms, not the view's 3 s: the ruling made through the API shows soon)
    c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'dispute', id: dp.id}], refreshMs: 250})
    await c.waitFor(`${dp.id}  needs_response`)
    await c.waitFor(/e answer \(evidence\) · A accept/)
    // answered in the console: the message names the test helper that rules (advancing the clock does not)
    await c.press('e')
    await c.waitFor('Field key')
    await c.press('1', '\r')
    await c.waitFor('Esc cancels (here: back to the key)')
    await c.press('1Z999', '\r')
    await c.waitFor('1. [x] tracking_number')
    await c.press('\r', '\r')
    await c.waitFor('Submit this evidence?')
    await c.press('y')
    const sent = await c.waitFor(`Evidence sent: ${dp.id} is under_review`)
    expect(sent.replace(/\s+/g, ' ')).toContain(`(in test mode: gw disputes resolve ${dp.id} --won, --lost or --escalate)`)
    expect(sent).not.toContain('advance the clock')
    await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'won'})
    await c.waitFor('Won: €9.00 EUR returns to the balance.')
    expect(footer(c)).not.toMatch(/accept|answer/)
  }, 90_000)

  it('under a key that may not: resend says the permission before asking anything; the timeline names the webhook attempts it leaves out', async () => {
    const event = ((await t.api('GET', `/events?object=${paid.id}&limit=1`)).body.data as GwEvent[])[0]!
    const key = await restrictedKey(['payments:read', 'events:read', 'refunds:read', 'disputes:read'])
    c = await openConsoleInProcess(t, {apiKey: key, initial: [{view: 'home'}, {view: 'event', id: event.id}]})
    await c.waitFor(`${event.id}  ${event.type}`)
    await c.press('s')
    const said = await c.waitFor(/Not done: this key may not resend the event \(it needs webhooks:write\)/)
    expect(said).not.toContain('to which endpoint?')
    await c.close()

    c = await openConsoleInProcess(t, {apiKey: key, initial: [{view: 'home'}, {view: 'payment', id: paid.id}]})
    await c.waitFor(`${paid.id}  succeeded`)
    await c.press('t')
    await c.waitFor('Not shown, this key may not read them: webhook attempts (needs webhooks:read).')
  }, 90_000)

  it('says a type no event has, with the nearest, and keeps the filter open', async () => {
    expect(eventFilterProblem(parseEventFilter('payment.suceeded'))).toMatch(/^No event has the type payment\.suceeded: did you mean payment\.succeeded\?/)
    expect(eventFilterProblem(parseEventFilter('paymnt'))).toMatch(/^No event type starts with paymnt\.: did you mean payment\.\*\?/)
    expect(eventFilterProblem(parseEventFilter('payment refund.failed pay_123'))).toBeUndefined()
    expect(unavailableLine([{what: 'webhook attempts', permission: 'webhooks:read'}, {what: 'refunds created', error: 'timeout'}])).toBe(
      'Not shown, this key may not read them: webhook attempts (needs webhooks:read). Not shown: refunds created could not be read (timeout).',
    )
    c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'events'}]})
    await c.waitFor('/ to filter')
    await c.press('/')
    await c.waitFor('Enter filter · Esc cancel')
    await c.press('payment.suceeded', '\r')
    await c.waitFor('did you mean payment.succeeded?')
    expect(c.screen()).toContain('Enter filter · Esc cancel')
  }, 60_000)
})
