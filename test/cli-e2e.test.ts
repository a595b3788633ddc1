import {stripVTControlCharacters} from 'node:util'
// End-to-end: the CLI against an engine running in this process on port 0, with HOME and
// XDG_CONFIG_HOME in a temp dir. The commands run in this process (src/base/test-support/cli-in-process.ts:
// oclif's parsing, GwCommand, the exit codes; no build needed); what only a process shows — a
// command left running (--wait) while others run, start-up and lazy loading, help and the
// not-found hook — runs the built CLI (`node bin/run.js`, a snapshot of dist/; `npm test` builds first).
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {createServer, type Server} from 'node:https'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {ListEnvelope, Payment} from '../src/api/types.js'
import {startEngine, type EngineHandle} from '../src/engine/index.js'
import {localEnginePaths} from '../src/local-engine.js'
import {runInProcess, uninstallInProcess} from '../src/base/test-support/cli-in-process.js'
import {snapshotCli} from './support/cli-snapshot.js'

const REPO = resolve(import.meta.dirname, '..')

interface Run {
  code: number
  stdout: string
  stderr: string
}

let engine: EngineHandle
let dataDir: string
let home: string
const outputs: string[] = []

type GwOptions = {env?: Record<string, string>; stdin?: string; preload?: string}

function gwEnv(opts: GwOptions): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_') && k !== 'NO_COLOR') env[k] = v
  return Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GW_DATA_DIR: dataDir,
    GW_NO_KEYRING: '1',
    ...opts.env,
  })
}

/** `gw ARGS` in this process */
async function gw(args: string[], opts: GwOptions = {}): Promise<Run> {
  const run = await runInProcess(args, {env: gwEnv(opts), stdin: opts.stdin})
  outputs.push(run.stdout, run.stderr)
  return run
}

// The built CLI is copied to a temp dir first, so that a rebuild of dist/ while the tests run
// (`npm run build` starts with rm -rf dist) cannot pull files from under them.
let built: {root: string; bin: string} | undefined
function builtCli(): {root: string; bin: string} {
  if (!built) {
    if (!existsSync(join(REPO, 'dist', 'commands', 'payments', 'create.js')) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
      throw new Error('dist/ or oclif.manifest.json is missing: run `npm run build` first (`npm test` does).')
    }
    const root = snapshotCli('gw-e2e-cli-')
    built = {root, bin: join(root, 'bin', 'run.js')}
  }
  return built
}

/** `node bin/run.js ARGS`: the built CLI in a process of its own */
function gwSpawned(args: string[], opts: GwOptions = {}): Promise<Run> {
  const {root, bin} = builtCli()
  const env = gwEnv(opts)
  const nodeArgs = opts.preload ? ['--import', opts.preload, bin, ...args] : [bin, ...args]
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, nodeArgs, {cwd: root, env, stdio: ['pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      outputs.push(stdout, stderr)
      resolvePromise({code: code ?? -1, stdout, stderr})
    })
    child.stdin.end(opts.stdin ?? '')
  })
}

const gwJson = async <T = Payment>(args: string[], opts?: GwOptions, via = gw): Promise<{run: Run; body: T}> => {
  const run = await via([...args, '--json'], opts)
  return {run, body: JSON.parse(run.stdout) as T}
}

const CARD = ['--currency', 'EUR', '--method', 'card', '--card']

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-home-'))
  dataDir = mkdtempSync(join(tmpdir(), 'gw-e2e-engine-'))
  engine = await startEngine({dataDir, port: 0, durability: 'normal', log: () => {}})
}, 60_000)

afterAll(async () => {
  uninstallInProcess()
  await engine?.close()
  // the key was never written out whole by any command
  for (const out of outputs) expect(out).not.toContain(engine.secretKey)
  rmSync(home, {recursive: true, force: true})
  rmSync(dataDir, {recursive: true, force: true})
  if (built) rmSync(built.root, {recursive: true, force: true})
})

