// `gw serve`'s work: the embedded engine started, announced and stopped; the command
// (../serve.ts) keeps the flags. The engine is imported only here, when serve runs.
import {fstatSync} from 'node:fs'
import type {Context} from '../../base/command.js'
import {parseDuration} from '../../base/parse.js'
import {UsageError} from '../../errors.js'
import {defaultDataDir} from '../../local-engine.js'
import {terminalSafe} from '../../output/terminal.js'
import {makeThrowawayDir} from '../../temp-dirs.js'

/** What `gw serve` takes: its flags by name, as the command declares them (each goes to startEngine under its own name). */
export interface ServeOptions {
  host: string
  port: number
  /** the engine's own key (GW_SERVE_API_KEY), not a client key */
  'api-key'?: string
  'data-dir'?: string
  'rate-limit'?: number
  'snapshot-max-bytes'?: number
  'update-fleet-settings'?: boolean
  durability: string
  'payout-currency'?: string
  store?: string
  'secrets-key-file'?: string
  'import-from'?: string
  'claim-lease': number
  'webhook-allow'?: string
  'trusted-proxies'?: number
  'max-connections'?: number
  'max-connections-per-address'?: number
  'max-event-streams'?: number
  'public-url'?: string
  'tls-dir'?: string
  'tls-cert'?: string
  'tls-key'?: string
  'tls-ca'?: string
  'metrics-listen'?: string
  drain?: string
  'access-log'?: string
  ephemeral?: boolean
  'exit-with-parent'?: boolean
  demo?: boolean
  verbose?: boolean
}

/**
 * Starts the engine with the flags, prints where it is (one JSON line with --json), makes the
 * demo payment with --demo, and stops gracefully on SIGINT/SIGTERM (or when the parent goes,
 * --exit-with-parent); a start-up problem is a usage error naming the flag.
 */
export async function serve(ctx: Context, flags: ServeOptions): Promise<void> {
  const storeUrl = flags.store ?? (/^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined)
  // checked before anything starts; a fleet's instance (PostgreSQL: behind a balancer) drains 5 s by default, a lone one stops at once
  const drainMs = flags.drain === undefined ? (storeUrl !== undefined && storeUrl.toLowerCase() !== 'sqlite' && !flags.ephemeral ? DEFAULT_FLEET_DRAIN_MS : 0) : parseDuration(flags.drain, '--drain') * 1000
  // an ephemeral dir records its owner, so one a killed engine left is swept at the next start; it
  // goes on every exit path: a start that fails, a stop, any other end of the process
  const ephemeral = flags.ephemeral ? makeThrowawayDir('gw-ephemeral-') : undefined
  try {
    await serveIn(ctx, flags, ephemeral?.path, {storeUrl, drainMs})
  } finally {
    ephemeral?.remove()
  }
}

