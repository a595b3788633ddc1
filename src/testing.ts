// The package's test entry (package.json "exports" "./testing"): a gateway a merchant's test suite
// starts, gives each test file its own account, moves the clock of deterministically, receives
// webhooks from, and stops. Nothing here loads oclif or Ink; the engine is imported when a gateway
// starts.
//
// The engine runs in the test's own process: it starts in a few hundred milliseconds (no second
// Node process to boot and no start-up line to read), and it cannot outlive the test process —
// whatever kills the test run kills the engine with it.
import {createServer, type Server} from 'node:https'
import {join} from 'node:path'
import {Agent, request, type Dispatcher} from 'undici'
import {SIGNATURE_HEADER, SignatureVerificationError, verifySignature} from './api/webhook-signature.js'
import {parseDuration} from './base/parse.js'
import {clockSteps, MAX_CLOCK_STEPS} from './api/clock-steps.js'
import type {GwEvent, Snapshot, SnapshotLoad, TestClock} from './api/types.js'
import {makeThrowawayDir} from './temp-dirs.js'

export interface StartGatewayOptions {
  /** where the engine keeps its data; default a temporary directory removed by stop() */
  dataDir?: string
  /** the platform account's secret key (sk_test_...); default a fixed test key */
  secretKey?: string
  /** a PostgreSQL URL to share with other processes; default SQLite in the data dir */
  store?: string
  /**
   * a directory for the gateway's CA and certificate, shared by every gateway of a test run that
   * names it (default: the data dir's own): set NODE_EXTRA_CA_CERTS to `${tlsDir}/ca.crt` once
   */
  tlsDir?: string
  /** engine log lines (default: dropped) */
  log?: (line: string) => void
}

/** An isolated account of the gateway: its own keys, objects, events, webhooks and test clock. */
export interface GatewayAccount {
  id: string
  secretKey: string
  publishableKey: string
  /** calls the API with this account's secret key */
  api: ApiCaller
  clock: GatewayClock
  /** an HTTPS webhook receiver registered on this account: verifies signatures, collects events */
  receiver(opts?: {events?: string[]}): Promise<WebhookReceiver>
  /**
   * The account's whole state now (objects, events, jobs, the clock: GET /test_helpers/snapshot),
   * to put back with restore() between tests.
   */
  snapshot(): Promise<Snapshot>
  /**
   * Puts a snapshot back into this account, keeping this account's receivers working: each
   * receiver's endpoint that the snapshot holds keeps the receiver's signing secret, and a
   * receiver made after the snapshot gets its endpoint registered again (its `endpointId` and
   * `secret` change). A snapshot loaded with the SDK's `testHelpers.loadSnapshot()` instead gives
   * every endpoint a new secret, which the receivers cannot know.
   */
  restore(snapshot: Snapshot): Promise<SnapshotLoad>
}

export interface GatewayClock {
  now(): Promise<Date>
  /**
   * Moves this account's engine clock forward by a duration ("90s", "36h", "3d", "1d12h") or
   * seconds; with `wait`, resolves once every webhook attempt it made due has ended.
   */
  advance(duration: string | number, opts?: {wait?: boolean}): Promise<TestClock>
  /** freezes the clock (at `at`, the current engine time or later; more than 400 days ahead it gets there in 400-day steps, the jobs due in each run first): timestamps repeat run after run */
  freeze(at?: Date | string): Promise<TestClock>
  /** lets it tick again from where it stands */
  unfreeze(): Promise<TestClock>
}

export interface ApiResponse<T = any> {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: T
}

/** `api('POST', '/payments', {...})`: JSON in, JSON out, the key of its account; POSTs get an Idempotency-Key unless one is given. */
export type ApiCaller = <T = any>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, headers?: Record<string, string>) => Promise<ApiResponse<T>>

/** A gateway started by startGateway(): its URLs, CA and platform key, and isolated accounts for the tests. */
export interface TestGateway {
  /** e.g. https://127.0.0.1:PORT/v1 */
  baseUrl: string
  checkoutUrl: string
  /** the CA the gateway's certificate is signed by (PEM): trust it, e.g. `new Agent({connect: {ca}})` */
  ca: string
  /** the platform account's secret key: it creates accounts; tests should use account() */
  secretKey: string
  /** an undici dispatcher that trusts the gateway's CA: `fetch(url, {dispatcher})` with undici's fetch */
  dispatcher: Dispatcher
  /** the platform account's API */
  api: ApiCaller
  /**
   * A key and certificate for your own HTTPS webhook handler on 127.0.0.1 (webhook endpoints must
   * be HTTPS; a test-mode gateway delivers to loopback without checking the certificate's CA).
   */
  receiverTls(): Promise<{key: string; cert: string}>
  /** a fresh isolated account (one per test file keeps parallel files apart) */
  account(opts?: {name?: string}): Promise<GatewayAccount>
  /** deletes every account made with account() (their data, keys and clocks) */
  reset(): Promise<void>
  stop(): Promise<void>
}

