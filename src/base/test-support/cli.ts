// Runs gw commands in-process for tests: a temp XDG config dir, undici's MockAgent as the
// only network, captured stdout/stderr, and the exit code the command set.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {Config} from '@oclif/core'
import {MockAgent} from 'undici'
import {afterEach, beforeEach} from 'vitest'
import type {ApiKey, Payment} from '../../api/types.js'
import {testHooks} from '../command.js'

export const ROOT = resolve(import.meta.dirname, '../../..')
export const BASE = 'https://api.test'
export const BASE_URL = `${BASE}/v1`
export const TEST_KEY = 'sk_test_unit_0123456789abcdefWXYZ'
export const LIVE_KEY = 'sk_live_unit_0123456789abcdefLIVE'

let config: Config | undefined

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Runnable = {run(argv?: string[], opts?: any): Promise<unknown>}

export interface RunResult<R = unknown> {
  stdout: string
  stderr: string
  exitCode: number
  result: R | undefined
  /** questions asked through the prompt hook */
  prompts: {question: string; hidden: boolean}[]
}

export interface RunOptions {
  env?: Record<string, string>
  stdin?: string
  interactive?: boolean
  answers?: string[]
  /** stdout is a terminal of this many columns (tables fit it; --all draws a table instead of NDJSON) */
  tty?: number
}

export interface CliEnv {
  dir: string
  mock: MockAgent
  pool: ReturnType<MockAgent['get']>
  run<R = unknown>(cmd: Runnable, argv: string[], opts?: RunOptions): Promise<RunResult<R>>
  cleanup(): Promise<void>
}

const GW_ENV = Object.keys(process.env).filter((k) => k.startsWith('GW_'))

export async function cliEnv(): Promise<CliEnv> {
  config ??= await Config.load(ROOT)
  const dir = mkdtempSync(join(tmpdir(), 'gw-cli-test-'))
  const mock = new MockAgent()
  mock.disableNetConnect()
  const pool = mock.get(BASE)
  return {
    dir,
    mock,
    pool,
    async run<R>(cmd: Runnable, argv: string[], opts: RunOptions = {}) {
      const saved = {...process.env}
      for (const k of GW_ENV) delete process.env[k]
      delete process.env.NO_COLOR
      Object.assign(process.env, {XDG_CONFIG_HOME: join(dir, 'config'), HOME: dir, GW_NO_KEYRING: '1', ...opts.env})
      testHooks.dispatcher = mock
      testHooks.sleep = async () => {}
      testHooks.stdin = opts.stdin === undefined ? undefined : async () => opts.stdin!
      testHooks.interactive = opts.interactive ?? false
      const answers = [...(opts.answers ?? [])]
      const prompts: {question: string; hidden: boolean}[] = []
      testHooks.prompt = async (q, o) => {
        prompts.push({question: q, hidden: o.hidden})
        const a = answers.shift()
        if (a === undefined) throw new Error(`unexpected prompt: ${q}`)
        return a
      }
      let stdout = ''
      let stderr = ''
      const out = process.stdout.write
      const err = process.stderr.write
      process.stdout.write = ((chunk: string | Uint8Array) => {
        stdout += chunk.toString()
        return true
      }) as typeof process.stdout.write
      process.stderr.write = ((chunk: string | Uint8Array) => {
        stderr += chunk.toString()
        return true
      }) as typeof process.stderr.write
      process.exitCode = undefined
      const tty = {isTTY: process.stdout.isTTY, columns: process.stdout.columns}
      if (opts.tty) Object.assign(process.stdout, {isTTY: true, columns: opts.tty})
      let result: R | undefined
      try {
        result = (await cmd.run(argv, config)) as R
      } finally {
        process.stdout.write = out
        process.stderr.write = err
        if (opts.tty) Object.assign(process.stdout, tty)
        process.env = saved
      }
      const exitCode = Number(process.exitCode ?? 0)
      process.exitCode = undefined
      return {stdout, stderr, exitCode, result, prompts}
    },
    async cleanup() {
      testHooks.dispatcher = undefined
      testHooks.sleep = undefined
      testHooks.stdin = undefined
      testHooks.prompt = undefined
      testHooks.interactive = undefined
      testHooks.credentials = undefined
      await mock.close()
      rmSync(dir, {recursive: true, force: true})
    },
  }
}

