import {randomBytes} from 'node:crypto'
import {closeSync, createWriteStream, existsSync, mkdirSync, openSync, readFileSync, type WriteStream} from 'node:fs'
import {hostname} from 'node:os'
import {createSecureContext} from 'node:tls'
import {join, resolve} from 'node:path'
import {localEnginePaths, tlsPathsIn, type LocalEngineInfo} from '../local-engine.js'
import {RandomIds} from './adapters/ids.js'
import {createKeyFile, readKeyFile} from './adapters/secret-box.js'
import {keepPrivate, privateDataDir, writePrivateFile} from './adapters/private-files.js'
import {agreeSecretsKey, SecretsKeyError} from './core/secrets.js'
import {App} from './app/index.js'
import type {DeliveryWorkerOptions} from './core/delivery-worker.js'
import {createCheckout} from './checkout/pages.js'
import {createPipeline} from './http/pipeline.js'
import {Metrics} from './http/metrics.js'
import {createOperations, parseListen, serveMetrics} from './http/operations.js'
import {ensurePlatformAccount} from './app/accounts.js'
import {DestinationPolicy} from './domain/destinations.js'
import {FleetConfigError, FleetSettings} from './core/fleet.js'
import {KeyAuthority, registerEngineKey} from './app/keys.js'
import {routes} from './http/routes.js'
import {listen, type ListeningServer} from './http/server.js'
import {ConnectionBudget, DEFAULT_CONNECTIONS_PER_ADDRESS, defaultMaxConnections, descriptorLimit, FIRST_REQUEST_MS} from './http/connections.js'
import {DEFAULT_STREAMS_PER_ACCOUNT, StreamBudget} from './http/sse.js'
import type {ProviderConnection} from './ports/provider.js'
import type {Store, StoreFactory} from './ports/store.js'
import {createSimulatedProviders} from './providers/simulated.js'
import {SqliteStore} from './store/sqlite/sqlite-store.js'
import {ensureCertificates} from './tls/certificates.js'

export interface EngineOptions {
  dataDir: string
  host?: string
  port?: number
  /** a directory for the CA and server certificate instead of the data dir's tls/ (shared by a test run's engines: one CA to trust) */
  tlsDir?: string
  /** fixes the test secret key; otherwise one is created once and kept in the data dir */
  apiKey?: string
  /** requests per second per account and mode (default 100, bucket of 2 s; publishable keys the same in a bucket of their own); 0 turns the limits off, the failed-authentication one too. A fleet setting (see updateFleetSettings). */
  rateLimit?: number
  /** the largest snapshot POST /v1/test_helpers/snapshot loads, in bytes (default 64 MiB; gw serve --snapshot-max-bytes) */
  snapshotMaxBytes?: number
  /** proxies in front (a load balancer) whose X-Forwarded-For entries are believed for the client address of the failed-authentication limit and of the connection cap; default 0: the socket's peer */
  trustedProxies?: number
  /** connections the API port holds at once at most (gw serve --max-connections); default below the descriptor limit (http/connections.ts defaultMaxConnections) */
  maxConnections?: number
  /** connections one client address holds at once at most (gw serve --max-connections-per-address; 0: no cap); default DEFAULT_CONNECTIONS_PER_ADDRESS */
  maxConnectionsPerAddress?: number
  /** event streams one account holds open at once at most on this instance (gw serve --max-event-streams); default DEFAULT_STREAMS_PER_ACCOUNT */
  maxEventStreams?: number
  /** on a shared store (PostgreSQL), change the fleet's settings to this instance's flags (rate limit, payout currency, webhook destinations) instead of refusing a disagreeing start */
  updateFleetSettings?: boolean
  /** 'full' (default): every commit is fsynced */
  durability?: 'full' | 'normal'
  /** settle every currency into this one (simulated fixed rates); default: one payout per currency */
  payoutCurrency?: string
  log?: (line: string) => void
  /** lines about ordinary happenings (a client aborting its request); default: none */
  debug?: (line: string) => void
  /** makes the store the engine runs on; default: `storeUrl`'s */
  store?: StoreFactory
  /** where the data lives: 'sqlite' or nothing (SQLite in the data dir, with `durability`), or a PostgreSQL URL that several instances share */
  storeUrl?: string
  /** copy a SQLite data dir's contents into the (empty) PostgreSQL store before serving */
  importFrom?: string
  /** provider connections by provider id; default: the simulated providers */
  providers?: Map<string, ProviderConnection>
  deliveries?: DeliveryWorkerOptions
  /** how long a timeline job or webhook delivery claimed by an instance that died waits before another instance takes it (default 60 s) */
  claimLeaseMs?: number
  /** webhooks only to these CIDRs (link-local and cloud-metadata addresses are refused whatever this says) */
  webhookAllow?: string[]
  /** the address clients and customers reach the engine at (a load balancer's): every URL the engine advertises starts with it */
  publicUrl?: string
  /** a certificate (PEM, with its chain) and key to serve instead of the data dir's generated ones */
  tlsCert?: string
  tlsKey?: string
  /** what clients should trust for that certificate, when it is not a public CA's (PEM file) */
  tlsCa?: string
  /** append one JSON line per API request to this file */
  accessLog?: string
  /** this instance's name in metrics and the access log (default: host name and port) */
  instanceName?: string
  /** serve GET /metrics on this HOST:PORT (plain HTTP) and no longer on the API port (docs/decisions.md#the-fleet) */
  metricsListen?: string
  /**
   * the engine's secrets key (32 bytes; raw, hex or base64), which seals webhook signing secrets
   * in the store: default the data dir's secrets.key (made at first start). Every instance on one
   * database must use the same key (a fleet on PostgreSQL: one file, copied to each).
   */
  secretsKeyFile?: string
}

