// End-to-end for events and webhooks: the CLI against an engine running in this process on a
// fixed free port (so it can be restarted under a running `gw events tail`), with HOME and
// XDG_CONFIG_HOME in a temp dir. One-shot commands run in this process
// (src/base/test-support/cli-in-process.ts); the commands left running (listen, tail) are the built CLI
// (`node bin/run.js`, from dist/ — `npm test` builds first), and the live view is driven in a
// real pseudo-terminal through tmux.
import {execFileSync, spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer} from 'node:http'
import {createServer as createHttpsServer} from 'node:https'
import {createServer as createNetServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {GwEvent, ListEnvelope} from '../src/api/types.js'
import {startEngine, type EngineHandle} from '../src/engine/index.js'
import {localEnginePaths} from '../src/local-engine.js'
import {runInProcess, uninstallInProcess} from '../src/base/test-support/cli-in-process.js'
import type {CliRun} from './support/cli-snapshot.js'

const ROOT = resolve(import.meta.dirname, '..')
const BIN = join(ROOT, 'bin', 'run.js')

// the package entry as merchants import it (the built dist/index.js)
type Pkg = typeof import('../src/index.js')
let pkg: Pkg

let engine: EngineHandle
let port: number
let dataDir: string
let home: string
let agent: Agent
const children: ChildProcessWithoutNullStreams[] = []
const servers: {close(cb?: () => void): unknown; closeAllConnections?(): void}[] = []

function env(extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_') && k !== 'NO_COLOR') out[k] = v
  return {...out, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_DATA_DIR: dataDir, GW_NO_KEYRING: '1', ...extra}
}

/** `gw ARGS` in this process */
const gw = (args: string[]): Promise<CliRun> => runInProcess(args, {env: env()})

/** A long-running gw command with its output so far. */
function gwLive(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {cwd: ROOT, env: env()})
  children.push(child)
  const out = {stdout: '', stderr: '', exited: null as number | null}
  child.stdout.on('data', (d) => (out.stdout += d))
  child.stderr.on('data', (d) => (out.stderr += d))
  const closed = new Promise<number>((r) => child.on('close', (code, signal) => r((out.exited = code ?? (signal ? 128 : -1)))))
  return {child, out, closed}
}

async function until<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, everyMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

