// `gw serve` end to end. What only a process shows runs the built CLI (`npm run build` first) as a
// child process: the JSON start-up line, a request against it, /metrics on the API port and on
// --metrics-listen, a fixed key, graceful SIGTERM and SIGINT, a drain under load, and help (it
// reads the built manifest). A start-up that fails (a busy port, a live key, another secrets key)
// is the command's work before it serves: it runs in this process (src/base/test-support/
// cli-in-process.ts: oclif's parsing, GwCommand's exit codes and --json error line), which costs
// an engine boot, not a Node start and a module load (about 2 CPU-s each). Each spawned `gw serve`
// is one start-up of the product, so the tests that read what a running engine does share one.
import {spawn, type ChildProcess} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import https from 'node:https'
import {createServer, type Server} from 'node:net'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runInProcess, uninstallInProcess} from '../src/base/test-support/cli-in-process.js'
import {snapshotCli} from './support/cli-snapshot.js'

const REPO = resolve(import.meta.dirname, '..')
let ROOT: string
let BIN: string
let tmp: string

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'serve.js')) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing: run `npm run build` first (`npm test` does).')
  }
  // a snapshot of the built CLI: a concurrent `npm run build` (rm -rf dist) cannot break it
  ROOT = snapshotCli('gw-e2e-serve-')
  BIN = join(ROOT, 'bin', 'run.js')
  tmp = mkdtempSync(join(tmpdir(), 'gw-e2e-serve-data-'))
})

afterAll(() => {
  uninstallInProcess()
  rmSync(ROOT, {recursive: true, force: true})
  rmSync(tmp, {recursive: true, force: true})
})

interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** The user's environment: none of the test's GW_ variables, HOME in the temp dir, no colour; then `env`. */
function serveEnv(env: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_')) base[k] = v
  return {...base, HOME: tmp, XDG_CONFIG_HOME: join(tmp, 'config'), NO_COLOR: '1', ...env}
}

/** `gw serve ARGS` in this process, for a start-up that fails (it returns once the command has) */
const serveInProcess = (args: string[], env: Record<string, string> = {}) => runInProcess(['serve', ...args], {env: serveEnv(env)})

