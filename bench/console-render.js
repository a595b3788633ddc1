// What one redraw of `gw console` costs, without tmux, an engine or the network: the built App
// (dist/) mounted by Ink on a fake 120×40 terminal, its client a fake serving 10,000 payments
// (a page of 100 answers after 30 ms, about what the engine takes) and an event stream at a steady rate. Prints, per part:
// commits drawn by Ink (its onRender), Ink's render ms per frame (its own renderTime), and the
// process's CPU ms per key press (one key a read, and five in one read) / per second. In-process and single-threaded, so CPU figures
// hold on a shared machine; a micro-bench for changes to the views, not a target.
// `npm run build && node bench/console-render.js` (about 20 s). Knobs: RENDER_PRESSES (120),
// RENDER_EVENTS_RATE (1000), RENDER_EVENTS_MS (5000), RENDER_IDLE_MS (5000), RENDER_PAGE_MS (30), RENDER_DIST.
import {PassThrough, Writable} from 'node:stream'
import {pathToFileURL} from 'node:url'

process.env.NODE_ENV ??= 'production'
// RENDER_DIST=<another worktree's dist>: the same parts against another build (A/B in the same minutes)
const DIST = process.env.RENDER_DIST ? pathToFileURL(`${process.env.RENDER_DIST}/`).href : new URL('../dist/', import.meta.url).href
const {ConsoleSession} = await import(`${DIST}console/session.js`)
const {makeTheme} = await import(`${DIST}console/theme.js`)
const {mountConsole} = await import(`${DIST}console/app.js`)

const PRESSES = Number(process.env.RENDER_PRESSES ?? 120)
const EVENTS_RATE = Number(process.env.RENDER_EVENTS_RATE ?? 1000)
const EVENTS_MS = Number(process.env.RENDER_EVENTS_MS ?? 5000)
const IDLE_MS = Number(process.env.RENDER_IDLE_MS ?? 5000)
const PAGE_MS = Number(process.env.RENDER_PAGE_MS ?? 30)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const T0 = Date.parse('2026-11-27T10:00:00Z')

const STATUSES = ['succeeded', 'failed', 'requires_capture', 'canceled', 'processing']
const payments = Array.from({length: 10_000}, (_, i) => ({
  id: `pay_${String(10_000 - i).padStart(24, '0')}`,
  object: 'payment',
  status: STATUSES[i % STATUSES.length],
  amount: 1000 + i,
  currency: i % 3 ? 'EUR' : 'USD',
  payment_method: 'card',
  reference: `order-${10_000 - i}`,
  created_at: new Date(T0 - i * 60_000).toISOString(),
}))

let seq = 0
const event = () => {
  const n = ++seq
  const at = new Date().toISOString()
  return {id: `evt_${String(n).padStart(24, '0')}`, object: 'event', type: 'payment.succeeded', created_at: at, data: {object: {id: `pay_${String(n).padStart(24, '0')}`, object: 'payment', status: 'succeeded', amount: 1250, currency: 'EUR', reference: `order-${n}`}}}
}

function fakeClient() {
  const page = async (params) => {
    await sleep(PAGE_MS)
    const from = params.starting_after ? payments.findIndex((p) => p.id === params.starting_after) + 1 : 0
    const data = payments.slice(from, from + (params.limit ?? 10))
    return {object: 'list', data, has_more: from + data.length < payments.length}
  }
  const empty = async () => ({object: 'list', data: [], has_more: false})
  return {
    baseUrl: 'https://127.0.0.1:1/v1',
    request: async () => ({headers: {'gw-engine-time': new Date().toISOString()}, body: {}}),
    apiKeys: {self: async () => ({id: 'key_1', type: 'secret', livemode: false})},
    accounts: {current: async () => ({id: 'acct_bench', name: 'Bench'})},
    testHelpers: {clock: async () => ({now: new Date().toISOString(), frozen: false})},
    payments: {list: page},
    events: {list: empty, iterate: async function* () {}},
    disputes: {list: empty},
    webhookEndpoints: {list: empty},
    async openStream(_path, {signal, onOpen, onChunk}) {
      onOpen?.()
      const enc = new TextEncoder()
      // events at EVENTS_RATE, in 10 ms chunks, while `streaming`
      while (!signal.aborted) {
        await sleep(10)
        if (!streaming) continue
        const n = Math.round(EVENTS_RATE / 100)
        let text = ''
        for (let i = 0; i < n; i++) {
          const e = event()
          text += `id: ${e.id}\ndata: ${JSON.stringify(e)}\n\n`
        }
        onChunk(enc.encode(text))
      }
    },
  }
}
let streaming = false

