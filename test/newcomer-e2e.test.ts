// A newcomer's CLI (docs/decisions.md#a-newcomers-cli) end to end: the CLI against an engine in
// this process, with HOME in a temp dir, the way
// a newcomer follows the README — help, every README test card, a retried payment, the request
// log, what a clock advance fired, fixture files, listen to configured endpoints with their own
// secrets, a tail that starts with history. Commands run in this process
// (src/base/test-support/cli-in-process.ts); help and typos (they read the built manifest), a terminal's
// prompt and the commands left running use the built CLI (a snapshot of dist/).
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {stripVTControlCharacters} from 'node:util'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {Payment, TestClock} from '../src/api/types.js'
import {startEngine, type EngineHandle} from '../src/engine/index.js'
import {verifySignature} from '../src/api/webhook-signature.js'
import {runInProcess, uninstallInProcess} from '../src/base/test-support/cli-in-process.js'
import {cliEnv, runCli, snapshotCli, type CliRun} from './support/cli-snapshot.js'

const REPO = resolve(import.meta.dirname, '..')
let ROOT: string
let BIN: string
let engine: EngineHandle
let dataDir: string
let home: string
const children: ChildProcessWithoutNullStreams[] = []
const servers: Server[] = []



const env = (extra: Record<string, string> = {}) => cliEnv(home, dataDir, {NO_COLOR: '1', ...extra})
/** `gw ARGS` in this process */
const gw = (args: string[], stdin = ''): Promise<CliRun> => runInProcess(args, {env: env(), stdin})
/** `node bin/run.js ARGS`: the built CLI, for help and typos */
const gwBuilt = (args: string[], stdin = ''): Promise<CliRun> => runCli(BIN, args, {cwd: ROOT, env: env(), stdin})

/** gw on a pseudo-terminal (util-linux `script`), answering prompts from `input`; gives up after `ms`. */
function gwTty(args: string[], input: string, ms = 20_000): Promise<{out: string; code: number | null; timedOut: boolean}> {
  return new Promise((done, fail) => {
    const cmd = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ')
    const child = spawn('script', ['-qec', cmd, '/dev/null'], {env: env(), cwd: ROOT})
    let out = ''
    let timedOut = false
    const t = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, ms)
    child.stdout.on('data', (d) => (out += d))
    child.on('error', fail)
    child.on('close', (code) => {
      clearTimeout(t)
      done({out: stripVTControlCharacters(out), code, timedOut})
    })
    child.stdin.write(input)
  })
}

function gwLive(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {cwd: ROOT, env: env()})
  children.push(child)
  const out = {stdout: '', stderr: ''}
  child.stdout.on('data', (d) => (out.stdout += d))
  child.stderr.on('data', (d) => (out.stderr += d))
  const closed = new Promise<number>((r) => child.on('close', (code) => r(code ?? -1)))
  return {child, out, closed}
}

async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = fn()
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const json = async <T>(args: string[]) => {
  const r = await gw([...args, '--json'])
  return {r, body: JSON.parse(r.stdout) as T}
}

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'help.js')) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing: run `npm run build` first (`npm test` does).')
  }
  ROOT = snapshotCli('gw-e2e-newcomer-')
  BIN = join(ROOT, 'bin', 'run.js')
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-newcomer-home-'))
  dataDir = mkdtempSync(join(tmpdir(), 'gw-e2e-newcomer-engine-'))
  engine = await startEngine({dataDir, port: 0, durability: 'normal', rateLimit: 0, log: () => {}})
  const login = await gw(['login', '--local'])
  expect(login.code).toBe(0)
}, 60_000)

afterAll(async () => {
  uninstallInProcess()
  for (const c of children) c.kill('SIGKILL')
  for (const s of servers) {
    s.closeAllConnections()
    s.close()
  }
  await engine?.close()
  for (const d of [home, dataDir, ROOT]) if (d) rmSync(d, {recursive: true, force: true})
})