function serve(args: string[], env: Record<string, string> = {}): {child: ChildProcess; exited: Promise<Exit>; firstLine: Promise<string>} {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {env: serveEnv(env), stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  let lineResolve!: (line: string) => void
  const firstLine = new Promise<string>((r) => (lineResolve = r))
  child.stdout!.on('data', (d) => {
    stdout += d
    if (stdout.includes('\n')) lineResolve(stdout.slice(0, stdout.indexOf('\n')))
  })
  child.stderr!.on('data', (d) => (stderr += d))
  const exited = new Promise<Exit>((r) =>
    child.on('close', (code, signal) => {
      lineResolve(stdout)
      r({code, signal, stdout, stderr})
    }),
  )
  return {child, exited, firstLine}
}

describe('gw serve', () => {
  it('--json prints one JSON line, serves requests, and SIGTERM stops it with exit 0', async () => {
    const dataDir = join(tmp, 'engine-a')
    // a client key in the environment must not become the engine's key
    const {child, exited, firstLine} = serve(['--port', '0', '--data-dir', dataDir, '--json'], {GW_API_KEY: 'sk_test_client_key_not_for_the_engine'})
    const info = JSON.parse(await firstLine) as {base_url: string; checkout_url: string; secret_key: string; ca_file: string; data_dir: string; pid: number}
    expect(info.base_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect(info.data_dir).toBe(dataDir)
    expect(info.pid).toBe(child.pid)
    expect(info.secret_key).toMatch(/^sk_test_/)
    expect(info.secret_key).not.toBe('sk_test_client_key_not_for_the_engine')

    const dispatcher = new Agent({connect: {ca: readFileSync(info.ca_file)}})
    try {
      const res = await request(`${info.base_url}/payments?limit=1`, {headers: {authorization: `Bearer ${info.secret_key}`}, dispatcher})
      expect(res.statusCode).toBe(200)
      expect(((await res.body.json()) as {object: string}).object).toBe('list')
      // without --metrics-listen the API port serves /metrics, with no key
      const metrics = await request(`${info.base_url.replace(/\/v1$/, '')}/metrics`, {dispatcher})
      expect(metrics.statusCode).toBe(200)
      expect(await metrics.body.text()).toContain('gw_http_requests_total')
    } finally {
      await dispatcher.close()
    }

    child.kill('SIGTERM')
    const exit = await exited
    expect(exit.signal).toBeNull()
    expect(exit.code).toBe(0)
    expect(exit.stdout.trim().split('\n')).toHaveLength(1)
    expect(exit.stderr).toContain('SIGTERM: finishing in-flight requests')
    expect(exit.stderr).toContain('stopped.')
  })

  it('SIGTERM under load drains (--drain): a balancer-like poller of /readyz sees 503 before any refused connection, and no request fails', async () => {
    const {child, exited, firstLine} = serve(['--port', '0', '--data-dir', join(tmp, 'engine-drain'), '--json', '--drain', '2s'])
    const info = JSON.parse(await firstLine) as {base_url: string; ca_file: string; secret_key: string}
    const ca = readFileSync(info.ca_file)
    const readyz = new URL(info.base_url.replace(/\/v1$/, '/readyz'))
    // the balancer's health check: a new connection each time, every 50 ms; after two 503s in a row it sends the instance no more requests
    const seen: string[] = []
    let routed = true
    let answered = 0 // payments the clients made (201)
    let drainingSince = Infinity
    const check = () =>
      new Promise<string>((resolve) => {
        const req = https.get({host: readyz.hostname, port: readyz.port, path: readyz.pathname, ca, agent: false}, (res) => {
          res.resume()
          res.on('end', () => resolve(String(res.statusCode)))
        })
        req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED' ? 'refused' : `error ${e.code ?? e.message}`))
      })
    const poller = (async () => {
      for (;;) {
        const r = await check()
        seen.push(r)
        if (r === '503') {
          drainingSince = Math.min(drainingSince, answered)
          if (seen.at(-2) === '503') routed = false
        }
        if (r === 'refused' || r.startsWith('error')) return
        await new Promise((t) => setTimeout(t, 50))
      }
    })()
    // the clients: four keep-alive connections making payments while the balancer routes them here
    const load = new Agent({connect: {ca}, connections: 4})
    const failures: string[] = []
    const client = async (n: number) => {
      for (let i = 0; routed; i++) {
        try {
          const r = await request(`${info.base_url}/payments`, {
            method: 'POST',
            headers: {authorization: `Bearer ${info.secret_key}`, 'content-type': 'application/json'},
            body: JSON.stringify({amount: 1000, currency: 'EUR', payment_method: 'card', payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123'}}, reference: `drain-${n}-${i}`}),
            dispatcher: load,
          })
          const text = await r.body.text()
          if (r.statusCode === 201) answered++
          else failures.push(`${r.statusCode} ${text}`)
        } catch (e) {
          failures.push(String(e))
        }
      }
    }
    const clients = [0, 1, 2, 3].map(client)
    try {
      // under load, then the signal
      while (answered < 40) await new Promise((t) => setTimeout(t, 20))
      child.kill('SIGTERM')
      await Promise.all(clients)
      await poller
    } finally {
      await load.close()
    }
    const exit = await exited
    expect(failures).toEqual([])
    expect(exit.code).toBe(0)
    expect(exit.stderr).toContain('SIGTERM: draining for 2 s')
    // ready, then not ready, then (only then) refused: the balancer noticed through its check, not through a failure
    expect(seen[0]).toBe('200')
    // the end: refused, or reset when the check connected just as the listener closed (a connection that has sent no
    // request yet is closed then, server.ts closeGracefully, and one still in the kernel's accept queue is reset; a
    // balancer reads both as down)
    expect(['refused', 'error ECONNRESET']).toContain(seen.at(-1))
    expect(seen.indexOf('503')).toBeGreaterThan(0)
    expect(seen.slice(seen.indexOf('503'), -1).every((r) => r === '503')).toBe(true)
    // requests kept being served while /readyz said 503
    expect(answered).toBeGreaterThan(drainingSince)
  })

  it('--metrics-listen (GW_METRICS_LISTEN) serves /metrics on its own address over plain HTTP, and the API port no longer does (without it the API port does: the first test); --api-key (GW_SERVE_API_KEY) fixes the engine key; SIGINT stops it with exit 0', async () => {
    const {child, exited, firstLine} = serve(['--port', '0', '--data-dir', join(tmp, 'engine-m'), '--json'], {GW_METRICS_LISTEN: '127.0.0.1:0', GW_SERVE_API_KEY: 'sk_test_fixed_engine_key_1'})
    const info = JSON.parse(await firstLine) as {base_url: string; ca_file: string; secret_key: string; metrics_url: string}
    expect(info.secret_key).toBe('sk_test_fixed_engine_key_1')
    expect(info.metrics_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    const dispatcher = new Agent({connect: {ca: readFileSync(info.ca_file)}})
    const root = info.base_url.replace(/\/v1$/, '')
    try {
      // a request, so that an account's id is among the metrics
      expect((await request(`${info.base_url}/payments?limit=1`, {headers: {authorization: `Bearer ${info.secret_key}`}, dispatcher})).statusCode).toBe(200)
      const api = await request(`${root}/metrics`, {dispatcher})
      expect(api.statusCode).toBe(404)
      expect(((await api.body.json()) as {error: {code: string; message: string}}).error).toMatchObject({code: 'route_unknown', message: expect.stringContaining('--metrics-listen')})
      const scraped = await request(info.metrics_url)
      expect(scraped.statusCode).toBe(200)
      expect(String(scraped.headers['content-type'])).toMatch(/^text\/plain/)
      expect(await scraped.body.text()).toMatch(/^gw_http_requests_total\{.*operation="listPayments".*\} 1$/m)
      expect((await request(info.metrics_url.replace(/\/metrics$/, '/v1/payments'))).statusCode).toBe(404)
      // readiness and liveness stay on the API port, for the balancer
      expect((await request(`${root}/healthz`, {dispatcher})).statusCode).toBe(200)
    } finally {
      await dispatcher.close()
    }
    child.kill('SIGINT')
    expect((await exited).code).toBe(0)
  })

  it('another secrets key than the one the data dir was sealed with (GW_SECRETS_KEY_FILE) is refused with exit 2, naming the flag and the fix', async () => {
    // engine-m started above, with the data dir's own secrets.key
    const other = join(tmp, 'other-secrets.key')
    writeFileSync(other, randomBytes(32))
    const r = await serveInProcess(['--port', '0', '--data-dir', join(tmp, 'engine-m')], {GW_SECRETS_KEY_FILE: other})
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`--secrets-key-file ${other} is not the secrets key this database's webhook signing secrets are sealed with`)
    expect(r.stderr).toContain('a copy of the key the first instance used')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('a busy port is a usage error: exit 2 with a clear message', async () => {
    const busy: Server = createServer()
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
    const port = (busy.address() as {port: number}).port
    try {
      const human = await serveInProcess(['--port', String(port), '--data-dir', join(tmp, 'engine-c')])
      expect(human.code).toBe(2)
      expect(human.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use.`)
      expect(human.stderr).toContain('--port 0')
      expect(human.stderr).not.toMatch(/\n\s+at /) // no stack trace

      const json = await serveInProcess(['--port', String(port), '--data-dir', join(tmp, 'engine-c'), '--json'])
      expect(json.code).toBe(2)
      expect(JSON.parse(json.stdout)).toMatchObject({error: {type: 'usage_error', message: `Port ${port} on 127.0.0.1 is already in use.`}})
    } finally {
      busy.close()
    }
  })

  it('a live key is refused with exit 2', async () => {
    const r = await serveInProcess(['--port', '0', '--data-dir', join(tmp, 'engine-d'), '--api-key', 'sk_live_abcdefghijkl'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('test mode only')
  })

  it('help shows only --json and --verbose of the client global flags', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--help'], {stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    await new Promise((r) => child.on('close', r))
    expect(out).toContain('GW_SERVE_API_KEY')
    expect(out).toContain('--json')
    for (const flag of ['--profile', '--base-url', '--ca-file', '--insecure', '--yes']) expect(out).not.toContain(flag)
  })
})