/** The default store: SQLite in the data dir (one engine instance per data dir). */
export const sqliteStore = (path: string, durability: 'full' | 'normal' | undefined): StoreFactory => async () => new SqliteStore({path, durability})

const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url)

/** A store URL with its password hidden, for logs and messages. */
export function redactStoreUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return url.replace(/:\/\/([^:@/]*):[^@/]*@/, '://$1:***@')
  }
}

/** The store factory of a `--store` value: SQLite in the data dir, or PostgreSQL (loaded only then). */
export function storeFromUrl(url: string | undefined, opts: {database: string; durability?: 'full' | 'normal'; log?: (line: string) => void; importFrom?: string}): StoreFactory {
  if (url === undefined || url === '' || url.toLowerCase() === 'sqlite') {
    if (opts.importFrom !== undefined) throw new EngineConfigError('--import-from copies a SQLite data dir into PostgreSQL: use it with --store postgres://...')
    return sqliteStore(opts.database, opts.durability)
  }
  if (!isPostgresUrl(url)) throw new EngineConfigError(`--store must be 'sqlite' or a PostgreSQL URL such as postgres://gw@127.0.0.1:5432/gw; got '${redactStoreUrl(url)}'.`)
  try {
    new URL(url)
  } catch {
    throw new EngineConfigError(`--store is not a valid URL: '${redactStoreUrl(url)}'. Write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE (percent-encode special characters).`)
  }
  return async () => {
    const {PostgresStore} = await import('./store/postgres/postgres-store.js')
    let store
    try {
      store = await PostgresStore.open({url, log: opts.log})
    } catch (e) {
      throw new EngineConfigError(`Cannot open the PostgreSQL store at ${redactStoreUrl(url)}: ${(e as Error).message}. Check that the server runs, the database exists and the user may connect (e.g. psql '${redactStoreUrl(url)}').`)
    }
    if (opts.importFrom !== undefined) {
      const {importSqliteDir} = await import('./store/postgres/import.js')
      try {
        await importSqliteDir(store, opts.importFrom, opts.log)
      } catch (e) {
        await store.close().catch(() => {})
        throw new EngineConfigError((e as Error).message)
      }
    }
    return store
  }
}

export interface EngineHandle {
  baseUrl: string
  checkoutUrl: string
  /** what clients trust: the generated CA, a brought --tls-ca, or undefined for a certificate of a public CA */
  caCertPem: string | undefined
  caFile: string | null
  secretKey: string
  port: number
  /** where GET /metrics is served when --metrics-listen says (http://HOST:PORT/metrics); undefined: on the API port */
  metricsUrl?: string
  app: App
  /** where the data lives: 'sqlite (DATABASE FILE)' or the PostgreSQL URL with its password hidden */
  store: string
  /**
   * Stops gracefully. `drainMs` (gw serve --drain): first that long not ready (/readyz 503, so a
   * balancer takes the instance out) while requests, new and in flight, are still served, each
   * response closing its connection; then the listener closes and requests in flight finish.
   * Called again during the drain with `drainMs: 0`, it ends the drain at once (a second Ctrl-C).
   */
  close(opts?: {drainMs?: number}): Promise<void>
}

const KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** The data dir's secrets key (without --secrets-key-file). */
export const SECRETS_KEY_FILE = 'secrets.key'

/** A log file to append to, made (or kept) readable by its owner only: a mode given to a stream holds only for a file it creates, and the umask cuts it. */
function privateLogFile(path: string): void {
  try {
    closeSync(openSync(path, 'a', 0o600))
    keepPrivate(path)
  } catch (e) {
    throw new EngineConfigError(`--access-log: cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). Give a file in a directory this user may write.`)
  }
}

export class EngineConfigError extends Error {}

function secretKeyFor(dataDir: string, fixed: string | undefined): string {
  const file = localEnginePaths(dataDir).secretKey
  if (fixed !== undefined) {
    if (fixed.startsWith('sk_live_'))
      throw new EngineConfigError('The local engine runs test mode only: live mode needs real provider connections. Use an sk_test_ key.')
    if (!/^sk_test_[A-Za-z0-9_]{8,200}$/.test(fixed))
      throw new EngineConfigError('--api-key must look like sk_test_ followed by at least 8 letters, digits or underscores.')
    writePrivateFile(file, fixed + '\n')
    return fixed
  }
  if (existsSync(file)) {
    keepPrivate(file)
    return readFileSync(file, 'utf8').trim()
  }
  const key = 'sk_test_' + [...randomBytes(32)].map((b) => KEY_ALPHABET[b % 62]).join('')
  writePrivateFile(file, key + '\n')
  return key
}

/** The origin of --public-url: https, no path, query or fragment (the engine adds /v1 and /checkout). */
function checkPublicUrl(raw: string): string {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new EngineConfigError(`--public-url must be an absolute URL such as https://gw.example.com; got '${raw}'.`)
  }
  if (u.protocol !== 'https:') throw new EngineConfigError(`--public-url must use https (the engine speaks TLS only); got '${raw}'.`)
  if ((u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || u.username || u.password)
    throw new EngineConfigError(`--public-url is an origin only, such as https://gw.example.com or https://gw.example.com:8443 (the engine adds /v1 and /checkout); got '${raw}'.`)
  return u.origin
}

/** A certificate and key the operator brings (--tls-cert, --tls-key), checked to belong together. */
function broughtCertificate(opts: EngineOptions): {key: string; cert: string; caCert: string | undefined; caFile: string | null} {
  if (opts.tlsCert === undefined || opts.tlsKey === undefined) throw new EngineConfigError('--tls-cert and --tls-key go together: the certificate (PEM, with its chain) and its private key.')
  const read = (flag: string, path: string) => {
    try {
      return readFileSync(path, 'utf8')
    } catch (e) {
      throw new EngineConfigError(`${flag}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`)
    }
  }
  const cert = read('--tls-cert', opts.tlsCert)
  const key = read('--tls-key', opts.tlsKey)
  try {
    createSecureContext({cert, key})
  } catch (e) {
    throw new EngineConfigError(`--tls-cert and --tls-key do not make a usable pair: ${(e as Error).message}. Give the certificate (PEM) and the private key it was issued for.`)
  }
  const caCert = opts.tlsCa === undefined ? undefined : read('--tls-ca', opts.tlsCa)
  return {key, cert, caCert, caFile: opts.tlsCa === undefined ? null : resolve(opts.tlsCa)}
}

