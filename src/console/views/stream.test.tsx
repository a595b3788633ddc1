// The console's Events and Webhooks views in process (test-support/harness.tsx), against one
// engine in this process and an HTTPS receiver that answers 200 or 503 as the test says.
// Events: they arrive live while watched; pause holds and counts them and resume shows them; a
// filter by object; an event's payload and deliveries; a resend seen as a new delivery; the
// engine stopped and started again under the view (the rows stay, the stream resumes).
// Webhooks: an endpoint failing, then disabled, as the engine clock moves; enabled again and
// replayed, and the replayed deliveries seen succeeding.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {Payment, WebhookEndpoint} from '../../api/types.js'
import {bootEngine, card, type TestEngine} from '../../engine/test-support/harness.js'
import {testReceiver, type TestReceiver} from '../../engine/test-support/tls-receiver.js'
import {openConsoleInProcess, type ConsoleUnderTest} from '../test-support/harness.js'

let t: TestEngine
let receiver: TestReceiver
let c: ConsoleUnderTest | undefined

const pay = async (amount: number, reference: string): Promise<Payment> => (await t.api('POST', '/payments', {amount, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference})).body
const endpoint = async (events: string[]): Promise<WebhookEndpoint> => (await t.api('POST', '/webhook_endpoints', {url: receiver.url, enabled_events: events})).body

beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
  receiver = await testReceiver(200)
}, 60_000)

afterEach(async () => {
  await c?.close()
  c = undefined
})

afterAll(async () => {
  await receiver?.close()
  await t?.stop()
})

describe('gw console in process: Events', () => {
  it('events arrive live; pause holds and counts them; a filter; an event opens with its payload and deliveries; a resend is a new delivery; the engine restarted, the rows stay and the stream goes on', async () => {
    receiver.status = 200
    const ep = await endpoint(['payment.*'])
    c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'events'}]})
    // the view's own "● live" (its stream is open), not the status line's
    await c.waitFor(/every event · \/ to filter +● live/)

    // live while watching
    const p1 = await pay(1250, 'EV-ONE')
    await c.waitFor(new RegExp(`payment\\.succeeded +${p1.id}`))

    // pause: new events are held and counted, not shown; resume shows them
    c.send('p')
    await c.waitFor('⏸ paused · 0 held')
    const p2 = await pay(2500, 'EV-TWO')
    const held = await c.waitFor(/paused · [1-9]\d* held/)
    expect(held).not.toContain(p2.id)
    c.send('p')
    await c.waitFor(new RegExp(`payment\\.succeeded +${p2.id}`))
    expect(c.screen()).toContain('● live')

    // the filter: one payment's story
    c.send('/')
    await c.waitFor('type prefix (payment.*)')
    c.send(p1.id)
    c.send('\r')
    await c.waitFor(`about ${p1.id}`)
    await c.waitFor(new RegExp(`payment\\.succeeded +${p1.id}`))
    expect(c.screen()).not.toContain(p2.id)

    // the newest of its events opens: the payload and its delivery to the endpoint
    c.send('\r')
    const detail = await c.waitFor(/DELIVERIES \(1\)/)
    expect(detail).toContain(`"id": "${p1.id}"`)
    await c.waitFor(/succeeded +1 +HTTP 200 · \d+ ms/)
    // the payload scrolls
    c.send('\u001b[6~')
    await c.waitFor('"reference": "EV-ONE"')

    // resend to that endpoint: asked, confirmed, and seen as a second delivery
    c.send('s')
    await c.waitFor('to which endpoint? Enter: every subscribed endpoint')
    c.send(ep.id)
    c.send('\r')
    await c.waitFor('Continue? [y/N]')
    c.send('y')
    c.send('\r')
    await c.waitFor(/1 new delivery: whd_\w+ to wh_/)
    await c.waitFor(/DELIVERIES \(2\)/)

    c.send('\u001b')
    await c.waitFor(`about ${p1.id}`)

    // the engine goes away: the rows stay, the view says the stream is down; back, it goes on
    c.send('/')
    await c.waitFor('Enter filter · Esc cancel')
    await c.press('\u0015', '\r') // Ctrl-U, Enter
    await c.waitFor(new RegExp(`payment\\.succeeded +${p2.id}`))
    const port = Number(new URL(t.engine.baseUrl).port)
    await t.engine.close()
    const down = await c.waitFor(/Stream down since/)
    expect(down).toContain(p2.id)
    await c.waitFor('Reconnecting to')
    await t.restart({port})
    await c.waitFor('● live', 30_000)
    const p3 = await pay(3750, 'EV-THREE')
    await c.waitFor(new RegExp(`payment\\.succeeded +${p3.id}`))
    expect(c.screen()).toContain(p2.id)
    await t.api('DELETE', `/webhook_endpoints/${ep.id}`)
  }, 120_000)
})

describe('gw console in process: Webhooks', () => {
  it('an endpoint failing, then disabled as the clock moves; enabled again and replayed, its deliveries succeed', async () => {
    receiver.status = 503
    const ep = await endpoint(['*'])
    await pay(990, 'WH-ONE')
    // the endpoints read again every 250 ms (the view's own 2-3 s), so a change the clock made shows soon
    c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'webhooks'}], refreshMs: 250})
    await c.waitFor(ep.id.slice(0, 12))
    await c.waitFor(/HTTP 503 · \d+ ms/)

    // three days of failures: failing; past five: disabled
    await t.api('POST', '/test_helpers/clock/advance', {seconds: 3 * 86_400, wait: true})
    await c.waitFor(/failing: failing since/)
    // (a new payment after each step: a delivery attempted, and failed, at that time)
    for (let i = 0; i < 4 && !(await t.api('GET', `/webhook_endpoints/${ep.id}`)).body.disabled; i++) {
      await t.api('POST', '/test_helpers/clock/advance', {seconds: 3 * 86_400, wait: true})
      await pay(990 + i, `WH-STEP-${i}`)
    }
    await c.waitFor(/disabled: no successful delivery since/)

    // the endpoint: its deliveries as `gw webhooks deliveries` shows them
    c.send('\r')
    await c.waitFor(/DELIVERIES \(latest \d+\)/)
    await c.waitFor(/undeliverable .*HTTP 503/)

    // the receiver is fixed: enable, then replay the last 30 days
    receiver.status = 200
    c.send('E')
    await c.waitFor(`enable ${ep.id}`)
    c.send('y')
    c.send('\r')
    await c.waitFor(`${ep.id} is enabled`)
    const before = receiver.received.length
    c.send('R')
    await c.waitFor('since how long ago?')
    c.send('30d')
    c.send('\r')
    await c.waitFor(`This will send ${ep.id} again every event of the last 30d`)
    c.send('y')
    c.send('\r')
    await c.waitFor(/Replay to wh_\w+: [1-9]\d* queued/)
    await c.waitFor(/succeeded +1 +HTTP 200 · \d+ ms/)
    expect(receiver.received.length).toBeGreaterThan(before)

    c.send('\u001b')
    await c.waitFor('Webhook endpoints')
  }, 120_000)
})