/**
 * @deprecated renamed TestGateway: `Gateway` is the SDK's API client in `gw` (`new Gateway({...})`),
 * a different thing; this alias goes in a later major version.
 */
export type Gateway = TestGateway

const DEFAULT_KEY = 'sk_test_gw_testing_0123456789abcdef'

/** Starts a gateway for a test suite. */
export async function startGateway(opts: StartGatewayOptions = {}): Promise<TestGateway> {
  // a temporary dir records its owner: one a killed test run left is swept at the next start
  const temp = opts.dataDir ? undefined : makeThrowawayDir('gw-testing-')
  const dataDir = opts.dataDir ?? temp!.path
  let engine: Awaited<ReturnType<typeof import('./engine/index.js').startEngine>>
  try {
    const {startEngine} = await import('./engine/index.js')
    engine = await startEngine({
      dataDir,
      port: 0,
      apiKey: opts.secretKey ?? DEFAULT_KEY,
      rateLimit: 0,
      durability: 'normal',
      storeUrl: opts.store,
      tlsDir: opts.tlsDir,
      log: opts.log ?? (() => {}),
    })
  } catch (e) {
    temp?.remove()
    throw e
  }
  const ca = engine.caCertPem!
  const dispatcher = new Agent({connect: {ca}, keepAliveTimeout: 2000})
  const caller = (key: string): ApiCaller => async (method, path, body, headers = {}) => {
    const h: Record<string, string> = {authorization: `Bearer ${key}`, ...headers}
    if (body !== undefined) h['content-type'] = 'application/json'
    if (method === 'POST' && !Object.keys(h).some((k) => k.toLowerCase() === 'idempotency-key')) h['idempotency-key'] = `gw-testing-${crypto.randomUUID()}`
    const res = await request(`${engine.baseUrl}${path}`, {method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), dispatcher})
    const text = await res.body.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // not JSON (e.g. a CSV download): the text as it came
    }
    return {status: res.statusCode, headers: res.headers, body: parsed as any}
  }
  const api = caller(engine.secretKey)
  const made: string[] = []
  const receivers: Receiver[] = []
  let stopped = false

  const ok = <T>(r: ApiResponse<T>, what: string): T => {
    if (r.status >= 300) throw new Error(`${what} failed: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }

  const gateway: TestGateway = {
    baseUrl: engine.baseUrl,
    checkoutUrl: engine.checkoutUrl,
    ca,
    secretKey: engine.secretKey,
    dispatcher,
    api,
    async receiverTls() {
      const tls = await receiverCertificate(dataDir)
      return {key: tls.key, cert: tls.cert}
    },
    async account(o = {}) {
      const a = ok(await api<{id: string; secret_key: string; publishable_key: string}>('POST', '/accounts', o.name ? {name: o.name} : {}), 'creating an account')
      made.push(a.id)
      const accountApi = caller(a.secret_key)
      const mine: Receiver[] = []
      return {
        id: a.id,
        secretKey: a.secret_key,
        publishableKey: a.publishable_key,
        api: accountApi,
        clock: clockOf(accountApi),
        async receiver(r = {}) {
          const rx = await startReceiver(accountApi, dataDir, r.events ?? ['*'])
          receivers.push(rx)
          mine.push(rx)
          return rx
        },
        async snapshot() {
          return ok(await accountApi<Snapshot>('GET', '/test_helpers/snapshot'), 'saving a snapshot')
        },
        async restore(snapshot) {
          const open = mine.filter((rx) => !rx.closed)
          const loaded = ok(await accountApi<SnapshotLoad>('POST', '/test_helpers/snapshot', withReceiverSecrets(snapshot, open)), 'loading the snapshot')
          // a receiver made after the snapshot was saved: the load deleted its endpoint, so it registers again
          const held = new Set(endpointsIn(snapshot))
          for (const rx of open) if (!held.has(rx.endpointId)) await rx.register()
          return loaded
        },
      }
    },
    async reset() {
      for (const id of made.splice(0)) {
        const r = await api('DELETE', `/accounts/${id}`)
        if (r.status !== 200 && r.status !== 404) throw new Error(`deleting account ${id} failed: ${r.status} ${JSON.stringify(r.body)}`)
      }
    },
    async stop() {
      if (stopped) return
      stopped = true
      await Promise.allSettled(receivers.map((r) => r.close()))
      await dispatcher.close()
      await engine.close()
      temp?.remove()
    },
  }
  return gateway
}

function clockOf(api: ApiCaller): GatewayClock {
  const clock: GatewayClock = {
    async now() {
      const r = await api<TestClock>('GET', '/test_helpers/clock')
      return new Date(r.body.now)
    },
    async advance(duration, o = {}) {
      const seconds = typeof duration === 'number' ? duration : parseDuration(duration)
      const r = await api<TestClock>('POST', '/test_helpers/clock/advance', o.wait ? {seconds, wait: true} : {seconds})
      if (r.status !== 200) throw new Error(`advancing the clock failed: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body
    },
    async freeze(at) {
      if (at !== undefined) {
        // one request moves the clock at most 400 days: an instant further ahead is reached in steps
        const steps = clockSteps((await clock.now()).getTime(), new Date(at).getTime())
        if (steps.length > MAX_CLOCK_STEPS) throw new Error(`freezing the clock at ${new Date(at).toISOString()}: more than ${MAX_CLOCK_STEPS} steps of 400 days ahead of the engine clock; choose an instant within about 10 years`)
        for (const step of steps.slice(0, -1)) {
          const r = await api<TestClock>('POST', '/test_helpers/clock', {now: new Date(step).toISOString()})
          if (r.status !== 200) throw new Error(`setting the clock failed: ${r.status} ${JSON.stringify(r.body)}`)
        }
      }
      const r = await api<TestClock>('POST', '/test_helpers/clock', {frozen: true, ...(at === undefined ? {} : {now: new Date(at).toISOString()})})
      if (r.status !== 200) throw new Error(`freezing the clock failed: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body
    },
    async unfreeze() {
      const r = await api<TestClock>('POST', '/test_helpers/clock', {frozen: false})
      if (r.status !== 200) throw new Error(`unfreezing the clock failed: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body
    },
  }
  return clock
}