async function api<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await request(engine.baseUrl + path, {
    method,
    headers: {authorization: `Bearer ${engine.secretKey}`, 'content-type': 'application/json', ...(method === 'POST' ? {'idempotency-key': `e2e-${Math.random()}`} : {})},
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher: agent,
  })
  const text = await res.body.text()
  if (res.statusCode >= 400 && res.statusCode !== 402) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`)
  return JSON.parse(text) as T
}

const card = {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2035, cvc: '123'}}
const pay = (amount = 1234) => api<{id: string}>('POST', '/payments', {amount, currency: 'EUR', payment_method: 'card', payment_method_data: card})

async function newestEventId(): Promise<string | null> {
  return (await api<ListEnvelope<GwEvent>>('GET', '/events?limit=1')).data[0]?.id ?? null
}

/** Every event after `after`, oldest first, optionally of a type prefix. */
async function eventsAfter(after: string | null, prefix = ''): Promise<GwEvent[]> {
  const out: GwEvent[] = []
  let cursor = after
  for (;;) {
    const page = await api<ListEnvelope<GwEvent>>('GET', `/events?limit=100${cursor ? `&ending_before=${cursor}` : ''}`)
    out.push(...[...page.data].reverse())
    if (!page.has_more || !page.data.length) break
    cursor = page.data[0]!.id
    if (!after) break
  }
  return out.filter((e) => e.type.startsWith(prefix))
}

interface Hit {
  body: string
  headers: IncomingHttpHeaders
  at: number
}

async function freePort(): Promise<number> {
  return new Promise((r) => {
    const s = createNetServer()
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as {port: number}).port
      s.close(() => r(p))
    })
  })
}

async function httpReceiver(status: () => number = () => 200, listenPort = 0) {
  const hits: Hit[] = []
  const server: HttpServer = createHttpServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      hits.push({body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, at: Date.now()})
      res.writeHead(status()).end()
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(listenPort, '127.0.0.1', r))
  return {hits, port: (server.address() as {port: number}).port, server}
}

async function startOurEngine() {
  engine = await startEngine({dataDir, port, host: '127.0.0.1', durability: 'normal', log: () => {}})
  agent = new Agent({connect: {ca: engine.caCertPem}})
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'commands', 'events', 'tail.js')) || !existsSync(join(ROOT, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing: run `npm run build` first (`npm test` does).')
  }
  pkg = (await import(join(ROOT, 'dist', 'index.js'))) as Pkg
  home = mkdtempSync(join(tmpdir(), 'gw-events-e2e-home-'))
  dataDir = mkdtempSync(join(tmpdir(), 'gw-events-e2e-engine-'))
  port = await freePort()
  await startOurEngine()
  const login = await gw(['login', '--local'])
  expect(login.code, login.stderr).toBe(0)
}, 60_000)

afterAll(async () => {
  uninstallInProcess()
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
  for (const s of servers) {
    s.closeAllConnections?.()
    s.close()
  }
  await agent?.close()
  await engine?.close()
  rmSync(home, {recursive: true, force: true})
  rmSync(dataDir, {recursive: true, force: true})
})

describe('webhook endpoints and gw trigger', () => {
  it('a local HTTPS receiver gets a correctly signed event within 1 s of `gw trigger payment.succeeded`', async () => {
    const tls = localEnginePaths(dataDir)
    const hits: Hit[] = []
    const server = createHttpsServer({key: readFileSync(tls.serverKey), cert: readFileSync(tls.serverCert)}, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c) => chunks.push(c))
      req.on('end', () => {
        hits.push({body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, at: Date.now()})
        res.writeHead(200).end('ok')
      })
    })
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const rport = (server.address() as {port: number}).port

    const created = await gw(['webhooks', 'create', '--url', `https://127.0.0.1:${rport}/hook`, '--events', 'payment.succeeded', '--json'])
    expect(created.code, created.stderr).toBe(0)
    const ep = JSON.parse(created.stdout) as {id: string; secret: string}
    expect(ep.secret).toMatch(/^whsec_/)
    const human = await gw(['webhooks', 'get', ep.id])
    expect(human.stdout).toContain(`https://127.0.0.1:${rport}/hook`)
    expect(human.stdout).not.toContain(ep.secret)

    const trig = await gw(['trigger', 'payment.succeeded'])
    const finished = Date.now()
    expect(trig.code, trig.stderr).toBe(0)
    const payId = /POST \/v1\/payments\s+(pay_\w+)\s+succeeded/.exec(trig.stdout)![1]!
    const hit = await until('the webhook delivery', () => hits.find((h) => (JSON.parse(h.body) as GwEvent).data.object && (JSON.parse(h.body).data.object as {id: string}).id === payId), 1000, 10)
    expect(hit.at - finished).toBeLessThanOrEqual(1000)
    // verified with the package's export, over the raw bytes, at this machine's clock
    const v = pkg.verifySignature({payload: Buffer.from(hit.body), header: hit.headers['service-signature'], secret: ep.secret})
    expect(Math.abs(v.timestamp - Date.now() / 1000)).toBeLessThan(300)
    expect(JSON.parse(hit.body)).toMatchObject({type: 'payment.succeeded', data: {object: {id: payId, status: 'succeeded'}}})
    // the same bytes as the event log
    const evtId = JSON.parse(hit.body).id as string
    const fromLog = await gw(['events', 'get', evtId, '--json'])
    expect(JSON.parse(fromLog.stdout)).toEqual(JSON.parse(hit.body))
    // `gw webhooks verify` agrees, and explains a pretty-printed copy
    const {writeFileSync} = await import('node:fs')
    const raw = join(home, 'body.json')
    writeFileSync(raw, hit.body)
    const ok = await gw(['webhooks', 'verify', '--secret', ep.secret, '--header', String(hit.headers['service-signature']), '--payload-file', raw])
    expect(ok.code, ok.stdout).toBe(0)
    writeFileSync(raw, JSON.stringify(JSON.parse(hit.body), null, 2))
    const pretty = await gw(['webhooks', 'verify', '--secret', ep.secret, '--header', String(hit.headers['service-signature']), '--payload-file', raw])
    expect(pretty.code).toBe(1)
    expect(pretty.stdout).toContain('re-serialised')

    const deleted = await gw(['webhooks', 'delete', ep.id, '--yes'])
    expect(deleted.code).toBe(0)
  })

  it('a failing receiver sees the retry after `gw clock advance 1m`', async () => {
    const tls = localEnginePaths(dataDir)
    const hits: Hit[] = []
    const server = createHttpsServer({key: readFileSync(tls.serverKey), cert: readFileSync(tls.serverCert)}, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c) => chunks.push(c))
      req.on('end', () => {
        hits.push({body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, at: Date.now()})
        res.writeHead(503).end('not now')
      })
    })
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const rport = (server.address() as {port: number}).port
    const created = await gw(['webhooks', 'create', '--url', `https://localhost:${rport}/fail`, '--events', 'payment.canceled', '--json'])
    const ep = JSON.parse(created.stdout) as {id: string; secret: string}

    const trig = await gw(['trigger', 'payment.canceled'])
    expect(trig.code, trig.stderr).toBe(0)
    await until('the first attempt', () => hits.length >= 1, 2000)
    await new Promise((r) => setTimeout(r, 300))
    expect(hits).toHaveLength(1) // the retry waits for the engine clock
    const deliveries = await gw(['webhooks', 'deliveries', ep.id, '--json'])
    expect(JSON.parse(deliveries.stdout).data[0]).toMatchObject({status: 'failed_retrying', attempts: [{status_code: 503}]})

    const adv = await gw(['clock', 'advance', '1m'])
    expect(adv.code).toBe(0)
    await until('the retry', () => hits.length >= 2, 3000)
    const [a, b] = hits.map((h) => JSON.parse(h.body) as GwEvent)
    expect(b!.id).toBe(a!.id)
    const t1 = Number(/t=(\d+)/.exec(String(hits[0]!.headers['service-signature']))![1])
    const t2 = Number(/t=(\d+)/.exec(String(hits[1]!.headers['service-signature']))![1])
    // signed at the wall clock of each attempt, not the engine clock (a minute ahead after the advance),
    // so a receiver checking the 5-minute tolerance against its own clock accepts the retry
    // (docs/api.md#webhook-signatures)
    expect(t2 - t1).toBeLessThan(60)
    expect(Math.abs(t2 - Date.now() / 1000)).toBeLessThan(300)
    expect(pkg.verifySignature({payload: hits[1]!.body, header: hits[1]!.headers['service-signature'], secret: ep.secret, tolerance: 0}).timestamp).toBe(t2)

    // resend to it explicitly: one more attempt
    const resent = await gw(['events', 'resend', a!.id, '--endpoint', ep.id])
    expect(resent.code, resent.stderr).toBe(0)
    await until('the resend', () => hits.length >= 3, 3000)
    await gw(['webhooks', 'update', ep.id, '--disable'])
  })
})