/** Arguments that point a command at the mock API with a test key (as a test would; docs never put keys in argv). */
export const at = (key = TEST_KEY) => ['--base-url', BASE_URL, '--api-key', key]

export function payment(over: Partial<Payment> = {}): Payment {
  return {
    id: 'pay_123',
    object: 'payment',
    amount: 2000,
    amount_captured: 2000,
    amount_refunded: 0,
    currency: 'EUR',
    status: 'succeeded',
    payment_method: 'card',
    payment_method_id: null,
    payment_method_details: {card: {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, funding: 'credit', country: 'US'}},
    capture_method: 'automatic',
    customer: null,
    description: null,
    reference: 'order_1',
    metadata: {},
    provider: 'prov_a',
    provider_attempts: [{provider: 'prov_a', outcome: 'approved', decline_code: null, latency_ms: 12, attempted_at: '2025-01-01T00:00:00Z'}],
    risk: {score: 5, decision: 'approved', checks: {avs_result: 'pass', cvv_result: 'pass'}},
    next_action: null,
    return_url: null,
    refunded: false,
    partially_refunded: false,
    failure_code: null,
    failure_message: null,
    livemode: false,
    created_at: '2025-01-01T00:00:00Z',
    merchant: null,
    ...over,
  }
}

/** GET /v1/api_keys/self's answer (what `gw login` checks a key with): a secret key, or a restricted one with these permissions. */
export function apiKeySelf(permissions: string[] | null = null, over: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'key_unit_1',
    object: 'api_key',
    type: permissions ? 'restricted' : 'secret',
    name: permissions ? 'support' : 'engine',
    redacted: permissions ? 'rk_test_…WXYZ' : 'sk_test_…WXYZ',
    permissions,
    status: 'active',
    expires_at: null,
    last_used_at: null,
    revoked_at: null,
    livemode: false,
    created_at: '2025-01-01T00:00:00Z',
    ...over,
  }
}

export const errorBody = (type: string, code: string, message: string, extra: Record<string, string> = {}) => ({
  error: {type, code, message, doc_url: `https://docs.gw.dev/errors#${code}`, request_id: 'req_err_1', ...extra},
})

export const json = {headers: {'content-type': 'application/json', 'request-id': 'req_ok_1'}}

export interface CapturedPost {
  /** the request's JSON body ({} when it had none) */
  body: Record<string, unknown>
  headers: Record<string, string>
}

type Intercepted = {body?: unknown; headers?: unknown}
const bodyOf = (o: Intercepted) => JSON.parse(String(o.body ?? '{}')) as Record<string, unknown>

/** Answers every POST to `path` on the mock API with `reply`, keeping what `read` takes of each request (a live list). */
function capture<T>(cli: CliEnv, path: string, reply: object, status: number, read: (o: Intercepted) => T): T[] {
  const seen: T[] = []
  cli.pool
    .intercept({path, method: 'POST'})
    .reply((o) => {
      seen.push(read(o))
      return {statusCode: status, data: reply, responseOptions: json}
    })
    .persist()
  return seen
}

/** Every POST to `path` (its body and headers), each answered with `reply`. */
export const capturePosts = (cli: CliEnv, path: string, reply: object, status = 201): CapturedPost[] => capture(cli, path, reply, status, (o) => ({body: bodyOf(o), headers: o.headers as Record<string, string>}))

/** The JSON body of every POST to `path`, each answered with `reply`. */
export const capturePostBodies = (cli: CliEnv, path: string, reply: object, status = 201): Record<string, unknown>[] => capture(cli, path, reply, status, bodyOf)

/**
 * Per test of the calling file (vitest hooks): a fresh temp dir as HOME, and a MockAgent as the
 * only network. `env()` points gw at the mock API with the test key.
 */
export function mockApiPerTest(prefix: string) {
  const t = {
    dir: '',
    mock: undefined as unknown as MockAgent,
    env: () => ({XDG_CONFIG_HOME: join(t.dir, 'config'), HOME: t.dir, GW_BASE_URL: `${BASE}/v1`, GW_API_KEY: TEST_KEY}),
  }
  beforeEach(() => {
    t.dir = mkdtempSync(join(tmpdir(), prefix))
    t.mock = new MockAgent()
    t.mock.disableNetConnect()
  })
  afterEach(async () => {
    await t.mock.close()
    rmSync(t.dir, {recursive: true, force: true})
  })
  return t
}