/** "90s", "36h", "1d12h" -> seconds: the CLI's own parser (--for, --within). */
export {parseDuration} from './base/parse.js'

// ---------------------------------------------------------------- webhook receiver

export interface WebhookReceiver {
  /** the endpoint's URL (HTTPS on 127.0.0.1) */
  readonly url: string
  /** the webhook endpoint registered on the account (a new one after a restore() of a snapshot saved before it) */
  readonly endpointId: string
  /** its signing secret */
  readonly secret: string
  /** every event received with a valid signature, in arrival order (duplicates included) */
  events: GwEvent[]
  /** deliveries refused because their signature did not verify */
  readonly rejected: number
  /** why each refused delivery was refused, in arrival order: the signature check's reason (signature_mismatch, malformed_header, timestamp_out_of_tolerance) */
  readonly rejections: readonly string[]
  /**
   * The next event of this type (and object id, if given) not yet returned by next(); waits up to
   * timeoutMs (default 10 s). A timeout says what arrived, and why deliveries were refused or
   * could not come (a signing secret the receiver does not know, its endpoint deleted or disabled).
   */
  next(type: string, opts?: {object?: string; timeoutMs?: number}): Promise<GwEvent>
  /** what the receiver answers (default 200) */
  respondWith(status: number): void
  close(): Promise<void>
}

/** The receiver as the account that made it sees it: it can register its endpoint again. */
interface Receiver extends WebhookReceiver {
  readonly closed: boolean
  /** registers a new endpoint at the receiver's URL (after a restore deleted its own) */
  register(): Promise<void>
}

/** The ids of the webhook endpoints a snapshot holds. */
function endpointsIn(snapshot: Snapshot): string[] {
  return (snapshot.rows.objects as {kind?: string; obj?: {id?: string}}[]).filter((o) => o.kind === 'webhook_endpoint' && typeof o.obj?.id === 'string').map((o) => o.obj!.id!)
}

/**
 * The snapshot with each receiver's endpoint holding the receiver's signing secret in the clear
 * (a load seals it: docs/api.md#secrets-at-rest), so deliveries after the load verify as before: a
 * snapshot saved without secrets holds none, and its endpoints would get new ones.
 */
function withReceiverSecrets(snapshot: Snapshot, receivers: readonly Receiver[]): Snapshot {
  const secrets = new Map(receivers.map((rx) => [rx.endpointId, rx.secret]))
  const objects = (snapshot.rows.objects as {kind?: string; obj?: {id?: string; _x?: object; previous_secret_expires_at?: string | null}}[]).map((o) => {
    const secret = o.kind === 'webhook_endpoint' ? secrets.get(o.obj?.id ?? '') : undefined
    return secret === undefined ? o : {...o, obj: {...o.obj, previous_secret_expires_at: null, _x: {...o.obj!._x, secret, previous_secret: null}}}
  })
  return {...snapshot, rows: {...snapshot.rows, objects}}
}

