import {Flags} from '@oclif/core'
import {fstatSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {defaultDataDir} from '../local-engine.js'
import {globalFlags, GwCommand, type Context, type GwArgs, type GwFlags} from '../base/command.js'
import {UsageError} from '../errors.js'
import {terminalSafe} from '../output/terminal.js'

export default class Serve extends GwCommand<typeof Serve> {
  static override summary = 'Run the embedded payment gateway (HTTPS, SQLite or PostgreSQL, simulated providers) on this machine.'
  static override description = `Starts the whole gateway service locally in test mode: the API at https://HOST:PORT/v1 and hosted checkout pages at https://HOST:PORT/checkout. On first start it creates a local CA and a certificate for localhost and 127.0.0.1, a test secret key and a secrets key (which seals webhook signing secrets in the database), all kept in the data dir (0700, its files 0600); restarting on the same data dir keeps every payment, event and key.

Stop it with Ctrl-C: in-flight requests finish, the store closes, the exit code is 0.`

  static override examples = [
    {description: 'Start on the default port 8443 with data in ~/.gw/engine', command: '<%= config.bin %> serve'},
    {description: 'Start, make a first payment, and show what to try next', command: '<%= config.bin %> serve --demo'},
    {description: 'A throwaway engine for CI or a test harness: free port, temporary data dir removed on exit, one JSON line to read', command: '<%= config.bin %> serve --ephemeral --json --exit-with-parent'},
    {description: 'Throwaway engines of one test run sharing one CA (trust it once with NODE_EXTRA_CA_CERTS=/tmp/gw-ca/ca.crt)', command: '<%= config.bin %> serve --ephemeral --json --tls-dir /tmp/gw-ca'},
    {description: 'A throwaway engine on a free port, with a fixed key (CI)', command: '<%= config.bin %> serve --port 0 --data-dir "$(mktemp -d)" --api-key sk_test_ci_example_key'},
    {description: 'One of several instances on one PostgreSQL database (same API key and secrets key everywhere)', command: '<%= config.bin %> serve --store postgres://gw@db.internal:5432/gw --api-key sk_test_shared_example_key --secrets-key-file /etc/gw/secrets.key --host 0.0.0.0'},
    {description: 'Then, in another terminal', command: '<%= config.bin %> login --local && <%= config.bin %> payments create --amount 2000 --currency EUR --method card --card 4242424242424242'},
  ]

  // Only --json and --verbose from the global flags: serve is the server, not an API client, so
  // profile, base URL, CA file, --insecure and --yes mean nothing here, and its own --api-key
  // (env GW_SERVE_API_KEY) is the key the engine accepts, never a client key read from GW_API_KEY.
  static override baseFlags = {
    json: Flags.boolean({...globalFlags.json, description: 'Print the start-up information as one JSON line on stdout.'}),
    verbose: Flags.boolean({...globalFlags.verbose, description: 'Print the stack trace of an unexpected start-up error, and debug lines (requests aborted by their client).'}),
  }

  static override flags = {
    host: Flags.string({description: 'Address to listen on.', default: '127.0.0.1', env: 'GW_HOST'}),
    port: Flags.integer({description: 'Port to listen on (0 picks a free one).', default: 8443, min: 0, max: 65535, env: 'GW_PORT'}),
    'data-dir': Flags.string({description: 'Where the engine keeps its database, certificates and key. [default: ~/.gw/engine]', env: 'GW_DATA_DIR'}),
    'api-key': Flags.string({description: 'Fix the test secret key (sk_test_...), e.g. for scripts and CI. Otherwise one is created once and kept in the data dir.', env: 'GW_SERVE_API_KEY'}),
    'rate-limit': Flags.integer({
      description: 'Requests per second per account and mode; bursts of twice that pass. A publishable key (browsers) has the same budget of its own. 0 turns the limits off (benchmarks), the one on failed authentications too. [default: 100] On PostgreSQL a fleet setting: instances without it use the fleet\'s.',
      min: 0,
      env: 'GW_RATE_LIMIT',
    }),
    'snapshot-max-bytes': Flags.integer({
      description: 'The largest snapshot POST /v1/test_helpers/snapshot loads, in bytes (the body is held in memory while it loads; larger ones are refused with 413). [default: 67108864 (64 MiB)]',
      min: 1024,
      env: 'GW_SNAPSHOT_MAX_BYTES',
    }),
    'update-fleet-settings': Flags.boolean({
      description: 'On PostgreSQL, change the fleet\'s settings (--rate-limit, --payout-currency, --webhook-allow) to this instance\'s for every instance, instead of refusing to start with values that disagree.',
      env: 'GW_UPDATE_FLEET_SETTINGS',
    }),
    durability: Flags.string({description: "'full' fsyncs every commit; 'normal' may lose the last commits on power loss.", options: ['full', 'normal'], default: 'full', env: 'GW_DURABILITY'}),
    'payout-currency': Flags.string({description: 'Convert every settlement into this currency and pay out in it (simulated fixed rates). Default: one payout per currency.', env: 'GW_PAYOUT_CURRENCY'}),
    store: Flags.string({
      description: "Where the engine keeps its data: 'sqlite' (the default: a database in the data dir, one instance), or a PostgreSQL URL postgres://USER:PASSWORD@HOST:PORT/DB that several instances share as one gateway. Without this flag or GW_STORE, DATABASE_URL is used when it is a postgres:// URL.",
      env: 'GW_STORE',
    }),
    'secrets-key-file': Flags.string({
      description:
        "The engine's secrets key, which seals webhook signing secrets in the database (32 bytes: raw, or hex or base64 as `openssl rand -hex 32` writes them; made, 0600, if missing). Default: secrets.key in the data dir. Every instance on one PostgreSQL database must use the same key: give each a copy of one file; an instance with another key is refused.",
      env: 'GW_SECRETS_KEY_FILE',
    }),
    'import-from': Flags.string({description: "Copy a SQLite data dir's contents (payments, events, jobs, idempotency records, the clock) into the PostgreSQL --store first; the database must be empty.", env: 'GW_IMPORT_FROM'}),
    'claim-lease': Flags.integer({description: 'Seconds a timeline job or webhook delivery claimed by an instance that died waits before another instance takes it (several instances on PostgreSQL). Longer than a webhook attempt (10 s).', default: 60, min: 1, env: 'GW_CLAIM_LEASE'}),
    'webhook-allow': Flags.string({
      description:
        'Send webhooks only to these destinations: CIDRs such as 10.0.0.0/8,127.0.0.1/32 (a shared sandbox). Link-local, unspecified and cloud-metadata addresses (169.254.0.0/16, 0.0.0.0/8, ::, fe80::/10, fd00:ec2::254) and their IPv6 forms (::ffff:169.254.169.254, NAT64, 6to4, Teredo) are always refused; without this flag every other address, loopback included, is allowed.',
      env: 'GW_WEBHOOK_ALLOW',
    }),
    'trusted-proxies': Flags.integer({
      description:
        'Proxies in front of this instance (a load balancer: 1) whose X-Forwarded-For entries are believed: the client address that failed authentications are limited by (5 per second, bursts of 20) is then the Nth entry from the right, not the connection\'s peer. Only with proxies that append to X-Forwarded-For: otherwise a client could name any address. [default: 0]',
      min: 0,
      max: 10,
      env: 'GW_TRUSTED_PROXIES',
    }),
    'public-url': Flags.string({
      description: 'The address clients and customers reach this engine at (a load balancer\'s), e.g. https://gw.example.com: base_url, checkout_url and every next_action.url start with it. Default: this instance\'s own https://HOST:PORT.',
      env: 'GW_PUBLIC_URL',
    }),
    'tls-dir': Flags.string({description: 'Keep the local CA and server certificate in this directory instead of the data dir (created once, then reused): every engine of a test run started with the same --tls-dir is trusted through one ca.crt, so NODE_EXTRA_CA_CERTS can be set before any starts.', env: 'GW_TLS_DIR', exclusive: ['tls-cert']}),
    'tls-cert': Flags.string({description: 'Serve this certificate (PEM, with its chain) instead of the data dir\'s generated one; with --tls-key. For a real host name behind a balancer.', env: 'GW_TLS_CERT', dependsOn: ['tls-key']}),
    'tls-key': Flags.string({description: 'The private key (PEM) of --tls-cert.', env: 'GW_TLS_KEY', dependsOn: ['tls-cert']}),
    'tls-ca': Flags.string({description: 'What clients should trust for --tls-cert when it is not a public CA\'s (PEM); printed as ca_file for gw login --local.', env: 'GW_TLS_CA', dependsOn: ['tls-cert']}),
    'metrics-listen': Flags.string({
      description: 'Serve GET /metrics on this HOST:PORT instead of the API port, over plain HTTP as Prometheus exporters do (e.g. 127.0.0.1:9464, or a private address a scraper reaches); the API port then answers 404 there. The metrics name every account and endpoint id. Default: on the API port, without a key.',
      env: 'GW_METRICS_LISTEN',
    }),
    'access-log': Flags.string({description: 'Append one JSON line per API request to this file (time, instance, request id, account, operation, method, path, status, latency).', env: 'GW_ACCESS_LOG'}),
    ephemeral: Flags.boolean({
      description: 'A throwaway engine for a test run or CI job: a free port (unless --port is given), a fresh temporary data dir removed when it stops; prints the same start-up information (--json: one JSON line).',
      env: 'GW_EPHEMERAL',
      exclusive: ['data-dir', 'store'],
    }),
    'exit-with-parent': Flags.boolean({
      description: 'Stop (gracefully) when the process that started it exits, or when its stdin closes if stdin is a pipe: an engine a test harness starts never outlives it, even when the harness is killed with SIGKILL.',
      env: 'GW_EXIT_WITH_PARENT',
    }),
    demo: Flags.boolean({description: 'After starting, make a first test payment and print it with next steps.', env: 'GW_DEMO'}),
  }

  async run(): Promise<void> {
    return serve(this.ctx, this.flags, this.args)
  }
}


export async function serve(ctx: Context, flags: GwFlags<typeof Serve>, args: GwArgs<typeof Serve>): Promise<void> {
  const [{startEngine, EngineConfigError}, {tuneHeapForServing}] = await Promise.all([import('../engine/index.js'), import('../engine/heap.js')])
  tuneHeapForServing()
  const ephemeral = flags.ephemeral ? mkdtempSync(join(tmpdir(), 'gw-ephemeral-')) : undefined
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
      snapshotMaxBytes: flags['snapshot-max-bytes'],
      trustedProxies: flags['trusted-proxies'],
      durability: flags.durability as 'full' | 'normal',
      payoutCurrency: flags['payout-currency'],
      storeUrl: flags.store ?? (/^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL : undefined),
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
    const stop = (sig: string) => {
      if (stopping) return
      stopping = true
      ctx.io.stderr.write(`\n${sig}: finishing in-flight requests and closing the store...\n`)
      started.close().then(resolve, (e) => {
        ctx.io.stderr.write(`shutdown error: ${(e as Error).message}\n`)
        resolve()
      })
    }
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
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
  if (ctx.json) ctx.io.stdout.write(JSON.stringify(info) + '\n')
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
  if (ephemeral) rmSync(ephemeral, {recursive: true, force: true})
  ctx.io.stderr.write('stopped.\n')
  // a graceful stop is success; exit now rather than wait for stray handles
  process.exit(0)
}

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
