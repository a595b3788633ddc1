// Boots the engine in-process on port 0 in a temp data dir and talks HTTPS to it.
// Used by engine tests (and e2e tests) only; excluded from the build.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createSecureContext} from 'node:tls'
import {Agent, request} from 'undici'
import {startEngine, type EngineHandle, type EngineOptions} from '../index.js'
import {assertDocumented} from './openapi-check.js'
import {tempDirs} from './tmp.js'

export interface Res<T = any> {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: T
  text: string
}

export interface AsKey {
  key: string
  /** another key on the same engine */
  as(key: string): AsKey
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>
  advance(seconds: number): Promise<void>
}

export interface TestEngine {
  engine: EngineHandle
  dataDir: string
  agent: Agent
  key: string
  /** JSON request to the API (path relative to /v1). POSTs get a fresh Idempotency-Key unless headers say otherwise. */
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Res<T>>
  /** raw request to any URL on the engine (checkout pages) */
  raw(method: string, url: string, opts?: {body?: string; headers?: Record<string, string>}): Promise<Res<string>>
  advance(seconds: number): Promise<void>
  /** the same engine through another key (another account's, a restricted key): api and advance with it */
  as(key: string): AsKey
  /** a new account (POST /accounts with the engine's key): its id and keys, and the engine through its secret key */
  account(name?: string): Promise<{id: string; secretKey: string; publishableKey: string} & AsKey>
  /** restart on the same data dir (keeps data), with some options changed if given */
  restart(changed?: Partial<EngineOptions>): Promise<void>
  stop(): Promise<void>
}

let counter = 0

/** The directories of the fleets' secrets key files, removed after the test file that made them (its tests share a fleet). */
const keyDirs = tempDirs('gw-fleet-key-', 'file')
/** the test client's connections to an engine at most (the engine's default cap per address is 256) */
const CLIENT_CONNECTIONS = 128

/** A secrets key file for the instances of one fleet (every instance on one database must use the same key); made by the first that starts. */
export function fleetSecretsKeyFile(): string {
  return join(keyDirs(), 'secrets.key')
}

/**
 * The test client of an engine: at most CLIENT_CONNECTIONS connections, trusting the engine's CA
 * through one TLS context built once (undici's `ca` option builds a context, parsing the CA's PEM,
 * for every connection it opens: a third of the client's TLS CPU; the engine's own webhook client
 * shares one the same way, core/webhook-agents.ts).
 */
function clientAgent(engine: EngineHandle): Agent {
  const tls = engine.caCertPem === undefined ? {} : {secureContext: createSecureContext({ca: engine.caCertPem})}
  return new Agent({connect: tls, keepAliveTimeout: 1000, connections: CLIENT_CONNECTIONS})
}

/**
 * The store of a test engine: SQLite in its data dir, or with GW_TEST_STORE=postgres (the
 * `conformance-postgres` vitest project) a fresh database of the run's PostgreSQL cluster, kept
 * across restart() like the data dir.
 */
async function testStore(): Promise<Pick<EngineOptions, 'store'>> {
  if (process.env.GW_TEST_STORE !== 'postgres') return {}
  const [{freshDatabase}, {postgresStore}] = await Promise.all([import('./pg.js'), import('../store/postgres/postgres-store.js')])
  return {store: postgresStore(await freshDatabase('engine'), {unitConnections: 8, readConnections: 4})}
}

export async function bootEngine(opts: Partial<EngineOptions> = {}): Promise<TestEngine> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'gw-engine-'))
  const key = opts.apiKey ?? 'sk_test_harness_key_0123456789'
  const store = opts.store ? {} : await testStore()
  const start = (changed: Partial<EngineOptions> = {}) =>
    startEngine({dataDir, port: 0, apiKey: key, durability: 'normal', log: process.env.GW_TEST_LOG ? (l) => process.stderr.write(l + '\n') : () => {}, ...store, ...opts, ...changed})
  let engine = await start()
  // (as a well-behaved client: at most this many connections at once, below the engine's cap per
  // address (docs/api.md#connections); a burst of more requests queues in the client instead of being refused)
  let agent = clientAgent(engine)
  async function apiWith(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
    const h: Record<string, string> = {authorization: `Bearer ${key}`, ...headers}
    if (body !== undefined) h['content-type'] = 'application/json'
    if (method === 'POST' && !Object.keys(h).some((k) => k.toLowerCase() === 'idempotency-key'))
      h['idempotency-key'] = `test-${process.pid}-${++counter}-${Math.random()}`
    for (const [k, v] of Object.entries(h)) if (v === '') delete h[k]
    const res = await request(engine.baseUrl + path, {
      method: method as 'GET',
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      dispatcher: agent,
    })
    const text = await res.body.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      /* not JSON */
    }
    const out = {status: res.statusCode, headers: res.headers as Res['headers'], body: parsed as any, text}
    // every response must be what the OpenAPI document says (status, fields, headers)
    assertDocumented(method, path, out)
    return out
  }
  const asKey = (k: string): AsKey => ({
    key: k,
    as: (other) => asKey(other),
    api: (method, path, body, headers) => apiWith(k, method, path, body, headers),
    async advance(seconds) {
      const r = await apiWith(k, 'POST', '/test_helpers/clock/advance', {seconds})
      if (r.status !== 200) throw new Error(`advance failed: ${r.text}`)
    },
  })
  const t: TestEngine = {
    get engine() {
      return engine
    },
    dataDir,
    get agent() {
      return agent
    },
    key,
    api(method, path, body, headers) {
      return apiWith(key, method, path, body, headers)
    },
    async raw(method, url, o = {}) {
      const res = await request(url, {method: method as 'GET', headers: o.headers, body: o.body, dispatcher: agent})
      const text = await res.body.text()
      const out = {status: res.statusCode, headers: res.headers as Res['headers'], body: text, text}
      // API URLs (not hosted pages) are checked against the OpenAPI document too
      const base = engine.baseUrl
      if ((url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`)))
        assertDocumented(method, url.slice(base.length) || '/', out)
      return out
    },
    async advance(seconds) {
      const r = await t.api('POST', '/test_helpers/clock/advance', {seconds})
      if (r.status !== 200) throw new Error(`advance failed: ${r.text}`)
    },
    as: (k) => asKey(k),
    async account(name) {
      const r = await t.api('POST', '/accounts', name === undefined ? {} : {name})
      if (r.status !== 201) throw new Error(`account creation failed: ${r.text}`)
      return {id: r.body.id, secretKey: r.body.secret_key, publishableKey: r.body.publishable_key, ...asKey(r.body.secret_key)}
    },
    async restart(changed) {
      await agent.close()
      await engine.close()
      engine = await start(changed)
      agent = clientAgent(engine)
    },
    async stop() {
      await agent.close()
      await engine.close()
      if (!opts.dataDir) rmSync(dataDir, {recursive: true, force: true})
    },
  }
  return t
}

export const card = (number = '4242424242424242', extra: Record<string, unknown> = {}) => ({
  type: 'card',
  card: {number, exp_month: 12, exp_year: 2034, cvc: number.startsWith('3') ? '1234' : '123', ...extra},
})