describe('gw listen', () => {
  it('killed and restarted, it loses no event created in between', async () => {
    const secret = (await gw(['listen', '--print-secret'])).stdout.trim()
    expect(secret).toMatch(/^whsec_/)
    const rx = await httpReceiver()
    const before = await newestEventId()
    const args = ['listen', '--forward-to', `127.0.0.1:${rx.port}/webhooks`, '--events', 'payment.*', '--json']

    const first = gwLive(args)
    await until('listen to be ready', () => first.out.stderr.includes('Ready.'), 15_000)
    expect(first.out.stderr).toContain(secret)
    for (let i = 0; i < 3; i++) await pay(1000 + i)
    await until('the first deliveries', () => new Set(rx.hits.map((h) => JSON.parse(h.body).id)).size >= 3, 5000)
    first.child.kill('SIGKILL')
    await first.closed

    // created while nothing listens
    for (let i = 0; i < 4; i++) await pay(2000 + i)
    const trig = await gw(['trigger', 'payment.canceled'])
    expect(trig.code).toBe(0)

    const second = gwLive(args)
    await until('listen to be ready again', () => second.out.stderr.includes('Ready.'), 15_000)
    expect(second.out.stderr).toMatch(/Backfilled \d+ events? missed since the last run/)
    for (let i = 0; i < 2; i++) await pay(3000 + i)

    const expected = (await eventsAfter(before, 'payment.')).map((e) => e.id)
    // 3 + 4 payments, the canceled authorization, 2 more payments
    expect(expected.length).toBeGreaterThanOrEqual(3 + 4 + 1 + 2)
    await until('every event forwarded', () => expected.every((id) => rx.hits.some((h) => JSON.parse(h.body).id === id)), 10_000)
    second.child.kill('SIGTERM')
    expect(await second.closed).toBe(0)

    const got = new Set(rx.hits.map((h) => JSON.parse(h.body).id as string))
    expect([...got].sort()).toEqual([...expected].sort())
    for (const h of rx.hits) expect(pkg.verifySignature({payload: h.body, header: h.headers['service-signature'], secret}).timestamp).toBeGreaterThan(0)
    const lines = second.out.stdout.trim().split('\n').map((l) => JSON.parse(l) as {event: string; ok: boolean; backfilled: boolean})
    expect(lines.some((l) => l.backfilled && l.ok)).toBe(true)
    expect(lines.some((l) => !l.backfilled && l.ok)).toBe(true)
  })

  it('says when the local server is down, keeps the events, and delivers them when it is back', async () => {
    const rxPort = await freePort()
    const first = gwLive(['listen', '--forward-to', `localhost:${rxPort}/hook`, '--events', 'payment.succeeded', '--from-now'])
    await until('listen to be ready', () => first.out.stderr.includes('Ready.'), 15_000)
    const p = await pay(4242)
    await until('the down notice', () => first.out.stderr.includes(`localhost:${rxPort} is down`), 5000)
    const rx = await httpReceiver(() => 200, rxPort)
    await until('the held event', () => rx.hits.some((h) => (JSON.parse(h.body).data.object as {id: string}).id === p.id), 10_000)
    await until('the back-up notice', () => first.out.stderr.includes('is answering again'), 2000)
    first.child.kill('SIGTERM')
    expect(await first.closed).toBe(0)
    expect(first.out.stdout).toMatch(/payment\.succeeded\s+evt_\w+ {2}\[200\]/)
  })
})