/** The loopback receivers' certificate, made once per data dir. */
async function receiverCertificate(dataDir: string) {
  const {ensureCertificates} = await import('./engine/tls/certificates.js')
  // a test-mode gateway delivers to loopback receivers without checking their certificate (docs/api.md)
  const dir = join(dataDir, 'receivers')
  return ensureCertificates({caCert: join(dir, 'ca.pem'), caKey: join(dir, 'ca-key.pem'), serverCert: join(dir, 'cert.pem'), serverKey: join(dir, 'key.pem')}, '127.0.0.1')
}

/** What a refusal reason means for a receiver, and what to do. */
const REJECTION_HELP: Record<string, string> = {
  signature_mismatch: "the endpoint signs with a secret this receiver does not know (a snapshot loaded with testHelpers.loadSnapshot() or POST /test_helpers/snapshot gives its endpoints new secrets, as does rotate_secret): put snapshots back with the account's restore()",
  malformed_header: 'the Service-Signature header was missing or malformed',
  timestamp_out_of_tolerance: "the signature's timestamp was more than 5 minutes from this machine's clock",
}

async function startReceiver(api: ApiCaller, dataDir: string, events: string[]): Promise<Receiver> {
  const tls = await receiverCertificate(dataDir)
  let status = 200
  let secret = ''
  let endpointId = ''
  let closed = false
  const received: GwEvent[] = []
  const taken = new Set<GwEvent>()
  const waiters = new Set<() => void>()
  const rejections: string[] = []
  const server: Server = createServer({key: tls.key, cert: tls.cert}, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      try {
        verifySignature({payload: raw, header: String(req.headers[SIGNATURE_HEADER.toLowerCase()] ?? ''), secret})
      } catch (e) {
        rejections.push(e instanceof SignatureVerificationError ? e.reason : 'unreadable')
        res.writeHead(400).end()
        return
      }
      received.push(JSON.parse(raw) as GwEvent)
      for (const w of waiters) w()
      res.writeHead(status, {'content-type': 'application/json'}).end('{"received":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `https://127.0.0.1:${(server.address() as {port: number}).port}/webhooks`
  const register = async () => {
    const created = await api<{id: string; secret: string}>('POST', '/webhook_endpoints', {url, enabled_events: events})
    if (created.status !== 201) throw new Error(`registering the receiver failed: ${created.status} ${JSON.stringify(created.body)}`)
    ;[endpointId, secret] = [created.body.id, created.body.secret]
  }
  try {
    await register()
  } catch (e) {
    server.close()
    throw e
  }
  /** Why nothing (more) came, beyond what was received: refused deliveries, an endpoint gone or off. */
  const why = async (): Promise<string> => {
    const reasons: string[] = []
    if (rejections.length) {
      const counts = new Map<string, number>()
      for (const r of rejections) counts.set(r, (counts.get(r) ?? 0) + 1)
      reasons.push(`refused ${rejections.length} ${rejections.length === 1 ? 'delivery' : 'deliveries'}: ${[...counts].map(([r, n]) => `${r} ×${n}${REJECTION_HELP[r] ? ` (${REJECTION_HELP[r]})` : ''}`).join('; ')}`)
    }
    const ep = await api<{status?: string}>('GET', `/webhook_endpoints/${endpointId}`).catch(() => undefined)
    if (ep?.status === 404) reasons.push(`its endpoint ${endpointId} no longer exists on the account (a snapshot saved before receiver() was called deletes it when loaded: put snapshots back with the account's restore(), which registers it again)`)
    else if (ep?.status === 200 && ep.body.status && ep.body.status !== 'enabled') reasons.push(`its endpoint ${endpointId} is ${ep.body.status}`)
    return reasons.length ? `; ${reasons.join('; ')}` : ''
  }
  const find = (type: string, object?: string) =>
    received.find((e) => !taken.has(e) && e.type === type && (object === undefined || (e.data.object as {id?: string}).id === object))
  return {
    url,
    get endpointId() {
      return endpointId
    },
    get secret() {
      return secret
    },
    events: received,
    get rejected() {
      return rejections.length
    },
    rejections,
    get closed() {
      return closed
    },
    register,
    respondWith(s) {
      status = s
    },
    next(type, o = {}) {
      const ms = o.timeoutMs ?? 10_000
      return new Promise<GwEvent>((resolve, reject) => {
        const check = () => {
          const e = find(type, o.object)
          if (!e) return false
          taken.add(e)
          waiters.delete(check)
          clearTimeout(timer)
          resolve(e)
          return true
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          const seen = `received: ${received.map((e) => e.type).join(', ') || 'nothing'}`
          why().then(
            (more) => reject(new Error(`no ${type}${o.object ? ` for ${o.object}` : ''} event within ${ms} ms (${seen})${more}`)),
            () => reject(new Error(`no ${type}${o.object ? ` for ${o.object}` : ''} event within ${ms} ms (${seen})`)),
          )
        }, ms)
        if (!check()) waiters.add(check)
      })
    },
    async close() {
      closed = true
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