/** Starts the embedded gateway: HTTPS on one port, a store (SQLite in the data dir by default), simulated providers. */
export async function startEngine(opts: EngineOptions): Promise<EngineHandle> {
  const host = opts.host ?? '127.0.0.1'
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'))
  // the flags are checked before anything is opened
  const metricsAt = checkFlags(opts)
  const paths = prepareDataDir(opts, log)
  const secretKey = secretKeyFor(opts.dataDir, opts.apiKey)
  const publicOrigin = opts.publicUrl === undefined ? undefined : checkPublicUrl(opts.publicUrl)
  const tls = opts.tlsCert !== undefined || opts.tlsKey !== undefined ? broughtCertificate(opts) : await ensureCertificates(opts.tlsDir === undefined ? paths : tlsPathsIn(resolve(opts.tlsDir)), host)
  // (a file that cannot be written is refused before anything is opened)
  if (opts.accessLog !== undefined) privateLogFile(opts.accessLog)
  const store = await (opts.store ?? storeFromUrl(opts.storeUrl, {database: paths.database, durability: opts.durability, log, importFrom: opts.importFrom}))()
  // the port is known only after listening; URLs are filled in then
  const urls = {baseUrl: '', checkoutUrl: ''}
  const {app, fleet} = await openApp(opts, store, urls, log)
  const keys = await engineKeys(app, store, secretKey, opts.dataDir)
  const served = serving(opts, app, store, keys, fleet, metricsAt !== undefined, log)
  const {server, metricsServer} = await listenOn(opts, host, tls, served, app, store, metricsAt)
  advertise(opts, host, publicOrigin, server.port, urls, served.state, served.metrics)
  writePrivateFile(paths.info, JSON.stringify(engineInfo(urls, tls.caFile, paths.secretKey), null, 2) + '\n')
  // timeline jobs as they fall due, webhook attempts, housekeeping
  app.start()
  return {
    baseUrl: urls.baseUrl,
    checkoutUrl: urls.checkoutUrl,
    caCertPem: tls.caCert,
    caFile: tls.caFile,
    secretKey,
    port: server.port,
    metricsUrl: metricsServer?.url,
    app,
    store: opts.store ? 'custom' : opts.storeUrl && opts.storeUrl.toLowerCase() !== 'sqlite' ? redactStoreUrl(opts.storeUrl) : `sqlite (${paths.database})`,
    close: closer(served, server, metricsServer, app, keys, store),
  }
}

/** The flags that need no file or store, checked; where --metrics-listen serves, if it does. */
function checkFlags(opts: EngineOptions): ReturnType<typeof parseListen> {
  if (opts.snapshotMaxBytes !== undefined && !(Number.isSafeInteger(opts.snapshotMaxBytes) && opts.snapshotMaxBytes >= 1024))
    throw new EngineConfigError('--snapshot-max-bytes must be a whole number of bytes, 1024 or more (e.g. 268435456 for 256 MiB).')
  const limit = descriptorLimit()
  if (opts.maxConnections !== undefined && !(Number.isSafeInteger(opts.maxConnections) && opts.maxConnections >= 1 && (limit === undefined || opts.maxConnections < limit)))
    throw new EngineConfigError(`--max-connections must be a whole number from 1 to below this process's limit on open files (${limit ?? 'unknown'}; ulimit -n), leaving room for the store, logs and outgoing connections; the default is ${defaultMaxConnections(limit)}.`)
  if (opts.maxConnectionsPerAddress !== undefined && !(Number.isSafeInteger(opts.maxConnectionsPerAddress) && opts.maxConnectionsPerAddress >= 0))
    throw new EngineConfigError(`--max-connections-per-address must be a whole number, 0 (no cap) or more; the default is ${DEFAULT_CONNECTIONS_PER_ADDRESS}.`)
  if (opts.maxEventStreams !== undefined && !(Number.isSafeInteger(opts.maxEventStreams) && opts.maxEventStreams >= 1))
    throw new EngineConfigError(`--max-event-streams must be a whole number, 1 or more; the default is ${DEFAULT_STREAMS_PER_ACCOUNT}.`)
  if (opts.payoutCurrency !== undefined && !/^[A-Z]{3}$/.test(opts.payoutCurrency))
    throw new EngineConfigError('--payout-currency must be an uppercase ISO 4217 code such as EUR.')
  try {
    new DestinationPolicy(opts.webhookAllow)
  } catch (e) {
    throw new EngineConfigError((e as Error).message)
  }
  const metricsAt = opts.metricsListen === undefined ? undefined : parseListen(opts.metricsListen)
  if (opts.metricsListen !== undefined && !metricsAt)
    throw new EngineConfigError(`--metrics-listen takes HOST:PORT, such as 127.0.0.1:9464 or [::1]:9464; got '${opts.metricsListen}'.`)
  return metricsAt
}

/** The data dir is the engine's own: made 0700 (or a warning when others may read it), its TLS dir made, its files kept private. */
function prepareDataDir(opts: EngineOptions, log: (line: string) => void): ReturnType<typeof localEnginePaths> {
  privateDataDir(opts.dataDir, log)
  const paths = localEnginePaths(opts.dataDir)
  // --tls-dir: a certificate directory shared by several engines (a test run trusts one CA)
  const tlsPaths = opts.tlsDir === undefined ? paths : tlsPathsIn(resolve(opts.tlsDir))
  mkdirSync(tlsPaths.tlsDir, {recursive: true, mode: 0o700})
  // files an older gw wrote with another mode (certificates were 0644)
  for (const f of [paths.info, paths.caCert, paths.caKey, paths.serverCert, paths.serverKey, join(paths.tlsDir, 'server-hosts.json')]) keepPrivate(f)
  return paths
}