describe('defect 1: help as oclif users expect; typos suggest the nearest', () => {
  it('gw help, gw help payments, gw payments --help, gw help payments create', async () => {
    const root = await gwBuilt(['help'])
    expect(root.code).toBe(0)
    expect(root.stdout).toContain('TOPICS')
    expect(root.stdout).toContain('payments')
    const topic = await gwBuilt(['help', 'payments'])
    expect(topic.code).toBe(0)
    expect(topic.stdout).toContain('payments create')
    const flag = await gwBuilt(['payments', '--help'])
    expect(flag.code).toBe(0)
    expect(flag.stdout).toContain('payments create')
    const cmd = await gwBuilt(['help', 'payments', 'create'])
    expect(cmd.code).toBe(0)
    expect(cmd.stdout).toContain('EXAMPLES')
    expect(cmd.stdout).toContain('--currency')
  })

  it('typos of topics and commands suggest the nearest, in a pipe too', async () => {
    const topicTypo = await gwBuilt(['paymnets', 'list'])
    expect(topicTypo.code).toBe(127)
    expect(topicTypo.stderr).toContain('paymnets list is not a gw command')
    expect(topicTypo.stderr).toContain('Did you mean `gw payments list`?')
    const verbTypo = await gwBuilt(['payments', 'lsit'])
    expect(verbTypo.code).toBe(127)
    expect(verbTypo.stderr).toContain('Did you mean `gw payments list`?')
    const bareTopic = await gwBuilt(['paymnets'])
    expect(bareTopic.stderr).toContain('Did you mean `gw payments`?')
    const helpTypo = await gwBuilt(['help', 'paymnets'])
    expect(helpTypo.code).toBe(127)
    expect(helpTypo.stderr).toContain('Did you mean `gw help payments`?')
  })

  it('on a terminal "Did you mean …? (Y/n)" asks once: y runs it, and it never loops', async () => {
    const yes = await gwTty(['paymnets', 'list', '--limit', '1'], 'y\n')
    expect(yes.timedOut).toBe(false)
    expect(yes.out.match(/Did you mean payments list\? \(Y\/n\)/g)).toHaveLength(1)
    expect(yes.out).toMatch(/STATUS|No payments/)
    const help = await gwTty(['help'], 'y\ny\ny\n')
    expect(help.timedOut).toBe(false)
    expect(help.out).not.toContain('Did you mean')
    expect(help.out).toContain('TOPICS')
    const no = await gwTty(['hlep'], 'n\n')
    expect(no.timedOut).toBe(false)
    expect(no.out.match(/Did you mean/g)).toHaveLength(1)
  }, 60_000)
})

describe('defect 2: every test card in the README works as shown', () => {
  it.each([
    ['4242424242424242', 0, 'succeeded'],
    ['5555555555554444', 0, 'succeeded'],
    ['378282246310005', 0, 'succeeded'],
    ['4000000000003220', 0, 'requires_action'],
    ['4000000000000101', 0, 'succeeded'],
    ['4000000000000259', 0, 'succeeded'],
    ['4000000000005126', 0, 'succeeded'],
    ['4000000000000002', 4, 'card_declined'],
    ['4000000000009995', 4, 'insufficient_funds'],
    ['4000000000000069', 4, 'expired_card'],
    ['4000000000000127', 4, 'incorrect_cvc'],
  ])('--card %s exits %i (%s)', async (number, code, what) => {
    const r = await gw(['payments', 'create', '--amount', '2000', '--currency', 'EUR', '--method', 'card', '--card', number])
    expect(r.code).toBe(code)
    expect(r.stdout + r.stderr).toContain(what)
  })
})

describe('defect 3: the same command line with the same --idempotency-key replays the first response', () => {
  it('two runs, one payment', async () => {
    const args = ['payments', 'create', '--amount', '2100', '--currency', 'EUR', '--card', '4242424242424242', '--idempotency-key', `retry-${Date.now()}`]
    const a = await json<Payment>(args)
    const b = await json<Payment>(args)
    expect(a.r.code).toBe(0)
    expect(b.r.code).toBe(0)
    expect(b.body.id).toBe(a.body.id)
  })
})