describe('gw events tail', () => {
  it('in a pipe: NDJSON; across an engine restart it says so on stderr and backfills, marking those lines', async () => {
    const tail = gwLive(['events', 'tail', '--events', 'payment.*'])
    await until('the tail to start', () => tail.out.stderr.includes('Tailing payment.*'), 15_000)
    const p1 = await pay(5001)
    await until('a live line', () => tail.out.stdout.includes(p1.id), 3000)

    // the engine goes away and comes back on the same port. The tail retries with backoff; once
    // it has failed twice it waits a second, and the event made meanwhile must come through the
    // backfill (GET /events), marked as such
    await agent.close()
    await engine.close()
    await until('the disconnect notice', () => tail.out.stderr.includes('Disconnected from'), 5000)
    await until('a second failed attempt', () => tail.out.stderr.includes('(attempt 2)'), 20_000, 5)
    await startOurEngine()
    const p2 = await pay(5002)
    await until('the reconnect notice', () => tail.out.stderr.includes('Reconnected'), 20_000)
    expect(tail.out.stderr).toMatch(/Reconnected to 127\.0\.0\.1:\d+; backfilled 1 event \(marked "backfilled": true\)/)
    const p3 = await pay(5003)
    await until('the later line', () => tail.out.stdout.includes(p3.id), 5000)
    tail.child.kill('SIGTERM')
    expect(await tail.closed).toBe(0)

    const lines = tail.out.stdout.trim().split('\n').map((l) => JSON.parse(l) as GwEvent & {backfilled?: boolean})
    expect(lines.every((l) => l.object === 'event' && l.type.startsWith('payment.'))).toBe(true)
    const byPay = (id: string) => lines.filter((l) => (l.data.object as {id: string}).id === id)
    expect(byPay(p1.id).every((l) => !l.backfilled)).toBe(true)
    expect(byPay(p2.id).map((l) => [l.type, l.backfilled])).toEqual([['payment.succeeded', true]])
    expect(byPay(p3.id).every((l) => !l.backfilled)).toBe(true)
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length)
  }, 60_000)

  it('in a pseudo-terminal (tmux): the live view shows new events at once, inspects one, and quits with q', async () => {
    const sock = `gw-e2e-${process.pid}`
    const tmux = (...a: string[]) => execFileSync('tmux', ['-L', sock, ...a], {encoding: 'utf8'})
    const e = env()
    const vars = ['HOME', 'XDG_CONFIG_HOME', 'GW_DATA_DIR', 'GW_NO_KEYRING', 'PATH'].map((k) => `${k}=${JSON.stringify(e[k] ?? '')}`).join(' ')
    const cmd = `cd ${JSON.stringify(ROOT)} && env -u CI -u GITHUB_ACTIONS -u CONTINUOUS_INTEGRATION ${vars} ${JSON.stringify(process.execPath)} bin/run.js events tail --events 'payment.*'; echo "TAIL EXITED $?"; sleep 30`
    tmux('new-session', '-d', '-x', '200', '-y', '50', '-s', 'tail', cmd)
    const screen = () => tmux('capture-pane', '-p', '-t', 'tail')
    try {
      await until('the view', () => screen().includes('● live'), 15_000, 50)
      const started = Date.now()
      const p = await pay(6001)
      await until('the event on screen', () => screen().includes(p.id), 2000, 10)
      const latency = Date.now() - started
      expect(latency).toBeLessThan(1000)
      const s = screen()
      expect(s).toMatch(new RegExp(`\\d\\d:\\d\\d:\\d\\d\\s+payment\\.succeeded\\s+${p.id}\\s+succeeded\\s+€60\\.01 EUR`))

      tmux('send-keys', '-t', 'tail', 'Up')
      tmux('send-keys', '-t', 'tail', 'Down')
      tmux('send-keys', '-t', 'tail', 'Enter')
      await until('the JSON of the event', () => screen().includes(`"id": "${p.id}"`), 3000, 50)
      tmux('send-keys', '-t', 'tail', 'Escape')
      await until('the list again', () => screen().includes('enter inspect'), 3000, 50)
      tmux('send-keys', '-t', 'tail', ' ')
      await until('pause', () => screen().includes('PAUSED'), 3000, 50)
      const held = await pay(6002)
      await until('the held count', () => screen().includes('PAUSED (1 new)'), 3000, 50)
      expect(screen()).not.toContain(held.id)
      tmux('send-keys', '-t', 'tail', ' ')
      await until('the held event', () => screen().includes(held.id), 3000, 50)
      tmux('send-keys', '-t', 'tail', 'q')
      await until('the tail to exit', () => screen().includes('TAIL EXITED 0'), 3000, 50)
    } finally {
      try {
        tmux('kill-server')
      } catch {
        // already gone
      }
    }
  }, 60_000)
})
