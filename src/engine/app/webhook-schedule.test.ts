// Webhook retries and endpoint health under a moving test clock (docs/decisions.md#deliveries):
// what an advance makes due is attempted at once, the schedule runs on the engine clock from each
// attempt's due time, and the endpoint's health follows engine time in the streak, whatever the
// advance's step and however fast the machine.
import {afterEach, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'
import {testReceiver} from '../test-support/tls-receiver.js'
import {RETRY_DELAYS_S, RETRY_WINDOW_MS} from '../domain/webhooks.js'

const cleanups: (() => Promise<unknown> | void)[] = []

/** An endpoint that answers 500 to everything, counting what it received (real time of each). */
async function failingReceiver(): Promise<{url: string; received: number[]}> {
  const rx = await testReceiver(500)
  cleanups.push(() => rx.close())
  return {
    url: rx.url,
    get received() {
      return rx.received.map((r) => r.at)
    },
  }
}

async function boot(): Promise<TestEngine> {
  const t = await bootEngine({rateLimit: 0})
  cleanups.push(() => t.stop())
  return t
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function paymentDelivery(t: TestEngine, endpointId: string) {
  const p = await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
  expect(p.status).toBe(201)
  const evs = await t.api('GET', '/events?type=payment.succeeded&limit=100')
  const evt = evs.body.data.find((e: any) => e.data.object.id === p.body.id)
  const ds = await waitFor('the first attempt', async () => {
    const r = await t.api('GET', `/events/${evt.id}/deliveries`)
    const d = r.body.data.find((x: any) => x.endpoint === endpointId)
    return d?.attempts.length ? d : undefined
  })
  return {event: evt as {id: string; created_at: string}, delivery: ds as {id: string}}
}

const delivery = async (t: TestEngine, eventId: string) => (await t.api('GET', `/events/${eventId}/deliveries`)).body.data[0]

/** The schedule the docs promise over the 72-hour window: the first attempt, then each retry until the window's end. */
function promisedAttempts(): number[] {
  const at = [0]
  for (let n = 1; ; n++) {
    const next = at.at(-1)! + RETRY_DELAYS_S[Math.min(n, RETRY_DELAYS_S.length) - 1]! * 1000
    if (at.at(-1)! >= RETRY_WINDOW_MS) return at
    at.push(Math.min(next, RETRY_WINDOW_MS))
  }
}

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

describe('webhook retries under a moving test clock', () => {
  it('stepping through the 72-hour window with a short pause after each advance gets exactly the promised attempts, on schedule', async () => {
    const promised = promisedAttempts()
    expect(promised).toHaveLength(12)
    const t = await boot()
    const rx = await failingReceiver()
    const ep = (await t.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).body
    const {event} = await paymentDelivery(t, ep.id)
    // 40-minute steps with a 5 ms pause: most steps make nothing due, some make one retry due,
    // and the pause is far shorter than any poll: what fell due must be attempted because it did
    for (let s = 0; s < 110; s++) {
      await t.advance(40 * 60)
      await sleep(5)
    }
    const d = await waitFor('the delivery undeliverable', async () => {
      const got = await delivery(t, event.id)
      return got.status === 'undeliverable' ? got : undefined
    })
    expect(d.undeliverable_reason).toBe('retry_window_expired')
    const start = Date.parse(event.created_at)
    expect(d.attempts.map((a: {at: string}) => Date.parse(a.at) - start)).toEqual(promised)
    expect(rx.received).toHaveLength(12)
    const e = (await t.api('GET', `/webhook_endpoints/${ep.id}`)).body
    expect(e).toMatchObject({status: 'failing', failing_since: d.attempts[0].at, disabled: false})
  }, 60_000)

  it('what an advance makes due is attempted because it fell due, not at the next poll', async () => {
    // the worker's poll for deliveries that fell due with real time is an hour here: only the advance can wake it
    const t = await bootEngine({rateLimit: 0, deliveries: {pollMs: 3_600_000}})
    cleanups.push(() => t.stop())
    const rx = await failingReceiver()
    const ep = (await t.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).body
    const {event} = await paymentDelivery(t, ep.id)
    for (let i = 0; i < 4; i++) {
      await t.advance(RETRY_DELAYS_S[i]!)
      await waitFor(`retry ${i + 1}`, async () => rx.received.length === i + 2)
    }
    // the fifth attempt is recorded once its outcome's batch commits, just after the receiver answered
    await waitFor('five attempts recorded', async () => (await delivery(t, event.id)).attempts.length === 5)
  }, 30_000)

  it('one big jump (6 days) gets every attempt in the window and flags the endpoint failing, as 12-hour steps do', async () => {
    const results: {attempts: number; status: string; disabled: boolean}[] = []
    for (const step of [6 * 86_400, 12 * 3600]) {
      const t = await boot()
      const rx = await failingReceiver()
      // every event: the daily settlement runs inside the jump are events too, so the failure streak spans the days
      const ep = (await t.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['*']})).body
      const {event} = await paymentDelivery(t, ep.id)
      for (let done = 0; done < 6 * 86_400; done += step) await t.advance(step)
      const d = await waitFor('the payment delivery finished', async () => {
        const got = await delivery(t, event.id)
        return got.status === 'undeliverable' ? got : undefined
      })
      // the payment's delivery and the day-1 settlement report's fail from day 0 to day 4: failing (3 days), not yet disabled (5)
      const e = await waitFor('the endpoint failing', async () => {
        const got = (await t.api('GET', `/webhook_endpoints/${ep.id}`)).body
        const ds = (await t.api('GET', `/webhook_endpoints/${ep.id}/deliveries?limit=100`)).body.data
        return got.status === 'failing' && ds.every((x: {status: string}) => x.status === 'undeliverable') ? got : undefined
      })
      expect(e).toMatchObject({status: 'failing', disabled: false, failing_since: d.attempts[0].at})
      results.push({attempts: d.attempts.length, status: e.status, disabled: e.disabled})
    }
    expect(results[0]).toEqual(results[1])
    expect(results[0]!.attempts).toBe(12)
  }, 60_000)

  it('advance with wait: true answers once what it made due was attempted: 100 advances see exactly the promised attempts after each', async () => {
    const promised = promisedAttempts()
    const t = await boot()
    const rx = await failingReceiver()
    const ep = (await t.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).body
    const {event} = await paymentDelivery(t, ep.id)
    const start = Date.parse(event.created_at)
    const clock0 = Date.parse((await t.api('GET', '/test_helpers/clock')).body.now)
    for (let i = 1; i <= 100; i++) {
      const r = await t.api('POST', '/test_helpers/clock/advance', {seconds: 45 * 60, wait: true})
      expect(r.status).toBe(200)
      expect(r.body.pending_attempts).toBeUndefined()
      // the attempts due by the engine time the advance reached, no more, no fewer, already at the receiver and recorded
      const reached = Date.parse(r.body.now) - start
      const expected = promised.filter((at) => at <= reached).length
      expect(rx.received.length, `after advance ${i} (${((Date.parse(r.body.now) - clock0) / 3_600_000).toFixed(2)} h)`).toBe(expected)
      expect((await delivery(t, event.id)).attempts).toHaveLength(expected)
    }
    expect(rx.received).toHaveLength(12)
    expect(await delivery(t, event.id)).toMatchObject({status: 'undeliverable', undeliverable_reason: 'retry_window_expired'})
  }, 120_000)

  it('an advance counts the webhook attempts it made due (retries and first attempts)', async () => {
    const t = await boot()
    const rx = await failingReceiver()
    const ep = (await t.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).body
    await paymentDelivery(t, ep.id)
    const r = await t.api('POST', '/test_helpers/clock/advance', {seconds: 120})
    expect(r.status).toBe(200)
    expect(r.body.fired).toEqual({'webhook.delivery_attempt': 1})
    const quiet = await t.api('POST', '/test_helpers/clock/advance', {seconds: 10})
    expect(quiet.body.fired ?? {}).toEqual({})
  }, 30_000)

  it('an advance with wait: true counts every attempt made in the stretch, the catch-up retries its failures scheduled included', async () => {
    const t = await boot()
    const rx = await failingReceiver()
    const ep = (await t.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).body
    const {event} = await paymentDelivery(t, ep.id)
    const first = rx.received.length
    const now = Date.parse((await t.api('GET', '/test_helpers/clock')).body.now)
    const r = await t.api('POST', '/test_helpers/clock/advance', {seconds: 86_400, wait: true})
    expect(r.status).toBe(200)
    // within a day of the first attempt: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h — six attempts, all refused by the receiver
    const made = rx.received.length - first
    const reached = Date.parse(r.body.now) - Date.parse(event.created_at)
    expect(made).toBe(promisedAttempts().filter((at) => at > 0 && at <= reached).length)
    expect(made).toBe(6)
    // (a day may also run the day's settlement: other counts may stand beside it)
    expect(r.body.fired['webhook.delivery_attempt']).toBe(made)
    expect(Date.parse(r.body.now) - now).toBeGreaterThanOrEqual(86_400_000)
  }, 30_000)
})
