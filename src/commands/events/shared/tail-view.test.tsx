import {PassThrough} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {TailModel} from './tail-model.js'
import {ev} from './test-support/events.js'
import {mountTail} from './tail-view.js'
import {HOSTILE, SHOWN} from '../../../output/test-support/hostile.js'

function terminal(columns = 140) {
  const stdout = Object.assign(new PassThrough(), {isTTY: true, columns, rows: 20}) as unknown as NodeJS.WriteStream & PassThrough
  const stdin = Object.assign(new PassThrough(), {isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin}) as unknown as NodeJS.ReadStream & PassThrough
  let written = ''
  stdout.on('data', (d) => (written += d.toString()))
  return {
    stdout,
    stdin,
    all: () => written,
    key: (s: string) => stdin.write(s),
  }
}

const tick = (ms = 80) => new Promise((r) => setTimeout(r, ms))
/** Retries an assertion until it holds (renders land later on a loaded machine), up to `ms`. */
async function eventually(assertion: () => void, ms = 5000) {
  const end = Date.now() + ms
  for (;;) {
    try {
      return assertion()
    } catch (e) {
      if (Date.now() > end) throw e
      await tick(25)
    }
  }
}

describe('tail view', () => {
  it('at 45 columns keeps status and amount and shortens the id; at 160 adds the reference', async () => {
    for (const [columns, wants] of [
      [45, ['succeeded', '€10.01']],
      [160, ['REFERENCE', 'succeeded', '€10.01 EUR']],
    ] as const) {
      const model = new TailModel()
      const t = terminal(columns)
      const done = mountTail(model, {title: 'payment.*', stdout: t.stdout, stdin: t.stdin})
      model.setStatus({state: 'live', mode: 'stream', resumed: false, backfilled: 0})
      model.add({event: ev(1), raw: JSON.stringify(ev(1)), backfilled: false})
      await eventually(() => {
        const out = t.all()
        for (const w of wants) expect(out, `${columns} columns`).toContain(w)
      })
      t.key('q')
      await done
    }
  })


  it('shows events as they arrive, marks backfilled ones, pauses, inspects and quits', async () => {
    const model = new TailModel()
    const t = terminal()
    const done = mountTail(model, {title: 'payment.* · api.test', stdout: t.stdout, stdin: t.stdin})
    await eventually(() => expect(t.all()).toContain('Waiting for events'))
    model.setStatus({state: 'live', mode: 'stream', resumed: false, backfilled: 0})
    model.add({event: ev(1), raw: JSON.stringify(ev(1)), backfilled: false})
    model.add({event: ev(2, 'payment.failed'), raw: JSON.stringify(ev(2)), backfilled: true})
    await eventually(() => {
      const out = t.all()
      expect(out).toContain('● live')
      expect(out).toContain('pay_1')
      expect(out).toContain('€10.01 EUR')
      expect(out).toContain('↺ ')
      expect(out).toContain('payment.failed')
    })

    // pause: new events are held and counted, then shown on resume
    t.key(' ')
    await tick()
    model.add({event: ev(3), raw: JSON.stringify(ev(3)), backfilled: false})
    await eventually(() => expect(t.all()).toContain('PAUSED (1 new)'))
    // the footer counts what is held back too
    await eventually(() => expect(t.all()).toContain('1 held back'))
    t.key(' ')
    await eventually(() => expect(model.rows.map((r) => r.event.id)).toEqual(['evt_1', 'evt_2', 'evt_3']))

    // move up twice to evt_1 and inspect its JSON
    t.key('\u001B[A')
    await tick()
    t.key('\u001B[A')
    await tick()
    t.key('\r')
    await eventually(() => {
      const out = t.all()
      expect(out).toContain('"id": "evt_1"')
      expect(out).toContain('"amount": 1001')
    })
    // back, then a disconnect shows in the header
    t.key('\u001B')
    await tick(150)
    model.setStatus({state: 'disconnected', reason: 'connection refused', retryInMs: 2000, attempt: 1})
    await eventually(() => expect(t.all()).toContain('disconnected: connection refused — retrying in 2.0s'))
    model.setStatus({state: 'live', mode: 'stream', resumed: true, backfilled: 2})
    await eventually(() => expect(t.all()).toMatch(/reconnected, backfilled 2 at \d\d:\d\d:\d\d/))
    t.key('q')
    await done
  })

  it("shows control characters in an event's data in caret notation, in its row and its JSON", async () => {
    const model = new TailModel()
    const t = terminal(200)
    const done = mountTail(model, {title: 'payment.*', stdout: t.stdout, stdin: t.stdin})
    model.setStatus({state: 'live', mode: 'stream', resumed: false, backfilled: 0})
    const e = ev(1)
    Object.assign(e.data.object as Record<string, unknown>, {reference: HOSTILE})
    model.add({event: e, raw: JSON.stringify(e), backfilled: false})
    await eventually(() => expect(t.all()).toContain(SHOWN))
    // i inspects (and does nothing in the JSON view: pressed until the handler that knows the row has it)
    const json = '"reference": "Ada\\u001b[2J\\u001b]0;pwned\\u0007\\rEve^[[31m<U+202E>"'
    for (let i = 0; i < 50 && !t.all().includes(json); i++) {
      t.key('i')
      await tick(100)
    }
    // the JSON escapes C0 itself; the C1 CSI and the right-to-left override it leaves are shown
    expect(t.all()).toContain(json)
    const out = t.all()
    for (const raw of ['Ada\u001b[2J', '\u001b]0;pwned', '\rEve', '\u009b', '\u202e']) expect(out.includes(raw), JSON.stringify(raw)).toBe(false)
    // q leaves the JSON, then the view (Ink binds a key handler after it draws: q until it is gone)
    let quit = false
    void done.then(() => (quit = true))
    for (let i = 0; i < 50 && !quit; i++) {
      t.key('q')
      await tick(100)
    }
    await done
  })
})