function terminal() {
  let bytes = 0
  const stdout = Object.assign(
    new Writable({
      write(chunk, _enc, cb) {
        bytes += chunk.length
        cb()
      },
    }),
    {columns: 120, rows: 40, isTTY: true},
  )
  const stdin = Object.assign(new PassThrough(), {isTTY: true, setRawMode() {}, ref() {}, unref() {}})
  stdin.setEncoding('utf8')
  return {stdout, stdin, bytes: () => bytes}
}

const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

async function run(view, part) {
  const session = new ConsoleSession({client: fakeClient(), apiKey: 'sk_test_bench', profile: 'bench'})
  await session.start()
  const term = terminal()
  const renders = []
  const app = await mountConsole({session, theme: makeTheme({}, {isTTY: true}), initial: [{view: 'home'}, {view}], stdout: term.stdout, stdin: term.stdin, stderr: term.stdout, onRender: ({renderTime}) => renders.push(renderTime)})
  try {
    await sleep(1500)
    return await part({renders, press: (k) => term.stdin.write(k), bytes: term.bytes})
  } finally {
    app.unmount()
    session.close()
    await app.done.catch(() => {})
  }
}

const sum = (a) => a.reduce((x, y) => x + y, 0)
const f1 = (n) => n.toFixed(1)

function window(r, start) {
  const n0 = r.renders.length
  const c0 = cpuMs()
  const w0 = performance.now()
  const b0 = r.bytes()
  return () => {
    const times = r.renders.slice(n0)
    return {renders: times.length, renderMs: sum(times), cpu: cpuMs() - c0, wall: performance.now() - w0, bytes: r.bytes() - b0, start}
  }
}

// keys: PageDown (every tenth press Down), 100 ms apart
const keys = await run('payments', async (r) => {
  const done = window(r)
  const each = []
  for (let i = 0; i < PRESSES; i++) {
    const c0 = cpuMs()
    r.press(i % 10 === 9 ? '\u001b[B' : '\u001b[6~')
    await sleep(100)
    each.push(cpuMs() - c0)
  }
  return {...done(), each: each.sort((a, b) => a - b)}
})
const median = (a) => a[Math.floor(a.length / 2)]
console.log(`keys: ${PRESSES} presses: ${f1(keys.renders / PRESSES)} frames drawn per press, Ink ${f1(keys.renderMs / Math.max(1, keys.renders))} ms per frame; CPU ${f1(keys.cpu / PRESSES)} ms per press (median ${f1(median(keys.each))}, p10 ${f1(keys.each[Math.floor(keys.each.length / 10)])}); ${Math.round(keys.bytes / PRESSES)} bytes written per press`)

// keys in one read: five Downs written at once (as keys typed ahead or sent over SSH arrive), 300 ms apart
const READS = Math.max(1, Math.round(PRESSES / 5))
const chunked = await run('payments', async (r) => {
  const done = window(r)
  for (let i = 0; i < READS; i++) {
    r.press('\u001b[B'.repeat(5))
    await sleep(300)
  }
  return done()
})
console.log(`keys in one read: ${READS} reads of 5 Downs: ${f1(chunked.renders / READS)} frames drawn per read, Ink ${f1(chunked.renderMs / Math.max(1, chunked.renders))} ms per frame; CPU ${f1(chunked.cpu / READS)} ms per read (${f1(chunked.cpu / READS / 5)} ms per key)`)

const idle = await run('payments', async (r) => {
  const done = window(r)
  await sleep(IDLE_MS)
  return done()
})
console.log(`idle (Payments): ${f1(idle.renders / (idle.wall / 1000))} frames/s, Ink ${f1(idle.renderMs / Math.max(1, idle.renders))} ms per frame; CPU ${f1(idle.cpu / (idle.wall / 1000))} ms per second (${f1((100 * idle.cpu) / idle.wall)}% of a core)`)

const events = await run('events', async (r) => {
  streaming = true
  const done = window(r)
  await sleep(EVENTS_MS)
  streaming = false
  return done()
})
console.log(`events at ${EVENTS_RATE}/s: ${f1(events.renders / (events.wall / 1000))} frames/s, Ink ${f1(events.renderMs / Math.max(1, events.renders))} ms per frame; CPU ${f1((100 * events.cpu) / events.wall)}% of a core (the fake stream's JSON included)`)
process.exit(0)
