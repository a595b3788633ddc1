import {randomBytes} from 'node:crypto'
import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {resolve} from 'node:path'
import {localEnginePaths, type LocalEngineInfo} from '../local-engine.js'
import {RandomIds} from './adapters/system.js'
import {App} from './app/index.js'
import type {DeliveryWorkerOptions} from './app/delivery-worker.js'
import {createCheckout} from './checkout/pages.js'
import {createPipeline} from './http/pipeline.js'
import {ensurePlatformAccount} from './app/accounts.js'
import {DestinationPolicy} from './domain/destinations.js'
import {KeyAuthority, registerEngineKey} from './app/keys.js'
import {routes} from './http/routes.js'
import {listen} from './http/server.js'
import type {ProviderConnection} from './ports/provider.js'
import type {StoreFactory} from './ports/store.js'
import {createSimulatedProviders} from './providers/simulated.js'
import {SqliteStore} from './store/sqlite/sqlite-store.js'
import {ensureCertificates} from './tls/certificates.js'

export interface EngineOptions {
  dataDir: string
  host?: string
  port?: number
  /** fixes the test secret key; otherwise one is created once and kept in the data dir */
  apiKey?: string
  /** requests per second per account and mode (default 100, bucket of 2 s); 0 turns the limit off */
  rateLimit?: number
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
  caCertPem: string
  caFile: string
  secretKey: string
  port: number
  app: App
  /** where the data lives: 'sqlite (DATABASE FILE)' or the PostgreSQL URL with its password hidden */
  store: string
  close(): Promise<void>
}

const KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

export class EngineConfigError extends Error {}

function secretKeyFor(dataDir: string, fixed: string | undefined): string {
  const file = localEnginePaths(dataDir).secretKey
  if (fixed !== undefined) {
    if (fixed.startsWith('sk_live_'))
      throw new EngineConfigError('The local engine runs test mode only: live mode needs real provider connections. Use an sk_test_ key.')
    if (!/^sk_test_[A-Za-z0-9_]{8,200}$/.test(fixed))
      throw new EngineConfigError('--api-key must look like sk_test_ followed by at least 8 letters, digits or underscores.')
    writeFileSync(file, fixed + '\n', {mode: 0o600})
    chmodSync(file, 0o600)
    return fixed
  }
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const key = 'sk_test_' + [...randomBytes(32)].map((b) => KEY_ALPHABET[b % 62]).join('')
  writeFileSync(file, key + '\n', {mode: 0o600})
  chmodSync(file, 0o600)
  return key
}

/** Starts the embedded gateway: HTTPS on one port, a store (SQLite in the data dir by default), simulated providers. */
export async function startEngine(opts: EngineOptions): Promise<EngineHandle> {
  const host = opts.host ?? '127.0.0.1'
  if (opts.payoutCurrency !== undefined && !/^[A-Z]{3}$/.test(opts.payoutCurrency))
    throw new EngineConfigError('--payout-currency must be an uppercase ISO 4217 code such as EUR.')
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'))
  let destinations: DestinationPolicy
  try {
    destinations = new DestinationPolicy(opts.webhookAllow)
  } catch (e) {
    throw new EngineConfigError((e as Error).message)
  }
  mkdirSync(opts.dataDir, {recursive: true, mode: 0o700})
  const paths = localEnginePaths(opts.dataDir)
  mkdirSync(paths.tlsDir, {recursive: true, mode: 0o700})
  const secretKey = secretKeyFor(opts.dataDir, opts.apiKey)
  const tls = await ensureCertificates(paths, host)
  const store = await (opts.store ?? storeFromUrl(opts.storeUrl, {database: paths.database, durability: opts.durability, log, importFrom: opts.importFrom}))()

  // the port is known only after listening; URLs are filled in then
  const urls = {baseUrl: '', checkoutUrl: ''}
  let app: App
  try {
    app = await App.create({store, ids: new RandomIds(), providers: opts.providers ?? createSimulatedProviders(), urls, log, payoutCurrency: opts.payoutCurrency ?? null, deliveries: opts.deliveries, claimLeaseMs: opts.claimLeaseMs, destinations})
  } catch (error) {
    await store.close().catch(() => {})
    throw error
  }
  let keys: KeyAuthority
  try {
    // the engine's own account, and its key (the data dir's, or --api-key), registered by its hash
    await ensurePlatformAccount(app.core)
    await registerEngineKey(app.core, secretKey, resolve(opts.dataDir))
    keys = new KeyAuthority(store, (id) => app.account(id))
  } catch (error) {
    await store.close().catch(() => {})
    throw error
  }
  const rate = opts.rateLimit ?? 100
  const {router, streams, requestLog} = routes(app)
  const handler = createPipeline({
    app,
    router,
    keys,
    rateLimit: {rate, capacity: opts.rateLimit === undefined ? 200 : Math.max(1, rate * 2)},
    checkout: createCheckout(app),
    log,
    debug: opts.debug,
    requestLog,
  })
  let server: Awaited<ReturnType<typeof listen>>
  try {
    server = await listen({
      host,
      port: opts.port ?? 8443,
      key: tls.key,
      cert: tls.cert,
      handler: (req, res) => void handler(req, res),
      newRequestId: () => app.core.ids.next('req'),
    })
  } catch (error) {
    // nothing is served (port in use, ...): release what was opened so the process can exit
    await store.close().catch(() => {})
    throw error
  }
  const urlHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  urls.baseUrl = `https://${urlHost}:${server.port}/v1`
  urls.checkoutUrl = `https://${urlHost}:${server.port}/checkout`

  const info: LocalEngineInfo = {
    base_url: urls.baseUrl,
    checkout_url: urls.checkoutUrl,
    ca_file: paths.caCert,
    secret_key_file: paths.secretKey,
    pid: process.pid,
    started_at: new Date().toISOString(),
  }
  writeFileSync(paths.info, JSON.stringify(info, null, 2) + '\n', {mode: 0o600})

  // timeline jobs as they fall due, webhook attempts, housekeeping
  app.start()

  let closing: Promise<void> | undefined
  return {
    baseUrl: urls.baseUrl,
    checkoutUrl: urls.checkoutUrl,
    caCertPem: tls.caCert,
    caFile: tls.caFile,
    secretKey,
    port: server.port,
    app,
    store: opts.store ? 'custom' : opts.storeUrl && opts.storeUrl.toLowerCase() !== 'sqlite' ? redactStoreUrl(opts.storeUrl) : `sqlite (${paths.database})`,
    close() {
      closing ??= (async () => {
        // stop claiming jobs and deliveries and abandon attempts in flight (they stay due and are
        // made again after a restart) while the server lets requests in flight finish
        streams.closeAll()
        requestLog.closeStreams()
        keys.close()
        await Promise.all([server.close(), app.stop()])
        await store.close()
      })()
      return closing
    },
  }
}
