// `gw console`'s Events and Webhooks views in a real terminal (tmux), against one engine in this
// process and a local HTTPS receiver that answers 200 or 503 as the test says. Events: they
// arrive live while watched; pause holds and counts them and resume shows them; a filter by
// object; an event's payload and deliveries; a resend seen as a new delivery; the engine stopped
// and started again under the view (the rows stay, the stream resumes). Webhooks: an
// endpoint failing, then disabled, as the engine clock moves; enabled again and replayed, and the
// replayed deliveries seen succeeding.
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {createServer, type Server} from 'node:https'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {WebhookEndpoint} from '../src/api/types.js'
import {GwClient} from '../src/client/index.js'
import {startEngine, type EngineHandle} from '../src/engine/index.js'
import {localEnginePaths} from '../src/local-engine.js'
import {cliEnv, REPO, runCli, snapshotCli} from './support/cli-snapshot.js'
import {openConsoleTerm, type ConsoleTerm} from './support/console-term.js'

let ROOT: string
let home: string
let dataDir: string
let engine: EngineHandle
let api: GwClient
let receiver: Server
let receiverUrl: string
/** what the receiver answers: 200 or 503 */
let answer = 200
let hits = 0
let term: ConsoleTerm | undefined

const SOCKET = `gw-console-events-${process.pid}`
const card = {type: 'card' as const, card: {number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123'}}
const pay = (amount: number, reference: string) => api.payments.create({amount, currency: 'EUR', payment_method: 'card', payment_method_data: card, reference})

function open(args: string[]): ConsoleTerm {
  term = openConsoleTerm(SOCKET, {root: ROOT, home, dataDir, args, size: {x: 120, y: 40}})
  return term
}

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'console.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).')
  ROOT = snapshotCli('gw-e2e-console-events-cli-')
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-console-events-home-'))
  dataDir = mkdtempSync(join(tmpdir(), 'gw-e2e-console-events-engine-'))
  engine = await startEngine({dataDir, port: 0, durability: 'normal', log: () => {}})
  api = new GwClient({baseUrl: engine.baseUrl, apiKey: engine.secretKey, ca: engine.caCertPem, maxRetries: 0})
  const login = await runCli(join(ROOT, 'bin', 'run.js'), ['login', '--local'], {cwd: ROOT, env: cliEnv(home, dataDir)})
  expect(login.code, login.stderr).toBe(0)
  const tls = localEnginePaths(dataDir)
  receiver = createServer({key: readFileSync(tls.serverKey), cert: readFileSync(tls.serverCert)}, (req, res) => {
    req.resume()
    req.on('end', () => {
      hits++
      res.writeHead(answer).end(answer === 200 ? 'ok' : 'not now')
    })
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  receiverUrl = `https://localhost:${(receiver.address() as {port: number}).port}/hooks`
}, 60_000)

afterEach(() => {
  term?.close()
  term = undefined
})

afterAll(async () => {
  term?.close()
  await new Promise((r) => receiver?.close(r))
  receiver?.closeAllConnections()
  await engine?.close()
  for (const dir of [home, dataDir, ROOT]) if (dir) rmSync(dir, {recursive: true, force: true})
})

describe('gw console: Events', () => {
  it('events arrive live; pause holds and counts them; a filter; an event opens with its payload and deliveries; a resend is a new delivery; the engine restarted, the rows stay and the stream goes on', async () => {
    answer = 200
    const ep = await api.webhookEndpoints.create({url: receiverUrl, enabled_events: ['payment.*']})
    const t = open(['--view', 'events'])
    // the view's own "● live" (its stream is open), not the status line's (the engine answers): on an
    // empty log the stream starts without Last-Event-ID, so only events committed after it opened come through it
    await t.waitForScreen(/every event · \/ to filter +● live/)

    // live while watching
    const p1 = await pay(1250, 'EV-ONE')
    await t.waitForScreen(new RegExp(`payment\\.succeeded +${p1.id}`))

    // pause: new events are held and counted, not shown; resume shows them
    t.keys('p')
    await t.waitForScreen('⏸ paused · 0 held')
    const p2 = await pay(2500, 'EV-TWO')
    const held = await t.waitForScreen(/paused · [1-9]\d* held/)
    expect(held).not.toContain(p2.id)
    t.keys('p')
    await t.waitForScreen(new RegExp(`payment\\.succeeded +${p2.id}`))
    expect(t.screen()).toContain('● live')

    // the filter: one payment's story
    t.keys('/')
    await t.waitForScreen('type prefix (payment.*)')
    t.type(p1.id)
    t.keys('Enter')
    const only = await t.waitForScreen(`about ${p1.id}`)
    await t.waitForScreen(new RegExp(`payment\\.succeeded +${p1.id}`))
    expect(t.screen()).not.toContain(p2.id)
    void only

    // the newest of its events opens: the payload and its delivery to the endpoint
    t.keys('Enter')
    const detail = await t.waitForScreen(/DELIVERIES \(1\)/)
    expect(detail).toContain(`"id": "${p1.id}"`)
    await t.waitForScreen(/succeeded +1 +HTTP 200 · \d+ ms/)
    // the payload scrolls
    t.keys('NPage')
    await t.waitForScreen('"reference": "EV-ONE"')

    // resend to that endpoint: asked, confirmed, and seen as a second delivery
    t.keys('s')
    await t.waitForScreen('to which endpoint? Enter: every subscribed endpoint')
    t.type(ep.id)
    t.keys('Enter')
    await t.waitForScreen('Continue? [y/N]')
    t.type('y')
    t.keys('Enter')
    await t.waitForScreen(/1 new delivery: whd_\w+ to wh_/)
    await t.waitForScreen(/DELIVERIES \(2\)/)

    t.keys('Escape')
    await t.waitForScreen(`about ${p1.id}`)

    // the engine goes away: the rows stay, the view says the stream is down; back, it goes on
    t.keys('/')
    await t.waitForScreen('Enter filter · Esc cancel')
    t.keys('C-u')
    t.keys('Enter')
    await t.waitForScreen(new RegExp(`payment\\.succeeded +${p2.id}`))
    const port = Number(new URL(engine.baseUrl).port)
    await engine.close()
    const down = await t.waitForScreen(/Stream down since/)
    expect(down).toContain(p2.id)
    await t.waitForScreen('Reconnecting to')
    engine = await startEngine({dataDir, port, durability: 'normal', log: () => {}})
    api = new GwClient({baseUrl: engine.baseUrl, apiKey: engine.secretKey, ca: engine.caCertPem, maxRetries: 0})
    await t.waitForScreen('● live', 30_000)
    const p3 = await pay(3750, 'EV-THREE')
    await t.waitForScreen(new RegExp(`payment\\.succeeded +${p3.id}`))
    expect(t.screen()).toContain(p2.id)

    t.keys('q')
    await t.waitForScreen('EXIT=0')
    await api.webhookEndpoints.delete(ep.id)
  }, 120_000)
})

describe('gw console: Webhooks', () => {
  it('an endpoint failing, then disabled as the clock moves; enabled again and replayed, its deliveries succeed', async () => {
    answer = 503
    const ep: WebhookEndpoint = await api.webhookEndpoints.create({url: receiverUrl, enabled_events: ['*']})
    await pay(990, 'WH-ONE')
    const t = open(['--view', 'webhooks'])
    await t.waitForScreen(ep.id.slice(0, 12))
    await t.waitForScreen(/HTTP 503 · \d+ ms/)

    // three days of failures: failing; past five: disabled (spec §6)
    await api.testHelpers.advanceClock(3 * 86_400, {wait: true})
    await t.waitForScreen(/failing: failing since/)
    // (a new payment after each step: a delivery attempted, and failed, at that time)
    for (let i = 0; i < 4 && !(await api.webhookEndpoints.get(ep.id)).disabled; i++) {
      await api.testHelpers.advanceClock(3 * 86_400, {wait: true})
      await pay(990 + i, `WH-STEP-${i}`)
    }
    await t.waitForScreen(/disabled: no successful delivery since/)

    // the endpoint: its deliveries as `gw webhooks deliveries` shows them
    t.keys('Enter')
    await t.waitForScreen(/DELIVERIES \(latest \d+\)/)
    await t.waitForScreen(/undeliverable .*HTTP 503/)

    // the receiver is fixed: enable, then replay the last 30 days
    answer = 200
    t.keys('E')
    await t.waitForScreen(`enable ${ep.id}`)
    t.type('y')
    t.keys('Enter')
    await t.waitForScreen(`${ep.id} is enabled`)
    const before = hits
    t.keys('R')
    await t.waitForScreen('since how long ago?')
    t.type('30d')
    t.keys('Enter')
    await t.waitForScreen(`This will send ${ep.id} again every event of the last 30d`)
    t.type('y')
    t.keys('Enter')
    await t.waitForScreen(/Replay to wh_\w+: [1-9]\d* queued/)
    await t.waitForScreen(/succeeded +1 +HTTP 200 · \d+ ms/)
    expect(hits).toBeGreaterThan(before)

    t.keys('Escape')
    await t.waitForScreen('Webhook endpoints')
    t.keys('q')
    await t.waitForScreen('EXIT=0')
  }, 120_000)
})