describe('gw login --local', () => {
  it('takes base_url, CA and key from the engine data dir and makes the profile the default', async () => {
    const r = await gw(['login', '--local'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`Logged in to ${engine.baseUrl} as profile "local"`)
    expect(r.stdout).toContain(engine.secretKey.slice(0, 8) + '…' + engine.secretKey.slice(-4))
    expect(r.stderr.match(/No OS keychain/g)).toHaveLength(1)
    const cfg = JSON.parse(readFileSync(join(home, '.config', 'gw', 'config.json'), 'utf8'))
    expect(cfg.default_profile).toBe('local')
    expect(cfg.profiles.local).toMatchObject({base_url: engine.baseUrl, ca_file: localEnginePaths(dataDir).caCert})
  })

  it('whoami shows test mode, the base URL and the redacted key', async () => {
    const r = await gw(['whoami'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Mode\s+test/)
    expect(r.stdout).toContain(engine.baseUrl)
    const {body} = await gwJson<{mode: string; api_key: string}>(['whoami'])
    expect(body.mode).toBe('test')
    expect(body.api_key).toBe(`${engine.secretKey.slice(0, 8)}…${engine.secretKey.slice(-4)}`)
  })
})

describe('sharing one gateway: accounts and keys', () => {
  it('after gw serve and gw login --local, gw accounts create --json works with no further set-up; --login makes a profile that acts as the new account', async () => {
    const created = await gwJson<{id: string; secret_key: string; publishable_key: string}>(['accounts', 'create', '--name', 'e2e', '--login', 'e2e'])
    expect(created.run.code, created.run.stderr).toBe(0)
    expect(created.body.id).toMatch(/^acct_/)
    expect(created.body.secret_key).toMatch(/^sk_test_/)
    expect(created.body.publishable_key).toMatch(/^pk_test_/)
    const me = await gwJson<{account: {id: string}; key: {type: string}}>(['whoami', '--profile', 'e2e'])
    expect(me.body.account.id).toBe(created.body.id)
    expect(me.body.key.type).toBe('secret')
    // its own data only: the platform account's payments are not its
    const mine = await gwJson<ListEnvelope<Payment>>(['payments', 'list', '--profile', 'e2e'])
    expect(mine.body.data).toEqual([])
    // a restricted key for support, refused what it may not do (exit 3, naming the permission)
    const support = await gwJson<{secret: string}>(['keys', 'create', '--profile', 'e2e', '--name', 'support', '--permissions', 'disputes:write,payments:read,refunds:write'])
    expect(support.run.code, support.run.stderr).toBe(0)
    const refused = await gw(['payments', 'create', '--amount', '2000', ...CARD, '4242424242424242', '--api-key', support.body.secret])
    expect(refused.code).toBe(3)
    expect(refused.stderr).toMatch(/payments:write/)
    const deleted = await gw(['accounts', 'delete', created.body.id, '--yes'])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect((await gw(['payments', 'list', '--profile', 'e2e'])).code).toBe(3)
  })
})

describe('payments against the engine', () => {
  it('the quick start: a 4242 card payment prints as succeeded', async () => {
    const r = await gw(['payments', 'create', '--amount', '2000', ...CARD, '4242424242424242'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^pay_\w+ {2}succeeded/)
    expect(r.stdout).toMatch(/Amount\s+€20\.00 EUR/)
    expect(r.stdout).toMatch(/visa •••• 4242/)
  })

  it('--json output parses and is the API object', async () => {
    const {run, body} = await gwJson(['payments', 'create', '--display-amount', '12.50', ...CARD, '5555555555554444', '--metadata', 'order=1'])
    expect(run.code).toBe(0)
    expect(body).toMatchObject({object: 'payment', amount: 1250, currency: 'EUR', status: 'succeeded', metadata: {order: '1'}})
    expect(body.reference).toMatch(/^gw_/)
    const got = await gwJson(['payments', 'get', body.id])
    expect(got.body).toMatchObject({id: body.id, status: 'succeeded'})
  })

  it('3-D Secure: requires_action with the URL printed, then the customer approves', async () => {
    const r = await gw(['payments', 'create', '--amount', '2000', ...CARD, '4000000000003220'])
    expect(r.code).toBe(0)
    const id = /^(pay_\w+)/.exec(r.stdout)![1]
    expect(r.stdout).toContain('requires_action')
    expect(r.stdout).toMatch(new RegExp(`The customer must act: ${engine.checkoutUrl}/\\S+`))
    const approved = await gwJson(['payments', 'action', id, '--approve'])
    expect(approved.body.status).toBe('succeeded')
  })

  it('--wait follows a 3-D Secure payment until the customer acts', async () => {
    // a process of its own: it keeps running while the steps below run
    const waiting = gwJson(['payments', 'create', '--amount', '3000', ...CARD, '4000000000003220', '--wait', '--timeout', '60s'], {}, gwSpawned)
    let id: string | undefined
    // (the process's start-up takes a while on a loaded machine: up to 30 s)
    for (let i = 0; i < 150 && !id; i++) {
      await new Promise((r) => setTimeout(r, 200))
      const list = await gwJson<ListEnvelope<Payment>>(['payments', 'list', '--status', 'requires_action', '--limit', '5'])
      id = list.body.data.find((p) => p.amount === 3000)?.id
    }
    expect(id).toBeDefined()
    await gw(['payments', 'action', id!, '--approve'])
    const {run, body} = await waiting
    expect(run.code).toBe(0)
    expect(body).toMatchObject({id, status: 'succeeded'})
    expect(run.stderr).toContain('requires_action →')
  }, 60_000)

  it('a declined card exits 4 with the code and request_id', async () => {
    const r = await gw(['payments', 'create', '--amount', '2000', ...CARD, '4000000000000002'])
    expect(r.code).toBe(4)
    expect(r.stderr).toContain('card_declined')
    expect(r.stderr).toMatch(/request_id req_\w+/)
    expect(r.stderr).toMatch(/payment pay_\w+/)
    expect(r.stdout).toBe('')
    const j = await gw(['payments', 'create', '--amount', '2000', ...CARD, '4000000000009995', '--json'])
    expect(j.code).toBe(4)
    expect(JSON.parse(j.stdout).error).toMatchObject({type: 'card_error', code: 'insufficient_funds'})
  })

  it('manual capture: requires_capture, increment, then capture', async () => {
    const created = await gwJson(['payments', 'create', '--amount', '5000', ...CARD, '4242424242424242', '--capture', 'manual'])
    expect(created.body.status).toBe('requires_capture')
    const inc = await gwJson(['payments', 'increment', created.body.id, '--amount', '6500'])
    expect(inc.body).toMatchObject({status: 'requires_capture', amount: 6500})
    const cap = await gwJson(['payments', 'capture', created.body.id])
    expect(cap.body).toMatchObject({status: 'succeeded', amount_captured: 6500})
    const again = await gw(['payments', 'capture', created.body.id])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('payment_not_capturable')
  })

  it('--no-confirm, then confirm', async () => {
    const created = await gwJson(['payments', 'create', '--amount', '900', ...CARD, '4242424242424242', '--no-confirm'])
    expect(created.body.status).toBe('requires_confirmation')
    const confirmed = await gwJson(['payments', 'confirm', created.body.id])
    expect(confirmed.body.status).toBe('succeeded')
  })

  it('cancel an authorization', async () => {
    const created = await gwJson(['payments', 'create', '--amount', '700', ...CARD, '4242424242424242', '--capture', 'manual'])
    const canceled = await gwJson(['payments', 'cancel', created.body.id])
    expect(canceled.body.status).toBe('canceled')
  })

  it('an iDEAL bank redirect, approved by the customer', async () => {
    const created = await gwJson(['payments', 'create', '--amount', '1500', '--currency', 'EUR', '--method', 'ideal', '--return-url', 'https://shop.example/r'])
    expect(created.body.status).toBe('requires_action')
    expect(created.body.next_action?.url).toContain(engine.checkoutUrl)
    const approved = await gwJson(['payments', 'action', created.body.id, '--approve'])
    expect(approved.body.status).toBe('succeeded')
  })

  it('a risk review (amount 4991) held in processing, then approved', async () => {
    const created = await gwJson(['payments', 'create', '--amount', '4991', ...CARD, '4242424242424242'])
    expect(created.body).toMatchObject({status: 'processing', risk: {decision: 'review'}})
    const human = await gw(['payments', 'get', created.body.id])
    expect(human.stderr).toContain(`gw payments review ${created.body.id} --approve`)
    const reviewed = await gwJson(['payments', 'review', created.body.id, '--approve'])
    expect(reviewed.body.status).toBe('succeeded')
  })

  it('a risk block (amount 4992) is created as failed', async () => {
    const r = await gwJson(['payments', 'create', '--amount', '4992', ...CARD, '4242424242424242'])
    expect(r.run.code).toBe(0)
    expect(r.body).toMatchObject({status: 'failed', failure_code: 'payment_blocked'})
  })

  it('a card with no instrument goes to the hosted card form', async () => {
    const r = await gwJson(['payments', 'create', '--amount', '1000', '--currency', 'EUR'])
    expect(r.body.status).toBe('requires_action')
    expect(r.body.next_action?.url).toContain(engine.checkoutUrl)
  })
})

describe('lists and paging', () => {
  it('pages with --limit and --starting-after, and --all streams NDJSON into a pipe', async () => {
    const ref = `page-${Date.now()}`
    for (let i = 0; i < 5; i++) {
      const r = await gw(['payments', 'create', '--amount', String(100 + i), ...CARD, '4242424242424242', '--customer-email', 'pager@example.com', '--reference', `${ref}-${i}`])
      expect(r.code).toBe(0)
    }
    const first = await gwJson<ListEnvelope<Payment>>(['payments', 'list', '--limit', '2'])
    expect(first.body).toMatchObject({object: 'list', url: '/v1/payments', has_more: true})
    expect(first.body.data).toHaveLength(2)
    const second = await gwJson<ListEnvelope<Payment>>(['payments', 'list', '--limit', '2', '--starting-after', first.body.data[1].id])
    expect(second.body.data).toHaveLength(2)
    expect(second.body.data[0].id).not.toBe(first.body.data[1].id)
    expect(new Date(second.body.data[0].created_at).getTime()).toBeLessThanOrEqual(new Date(first.body.data[1].created_at).getTime())

    const all = await gw(['payments', 'list', '--all', '--limit', '3', '--json'])
    expect(all.code).toBe(0)
    const lines = all.stdout.trim().split('\n').map((l) => JSON.parse(l) as Payment)
    expect(lines.length).toBeGreaterThanOrEqual(5)
    expect(new Set(lines.map((p) => p.id)).size).toBe(lines.length)
    expect(lines.filter((p) => p.reference.startsWith(ref))).toHaveLength(5)

    const table = await gw(['payments', 'list', '--limit', '3'])
    expect(table.stdout).toContain('STATUS')
    expect(table.stderr).toContain('--starting-after')

    const byRef = await gwJson<ListEnvelope<Payment>>(['payments', 'list', '--reference', `${ref}-3`])
    expect(byRef.body.data.map((p) => p.amount)).toEqual([103])
    // eleven CLI processes one after another (a second or two of start-up each on a loaded machine)
  }, 90_000)
})

describe('customers, payment methods, clock, raw api', () => {
  it('saves a card for a customer and charges it', async () => {
    const cus = await gwJson<{id: string}>(['customers', 'create', '--email', 'e2e@example.com', '--name', 'E2E'])
    expect(cus.body.id).toMatch(/^cus_/)
    const pm = await gwJson<{id: string; customer: string}>(['payment-methods', 'create', '--card', '4242424242424242', '--customer', cus.body.id])
    expect(pm.body).toMatchObject({customer: cus.body.id})
    const listed = await gwJson<ListEnvelope<{id: string}>>(['payment-methods', 'list', '--customer', cus.body.id])
    expect(listed.body.data.map((x) => x.id)).toEqual([pm.body.id])
    const pay = await gwJson(['payments', 'create', '--amount', '1200', '--currency', 'EUR', '--payment-method-id', pm.body.id, '--customer', cus.body.id])
    expect(pay.body).toMatchObject({status: 'succeeded', customer: cus.body.id, payment_method_id: pm.body.id})
    const got = await gw(['customers', 'get', cus.body.id])
    expect(got.stdout).toContain('e2e@example.com')
    expect((await gw(['customers', 'list'])).stdout).toContain(cus.body.id)
    const detached = await gwJson<{customer: string | null}>(['payment-methods', 'detach', pm.body.id, '--yes'])
    expect(detached.body.customer).toBeNull()
  })

  it('advances the clock by a human duration', async () => {
    const before = await gwJson<{offset_seconds: number}>(['clock', 'get'])
    const after = await gwJson<{offset_seconds: number}>(['clock', 'advance', '1d12h'])
    expect(after.body.offset_seconds - before.body.offset_seconds).toBe(129_600)
  })

  it('gw api get/post', async () => {
    const post = await gw(['api', 'post', '/payments', '-d', 'amount=2000', '-d', 'currency=EUR', '-d', 'payment_method=card', '-d', 'payment_method_data[type]=card',
      '-d', 'payment_method_data[card][number]=4242424242424242', '-d', 'payment_method_data[card][exp_month]=12', '-d', 'payment_method_data[card][exp_year]=2031', '-d', 'payment_method_data[card][cvc]=123'])
    expect(post.code).toBe(0)
    const created = JSON.parse(post.stdout) as Payment
    expect(created.status).toBe('succeeded')
    const get = await gw(['api', 'get', `/v1/payments/${created.id}`])
    expect(JSON.parse(get.stdout).id).toBe(created.id)
  })
})

describe('exit codes of each error class', () => {
  it('usage: 2', async () => {
    const r = await gw(['payments', 'create', '--amount', '20.00', '--currency', 'EUR'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--display-amount 20.00')
    const missing = await gw(['payments', 'get'])
    expect(missing.code).toBe(2)
  })

  it('authentication: 3', async () => {
    const r = await gw(['payments', 'list'], {env: {GW_API_KEY: 'sk_test_wrong_key_000000000000'}})
    expect(r.code).toBe(3)
    expect(r.stderr).toMatch(/request_id req_\w+/)
    expect(r.stderr).not.toContain('sk_test_wrong_key_000000000000')
    const live = await gw(['payments', 'list'], {env: {GW_API_KEY: 'sk_live_some_live_key_0000000'}})
    expect(live.code).toBe(3)
    expect(live.stderr).toContain('LIVE')
  })

  it('card error: 4 (above); not found: 5', async () => {
    const r = await gw(['payments', 'get', 'pay_doesnotexist'])
    expect(r.code).toBe(5)
    expect(r.stderr).toContain('pay_doesnotexist')
    expect(r.stderr).toMatch(/request_id req_\w+/)
  })

  it('rate limited: 6 when retries are used up; with retries the CLI waits Retry-After and succeeds', async () => {
    const limitedDir = mkdtempSync(join(tmpdir(), 'gw-e2e-limited-'))
    const limited = await startEngine({dataDir: limitedDir, port: 0, durability: 'normal', rateLimit: 1, log: () => {}})
    try {
      const env = {GW_BASE_URL: limited.baseUrl, GW_API_KEY: limited.secretKey, GW_CA_FILE: limited.caFile!}
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
      // the bucket holds 2 requests and refills 1 per second; creating 4 payments needs the
      // CLI's own 429 retries
      for (let i = 0; i < 4; i++) expect((await gw(['payments', 'create', '--amount', '100', ...CARD, '4242424242424242'], {env})).code).toBe(0)
      await sleep(2500)
      // 4 pages of 1 in one process: the third request is limited
      const noRetry = await gw(['payments', 'list', '--all', '--limit', '1', '--json'], {env: {...env, GW_MAX_RETRIES: '0'}})
      expect(noRetry.code).toBe(6)
      expect(noRetry.stderr).toContain('rate_limit_exceeded')
      expect(noRetry.stderr).toMatch(/request_id req_\w+/)
      const lines = noRetry.stdout.trim().split('\n').map((l) => JSON.parse(l))
      expect(lines.map((l) => l.object ?? l.error?.type)).toEqual(['payment', 'payment', 'rate_limit_error'])
      await sleep(2500)
      const retried = await gw(['payments', 'list', '--all', '--limit', '1', '--json', '--verbose'], {env})
      expect(retried.code).toBe(0)
      expect(retried.stdout.trim().split('\n')).toHaveLength(4)
      expect(retried.stderr).toMatch(/< 429/)
      expect(retried.stderr).toMatch(/retrying in \d/)
      for (const out of [noRetry, retried]) expect(out.stdout + out.stderr).not.toContain(limited.secretKey)
    } finally {
      await limited.close()
      rmSync(limitedDir, {recursive: true, force: true})
    }
  })

  it('server error: 7 after retries (a stand-in server with the engine certificate)', async () => {
    const paths = localEnginePaths(dataDir)
    let hits = 0
    const server: Server = createServer({key: readFileSync(paths.serverKey), cert: readFileSync(paths.serverCert)}, (req, res) => {
      hits++
      res.writeHead(503, {'content-type': 'application/json', 'request-id': `req_stub_${hits}`})
      res.end(JSON.stringify({error: {type: 'api_error', code: 'unavailable', message: 'Service unavailable.', doc_url: 'x', request_id: `req_stub_${hits}`}}))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const port = (server.address() as {port: number}).port
      const r = await gw(['payments', 'get', 'pay_1', '--base-url', `https://127.0.0.1:${port}/v1`], {env: {GW_MAX_RETRIES: '2'}})
      expect(r.code).toBe(7)
      expect(hits).toBe(3)
      expect(r.stderr).toContain('Service unavailable.')
      expect(r.stderr).toContain('request_id req_stub_3')
      expect(r.stderr).toContain('after 2 retries')
    } finally {
      server.close()
    }
  })

  it('network: 8 when nothing listens', async () => {
    const closed = await new Promise<number>((r) => {
      const s = createServer()
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as {port: number}).port
        s.close(() => r(p))
      })
    })
    const r = await gw(['payments', 'list', '--base-url', `https://127.0.0.1:${closed}/v1`], {env: {GW_MAX_RETRIES: '1'}})
    expect(r.code).toBe(8)
    expect(r.stderr).toContain('connection refused')
    expect(r.stderr).toContain('gw serve')
  })

  it('TLS: the engine is not trusted without its CA, and --insecure only warns', async () => {
    const r = await gw(['payments', 'list', '--base-url', engine.baseUrl, '--api-key', '-'], {stdin: engine.secretKey, env: {XDG_CONFIG_HOME: join(home, 'empty')}})
    expect(r.code).toBe(8)
    expect(r.stderr).toMatch(/TLS verification/)
    expect(r.stderr).toContain('gw login --local')
    const insecure = await gw(['payments', 'list', '--base-url', engine.baseUrl, '--api-key', '-', '--insecure', '--limit', '1'], {stdin: engine.secretKey, env: {XDG_CONFIG_HOME: join(home, 'empty')}})
    expect(insecure.code).toBe(0)
    expect(insecure.stderr).toContain('NOT verified')
  })
})

describe('startup', () => {
  const heavy = /node_modules\/(ink|react|react-reconciler|cli-table3|yoga-layout)\/|\/dist\/(engine|bundle)\/|\/src\/engine\//

  async function traced(args: string[]): Promise<{run: Run; modules: string[]}> {
    const file = join(home, `trace-${Date.now()}-${Math.random()}.log`)
    const run = await gwSpawned(args, {env: {GW_TRACE_FILE: file}, preload: join(builtCli().root, 'test', 'support', 'trace-imports.mjs')})
    const modules = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []
    return {run, modules}
  }

  it('`gw --version` loads no Ink, React, table or engine code', async () => {
    const {run, modules} = await traced(['--version'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^gw\/\d+\.\d+\.\d+/)
    expect(modules.length).toBeGreaterThan(10)
    expect(modules.filter((m) => heavy.test(m))).toEqual([])
  })

  it('`gw payments get` loads no Ink, React, table or engine code', async () => {
    const {body} = await gwJson(['payments', 'create', '--amount', '100', ...CARD, '4242424242424242'])
    const {run, modules} = await traced(['payments', 'get', body.id])
    expect(run.code).toBe(0)
    expect(modules.some((m) => m.includes('/dist/commands/payments/get.js'))).toBe(true)
    expect(modules.filter((m) => heavy.test(m))).toEqual([])
  })

  it('a list does load cli-table3 (the trace sees lazy imports)', async () => {
    const {modules} = await traced(['payments', 'list', '--limit', '1'])
    expect(modules.some((m) => m.includes('node_modules/cli-table3/'))).toBe(true)
  })

  it('help has examples; typos get "did you mean"', async () => {
    const help = await gwSpawned(['payments', 'create', '--help'])
    expect(help.stdout).toContain('EXAMPLES')
    // in a pipe the not-found plugin only refuses; on a terminal it offers the closest command
    const typo = await gwSpawned(['paymnets', 'list'])
    expect(typo.code).toBe(127)
    // colour depends on the environment (CI=true turns it on in ansis); the words do not
    expect(stripVTControlCharacters(typo.stderr)).toContain('paymnets list is not a gw command')
    const tty = await new Promise<string>((done, fail) => {
      const child = spawn('script', ['-qec', `"${process.execPath}" "${builtCli().bin}" paymnets list`, '/dev/null'], {
        env: {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1'},
      })
      let out = ''
      child.stdout.on('data', (d) => (out += d))
      child.on('error', fail)
      child.on('close', () => done(out))
      child.stdin.end('n\n')
    })
    expect(tty).toContain('Did you mean payments list?')
  })
})

describe('logout', () => {
  it('forgets the key; later commands say to log in (exit 3)', async () => {
    expect((await gw(['logout'])).code).toBe(0)
    const r = await gw(['payments', 'list'])
    expect(r.code).toBe(3)
    expect(r.stderr).toContain('gw login')
  })
})