async function serveIn(ctx: Context, flags: ServeOptions, ephemeral: string | undefined, {storeUrl, drainMs}: {storeUrl: string | undefined; drainMs: number}): Promise<void> {
  const [{startEngine, EngineConfigError}, {tuneHeapForServing}] = await Promise.all([import('../../engine/index.js'), import('../../engine/heap.js')])
  tuneHeapForServing()
  const dataDir = ephemeral ?? flags['data-dir'] ?? defaultDataDir()
  // --ephemeral takes a free port unless one was asked for
  const port = ephemeral && !portGiven() ? 0 : flags.port
  let engine
  try {
    engine = await startEngine({
      dataDir,
      host: flags.host,
      port,
      apiKey: flags['api-key'],
      rateLimit: flags['rate-limit'],
      trustedProxies: flags['trusted-proxies'],
      maxConnections: flags['max-connections'],
      maxConnectionsPerAddress: flags['max-connections-per-address'],
      maxEventStreams: flags['max-event-streams'],
      snapshotMaxBytes: flags['snapshot-max-bytes'],
      durability: flags.durability as 'full' | 'normal',
      payoutCurrency: flags['payout-currency'],
      storeUrl,
      importFrom: flags['import-from'],
      secretsKeyFile: flags['secrets-key-file'],
      claimLeaseMs: flags['claim-lease'] * 1000,
      updateFleetSettings: flags['update-fleet-settings'],
      webhookAllow: flags['webhook-allow']?.split(',').map((c) => c.trim()).filter(Boolean),
      publicUrl: flags['public-url'],
      tlsDir: flags['tls-dir'],
      tlsCert: flags['tls-cert'],
      tlsKey: flags['tls-key'],
      tlsCa: flags['tls-ca'],
      accessLog: flags['access-log'],
      metricsListen: flags['metrics-listen'],
      // engine lines carry their time (a fleet's logs are read side by side); what they quote of data is shown, not sent (terminal.ts)
      log: (l) => ctx.io.stderr.write(`${new Date().toISOString()} ${terminalSafe(l)}\n`),
      debug: flags.verbose ? (l) => ctx.io.stderr.write(`${new Date().toISOString()} ${terminalSafe(l)}\n`) : undefined,
    })
  } catch (e) {
    const err = e as NodeJS.ErrnoException & {port?: number; address?: string}
    if (e instanceof EngineConfigError) throw new UsageError(err.message)
    if (err.syscall === 'listen' || err.syscall === 'bind') {
      // the API's address, or --metrics-listen's
      const metrics = flags['metrics-listen'] !== undefined && err.port !== undefined && err.port !== port
      const [host, at, flag] = metrics ? [err.address ?? '', err.port, '--metrics-listen'] : [flags.host, flags.port, '--port']
      if (err.code === 'EADDRINUSE') throw new UsageError(`Port ${at} on ${host} is already in use.`, metrics ? `Pick another port in ${flag}.` : 'Pick another with --port, or --port 0 for a free one.')
      if (err.code === 'EACCES') throw new UsageError(`Not allowed to listen on ${host}:${at}.`, 'Use a port above 1023.')
      if (err.code === 'EADDRNOTAVAIL') throw new UsageError(`Cannot listen on ${host}: it is not an address of this machine.`, metrics ? `Give ${flag} an address of this machine, such as 127.0.0.1:9464.` : 'Use --host 127.0.0.1, or one of this machine\'s addresses.')
    }
    if ((err.code === 'EACCES' || err.code === 'EPERM' || err.code === 'EROFS') && err.path) {
      throw new UsageError(`Cannot write ${err.path} (${err.code}).`, 'Pick a data dir you can write with --data-dir or GW_DATA_DIR.')
    }
    throw e
  }
  // handlers first: whoever reads the start-up line may signal at once
  const started = engine
  const stopped = new Promise<void>((resolve) => {
    let stopping = false
    let draining = false
    const stop = (sig: string) => {
      if (stopping) {
        // a second signal ends the drain (the listener closes now; requests in flight still finish)
        if (draining) {
          draining = false
          ctx.io.stderr.write(`${sig} again: ending the drain.\n`)
          void started.close({drainMs: 0})
        }
        return
      }
      stopping = true
      draining = drainMs > 0
      ctx.io.stderr.write(
        draining
          ? `\n${sig}: draining for ${drainMs / 1000} s (/readyz answers 503, requests are still served), then finishing in-flight requests and closing the store...\n`
          : `\n${sig}: finishing in-flight requests and closing the store...\n`,
      )
      started.close({drainMs}).then(resolve, (e) => {
        ctx.io.stderr.write(`shutdown error: ${(e as Error).message}\n`)
        resolve()
      })
    }
    process.on('SIGINT', () => stop('SIGINT'))
    process.on('SIGTERM', () => stop('SIGTERM'))
    if (flags['exit-with-parent']) watchParent(stop)
  })
  const info = {
    base_url: engine.baseUrl,
    checkout_url: engine.checkoutUrl,
    secret_key: engine.secretKey,
    ca_file: engine.caFile,
    data_dir: dataDir,
    store: engine.store,
    pid: process.pid,
    ...(engine.metricsUrl ? {metrics_url: engine.metricsUrl} : {}),
  }
  // one line, at once: scripts, tests and the bench read it to find the engine
  if (ctx.json) ctx.out.ndjson(info)
  else {
    ctx.io.stdout.write(
      [
        'gw engine running (test mode, simulated providers)',
        `  base_url      ${engine.baseUrl}`,
        `  checkout_url  ${engine.checkoutUrl}`,
        `  secret key    ${engine.secretKey}`,
        `  CA file       ${engine.caFile ?? '(none: the certificate is a public CA\'s)'}`,
        `  data dir      ${dataDir}`,
        `  store         ${engine.store}`,
        ...(engine.metricsUrl ? [`  metrics       ${engine.metricsUrl}`] : []),
        '',
      ].join('\n'),
    )
  }
  if (flags.demo) {
    // the engine stays up when the demo payment fails: say so and keep serving
    await demo(ctx, engine).catch((e: Error) => ctx.notice(ctx.errColor.yellow(`! The demo payment failed: ${e.message}`)))
  }
  if (!ctx.json) ctx.io.stderr.write('Press Ctrl-C to stop.\n')
  await stopped
  ctx.io.stderr.write('stopped.\n')
  // a graceful stop is success; exit now rather than wait for stray handles (the exit removes an ephemeral dir)
  process.exit(0)
}