describe('gw logs tail: the API request log, live', () => {
  it('filters by status, method and path; NDJSON in a pipe; --last starts with history', async () => {
    const tail = gwLive(['logs', 'tail', '--status', '4xx', '--method', 'GET', '--path', '/payments'])
    await until('the tail to connect', () => tail.out.stderr.includes('Tailing API requests'))
    await gw(['payments', 'get', 'pay_doesnotexist'])
    await gw(['payments', 'list', '--limit', '1'])
    await gw(['customers', 'get', 'cus_doesnotexist'])
    const line = await until('a 404 line', () => tail.out.stdout.split('\n').find((l) => l.includes('pay_doesnotexist')))
    const entry = JSON.parse(line) as {method: string; path: string; status: number; id: string; latency_ms: number; idempotent_replayed: boolean}
    expect(entry).toMatchObject({method: 'GET', path: '/v1/payments/pay_doesnotexist', status: 404, idempotent_replayed: false})
    expect(entry.id).toMatch(/^req_/)
    tail.child.kill('SIGINT')
    expect(await tail.closed).toBe(0)
    // only what matched: no 200, no customers
    expect(tail.out.stdout).not.toContain('cus_doesnotexist')
    expect(tail.out.stdout).not.toContain('"status":200')

    const key = `replay-${Date.now()}`
    const args = ['payments', 'create', '--amount', '2200', '--currency', 'EUR', '--card', '4242424242424242', '--idempotency-key', key]
    await gw(args)
    await gw(args)
    const last = gwLive(['logs', 'tail', '--last', '5', '--method', 'POST'])
    const replay = await until('the replayed POST', () => last.out.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.idempotent_replayed))
    expect(replay).toMatchObject({method: 'POST', path: '/v1/payments', status: 201})
    last.child.kill('SIGINT')
    await last.closed
    const bad = await gw(['logs', 'tail', '--status', '4xy'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--status "4xy" is not an HTTP status or class')
  }, 60_000)
})

describe('gw clock advance reports what fired', () => {
  it('an expired authorization and the settlement run', async () => {
    const auth = await json<Payment>(['payments', 'create', '--amount', '5000', '--currency', 'EUR', '--card', '4242424242424242', '--capture', 'manual'])
    expect(auth.body.status).toBe('requires_capture')
    const r = await gw(['clock', 'advance', '8d'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('What fired')
    expect(r.stdout).toMatch(/payment\.canceled\s+\d+\s+authorizations released/)
    expect(r.stdout).toMatch(/settlement\.report\.ready\s+\d+/)
    const quiet = await json<TestClock>(['clock', 'advance', '1s'])
    expect(quiet.body.fired).toEqual({})
    expect((await gw(['payments', 'get', auth.body.id, '--json'])).stdout).toContain('"status": "canceled"')
  })
})

describe('gw trigger --fixture', () => {
  it('runs a fixture file whose later steps use earlier responses, with step overrides', async () => {
    const file = join(home, 'refund-flow.json')
    writeFileSync(
      file,
      JSON.stringify({
        fixtures: [
          {name: 'payment', path: '/v1/payments', method: 'post', params: {amount: 3000, currency: 'EUR', payment_method: 'card', payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: '${exp_year}', cvc: '123'}}, reference: '${reference}'}},
          {name: 'refund', path: '/v1/refunds', method: 'post', params: {payment: '${payment:id}', amount: 1000}},
        ],
      }),
    )
    const {r, body} = await json<{created: {id: string; object: string}[]; events: {type: string}[]}>(['trigger', '--fixture', file, '--override', 'amount=4000', '--override', 'refund:amount=500'])
    expect(r.code).toBe(0)
    const [pay, refund] = body.created
    expect(pay!.id).toMatch(/^pay_/)
    expect(refund!.id).toMatch(/^rf_/)
    const got = await json<{amount: number; payment: string}>(['refunds', 'get', refund!.id])
    expect(got.body).toMatchObject({amount: 500, payment: pay!.id})
    expect((await json<Payment>(['payments', 'get', pay!.id])).body.amount).toBe(4000)
    const broken = await gw(['trigger', '--fixture', file, '--override', 'nosuch:amount=1'])
    expect(broken.code).toBe(2)
    expect(broken.stderr).toContain('names no step of this fixture')
  })
})

describe('gw listen --load-from-webhooks-api', () => {
  interface Hit {
    url: string
    body: string
    headers: IncomingHttpHeaders
  }

  it('forwards to each endpoint path, signed with the secret gw kept for it (else the listen secret, said once)', async () => {
    const hits: Hit[] = []
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c) => chunks.push(c))
      req.on('end', () => {
        hits.push({url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), headers: req.headers})
        res.writeHead(200).end()
      })
    })
    servers.push(server)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as {port: number}).port
    // one endpoint made by gw (its secret is kept), one made elsewhere (raw API: gw never saw a secret it keeps)
    const a = await json<{id: string; secret: string}>(['webhooks', 'create', '--url', 'https://localhost:9/hooks/payments', '--events', 'payment.*'])
    expect(a.r.code).toBe(0)
    expect(a.r.stderr).toContain(`Kept the secret of ${a.body.id}`)
    const b = await json<{id: string}>(['api', 'post', '/webhook_endpoints', '-d', 'url=https://localhost:9/hooks/refunds', '-d', 'enabled_events:=["refund.failed"]'])
    const {body: secret} = {body: (await gw(['listen', '--print-secret'])).stdout.trim()}
    const listen = gwLive(['listen', '--forward-to', `127.0.0.1:${port}`, '--load-from-webhooks-api', '--from-now'])
    await until('listen to be ready', () => listen.out.stderr.includes('Ready.'))
    expect(listen.out.stderr.match(new RegExp(`No secret kept for ${b.body.id}`, 'g'))).toHaveLength(1)
    expect((await gw(['trigger', 'refund.failed'])).code).toBe(0)
    await until('both deliveries', () => hits.some((h) => h.url === '/hooks/payments') && hits.some((h) => h.url === '/hooks/refunds'))
    listen.child.kill('SIGINT')
    await listen.closed
    const pay = hits.find((h) => h.url === '/hooks/payments')!
    expect(JSON.parse(pay.body).type).toMatch(/^payment\./)
    expect(() => verifySignature({payload: pay.body, header: String(pay.headers['service-signature']), secret: a.body.secret})).not.toThrow()
    const ref = hits.find((h) => h.url === '/hooks/refunds')!
    expect(JSON.parse(ref.body).type).toBe('refund.failed')
    expect(() => verifySignature({payload: ref.body, header: String(ref.headers['service-signature']), secret})).not.toThrow()
    // each endpoint gets only its types
    expect(hits.filter((h) => h.url === '/hooks/refunds').every((h) => JSON.parse(h.body).type === 'refund.failed')).toBe(true)
    // the kept secret is never printed again
    expect(listen.out.stdout + listen.out.stderr).not.toContain(a.body.secret)
    await gw(['webhooks', 'delete', a.body.id, '--yes'])
    await gw(['webhooks', 'delete', b.body.id, '--yes'])
  }, 60_000)
})

describe('gw events tail --last / --since', () => {
  it('starts with history, then goes live', async () => {
    await gw(['trigger', 'payment.succeeded'])
    const tail = gwLive(['events', 'tail', '--last', '2', '--events', 'payment.*'])
    const first = await until('two history lines', () => {
      const lines = tail.out.stdout.split('\n').filter(Boolean)
      return lines.length >= 2 ? lines : undefined
    })
    expect(first.slice(0, 2).every((l) => (JSON.parse(l) as {type: string}).type.startsWith('payment.'))).toBe(true)
    await until('the live notice', () => tail.out.stderr.includes('now live'))
    const n = tail.out.stdout.split('\n').filter(Boolean).length
    await gw(['trigger', 'payment.succeeded'])
    await until('a live event', () => tail.out.stdout.split('\n').filter(Boolean).length > n)
    tail.child.kill('SIGINT')
    await tail.closed
    const since = gwLive(['events', 'tail', '--since', '1h'])
    await until('events of the last hour', () => since.out.stdout.split('\n').filter(Boolean).length >= 3)
    since.child.kill('SIGINT')
    await since.closed
  }, 60_000)
})