/** The App on the store, with the settings every instance agrees on and the secrets key; the store closed if that fails. */
async function openApp(opts: EngineOptions, store: Store, urls: {baseUrl: string; checkoutUrl: string}, log: (line: string) => void): Promise<{app: App; fleet: FleetSettings}> {
  try {
    // the settings every instance on this data agrees on (rate limit, payout currency, webhook destinations)
    const fleet = await FleetSettings.agree(store, {rateLimit: opts.rateLimit, payoutCurrency: opts.payoutCurrency, webhookAllow: opts.webhookAllow}, {shared: store.shared, update: opts.updateFleetSettings ?? false, notes: log})
    // and the secrets key webhook signing secrets are sealed with (a file outside the database)
    const keyFile = resolve(opts.secretsKeyFile ?? join(opts.dataDir, SECRETS_KEY_FILE))
    const secrets = await agreeSecretsKey(store, {path: keyFile, given: opts.secretsKeyFile !== undefined, read: () => (keepPrivate(keyFile), readKeyFile(keyFile)), create: () => createKeyFile(keyFile)}, log)
    const app = await App.create({store, ids: new RandomIds(), providers: opts.providers ?? createSimulatedProviders(), urls, log, fleet, secrets, deliveries: opts.deliveries, claimLeaseMs: opts.claimLeaseMs})
    return {app, fleet}
  } catch (error) {
    await store.close().catch(() => {})
    if (error instanceof FleetConfigError || error instanceof SecretsKeyError) throw new EngineConfigError(error.message)
    throw error
  }
}

/** The engine's own account and its key (the data dir's, or --api-key), registered by its hash; the keys every request is authenticated with. */
async function engineKeys(app: App, store: Store, secretKey: string, dataDir: string): Promise<KeyAuthority> {
  try {
    await ensurePlatformAccount(app.core)
    await registerEngineKey(app.core, secretKey, resolve(dataDir))
    return new KeyAuthority(store, (id) => app.account(id))
  } catch (error) {
    await store.close().catch(() => {})
    throw error
  }
}

/** What answers requests: metrics, the access log, the route table and request log, health, the pipeline. */
interface Serving {
  readonly state: {stopping: boolean; instance: string}
  readonly metrics: Metrics
  readonly accessLog: WriteStream | undefined
  readonly streams: ReturnType<typeof routes>['streams']
  readonly requestLog: ReturnType<typeof routes>['requestLog']
  readonly operations: ReturnType<typeof createOperations>
  readonly handler: ReturnType<typeof createPipeline>
  /** the API port's connections, their caps and states */
  readonly connections: ConnectionBudget
}

function serving(opts: EngineOptions, app: App, store: Store, keys: KeyAuthority, fleet: FleetSettings, metricsElsewhere: boolean, log: (line: string) => void): Serving {
  const metrics = new Metrics(app, {instance: opts.instanceName ?? hostname()})
  app.observers.unit = (seconds) => metrics.unit(seconds)
  app.observers.attempt = (ok) => metrics.attempt(ok)
  app.observers.contained = (where) => metrics.contained.inc({where})
  const accessLog = opts.accessLog === undefined ? undefined : createWriteStream(opts.accessLog, {flags: 'a'})
  accessLog?.on('error', (e) => log(`access log: ${e.message}`))
  const state = {stopping: false, instance: opts.instanceName ?? hostname()}
  const connections = new ConnectionBudget({
    total: opts.maxConnections ?? defaultMaxConnections(),
    perAddress: opts.maxConnectionsPerAddress ?? DEFAULT_CONNECTIONS_PER_ADDRESS,
    trustedProxies: opts.trustedProxies ?? 0,
    firstRequestMs: FIRST_REQUEST_MS,
  })
  metrics.watchConnections(() => connections.byState())
  const {router, streams, requestLog} = routes(app, {
    // one log for the fleet where instances share the store (PostgreSQL); this instance's memory otherwise
    requestLog: {instance: () => state.instance, store: store.requestLog, log, contain: (e, account) => app.contain('request_log', account, e)},
    snapshotMaxBytes: opts.snapshotMaxBytes,
    streams: new StreamBudget(opts.maxEventStreams ?? DEFAULT_STREAMS_PER_ACCOUNT, connections),
    onRequest(e, who) {
      const operation = who.operation ?? 'none'
      metrics.request(e.method, operation, e.status, e.latency_ms / 1000)
      accessLog?.write(
        JSON.stringify({time: new Date().toISOString(), instance: state.instance, request_id: e.id, account: who.account ?? null, operation, method: e.method, path: e.path, status: e.status, latency_ms: e.latency_ms, idempotent_replayed: e.idempotent_replayed}) + '\n',
      )
    },
  })
  metrics.watchRequestLog(() => requestLog.outage)
  const operations = createOperations(app, metrics, state, {metricsElsewhere})
  const handler = createPipeline({
    app,
    router,
    keys,
    rateLimit: fleet,
    trustedProxies: opts.trustedProxies,
    checkout: createCheckout(app),
    log,
    debug: opts.debug,
    requestLog,
    operations,
    connections,
  })
  return {state, metrics, accessLog, streams, requestLog, operations, handler, connections}
}