/** --drain's default for an instance of a fleet (a shared PostgreSQL store); 0 for one on SQLite. */
const DEFAULT_FLEET_DRAIN_MS = 5000

/** Whether --port or GW_PORT was given (the flag's default is not a request). */
function portGiven(): boolean {
  return process.env.GW_PORT !== undefined || process.argv.some((a) => a === '--port' || a.startsWith('--port='))
}

/**
 * Calls `stop` when the parent process is gone (this process was re-parented: its ppid changed)
 * or, when stdin is a pipe, when the pipe closes (the parent's end went with it). Stdin that is a
 * terminal or /dev/null is not watched: it never says anything about the parent.
 */
function watchParent(stop: (why: string) => void): void {
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid !== parent) stop('parent exited')
  }, 500)
  timer.unref()
  let pipe = false
  try {
    pipe = fstatSync(0).isFIFO() || fstatSync(0).isSocket()
  } catch {
    // no stdin at all
  }
  if (pipe) {
    process.stdin.on('data', () => {})
    process.stdin.once('end', () => stop('stdin closed'))
    process.stdin.once('error', () => stop('stdin closed'))
    process.stdin.resume()
  }
}

async function demo(ctx: Context, engine: {baseUrl: string; caCertPem: string | undefined; secretKey: string}) {
  const {Agent, request} = await import('undici')
  const dispatcher = new Agent({connect: {ca: engine.caCertPem}})
  const res = await request(`${engine.baseUrl}/payments`, {
    method: 'POST',
    dispatcher,
    headers: {
      authorization: `Bearer ${engine.secretKey}`,
      'content-type': 'application/json',
      'idempotency-key': `demo-${Date.now()}`,
    },
    body: JSON.stringify({
      amount: 2000,
      currency: 'EUR',
      payment_method: 'card',
      payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123'}},
      reference: 'demo-order-1',
      description: 'gw serve --demo: first payment',
    }),
  })
  const p = (await res.body.json()) as {id: string; status: string; amount: number; currency: string; provider: string}
  await dispatcher.close()
  ctx.io.stdout.write(
    [
      '',
      `First payment: ${p.id}  ${p.status}  €${(p.amount / 100).toFixed(2)} ${p.currency}  via ${p.provider}`,
      '',
      'Next, in another terminal:',
      '  gw login --local',
      '  gw payments create --amount 2000 --currency EUR --method card --card 4242424242424242',
      '  gw payments create --amount 2000 --currency EUR --method card --card 4000000000003220   # 3-D Secure page',
      '  gw payments list',
      '(`gw` is `node bin/run.js` in this checkout until you run `npm link` once.)',
      '',
    ].join('\n'),
  )
}