/** The API port (and --metrics-listen's, if given); nothing served (a port in use, ...) closes the store so the process can exit. */
async function listenOn(
  opts: EngineOptions,
  host: string,
  tls: {key: string; cert: string},
  served: Serving,
  app: App,
  store: Store,
  metricsAt: ReturnType<typeof parseListen>,
): Promise<{server: ListeningServer; metricsServer: Awaited<ReturnType<typeof serveMetrics>> | undefined}> {
  const {handler} = served
  try {
    const server = await listen({
      host,
      port: opts.port ?? 8443,
      key: tls.key,
      cert: tls.cert,
      handler: (req, res) => void handler(req, res),
      newRequestId: () => app.core.ids.next('req'),
      connections: served.connections,
    })
    const metricsServer = !metricsAt
      ? undefined
      : await serveMetrics(metricsAt, served.operations, () => app.core.ids.next('req')).catch(async (e) => {
          await server.close()
          throw e
        })
    return {server, metricsServer}
  } catch (error) {
    await store.close().catch(() => {})
    throw error
  }
}

/** What the engine advertises (next_action.url, checkout and base URLs): the balancer's address when it has one, else the port's. */
function advertise(opts: EngineOptions, host: string, publicOrigin: string | undefined, port: number, urls: {baseUrl: string; checkoutUrl: string}, state: Serving['state'], metrics: Metrics): void {
  const urlHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  const origin = publicOrigin ?? `https://${urlHost}:${port}`
  urls.baseUrl = `${origin}/v1`
  urls.checkoutUrl = `${origin}/checkout`
  if (opts.instanceName === undefined) state.instance = `${hostname()}:${port}`
  metrics.setInstance(state.instance)
}

/** The data dir's engine.json: how `gw login --local` and the harnesses find this engine. */
function engineInfo(urls: {baseUrl: string; checkoutUrl: string}, caFile: string | null, secretKeyFile: string): LocalEngineInfo {
  return {base_url: urls.baseUrl, checkout_url: urls.checkoutUrl, ca_file: caFile, secret_key_file: secretKeyFile, pid: process.pid, started_at: new Date().toISOString()}
}

/** EngineHandle.close: drain if asked, then stop serving, stop the app's work, flush the logs, close the store. */
function closer(served: Serving, server: ListeningServer, metricsServer: {close(): Promise<void>} | undefined, app: App, keys: KeyAuthority, store: Store): EngineHandle['close'] {
  let closing: Promise<void> | undefined
  let endDrain: (() => void) | undefined
  return ({drainMs = 0} = {}) => {
    if (closing) {
      if (drainMs === 0) endDrain?.()
      return closing
    }
    closing = (async () => {
      // not ready from now on: a balancer stops sending new requests while these finish
      served.state.stopping = true
      if (drainMs > 0) {
        server.drain()
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, drainMs)
          endDrain = () => (clearTimeout(timer), resolve())
        })
        endDrain = undefined
      }
      // stop claiming jobs and deliveries and abandon attempts in flight (they stay due and are
      // made again after a restart) while the server lets requests in flight finish
      served.streams.closeAll()
      served.requestLog.closeStreams()
      keys.close()
      await Promise.all([server.close(), app.stop(), metricsServer?.close(), served.metrics.close()])
      // the last entries reach the fleet's log before the store closes
      await served.requestLog.close()
      await store.close()
      const {accessLog} = served
      await new Promise<void>((resolve) => (accessLog ? accessLog.end(resolve) : resolve()))
    })()
    return closing
  }
}
