import {Command, Flags} from '@oclif/core'
import {defaultDataDir} from '../local-engine.js'

export default class Serve extends Command {
  static override summary = 'Run the embedded payment gateway (HTTPS, SQLite, simulated providers) on this machine.'
  static override description = `Starts the whole gateway service locally in test mode: the API at https://HOST:PORT/v1 and hosted checkout pages at https://HOST:PORT/checkout. On first start it creates a local CA and a certificate for localhost and 127.0.0.1, and a test secret key, all kept in the data dir; restarting on the same data dir keeps every payment, event and key.

Stop it with Ctrl-C: in-flight requests finish, the store closes, the exit code is 0.`

  static override examples = [
    {description: 'Start on the default port 8443 with data in ~/.gw/engine', command: '<%= config.bin %> serve'},
    {description: 'Start, make a first payment, and show what to try next', command: '<%= config.bin %> serve --demo'},
    {description: 'A throwaway engine on a free port, with a fixed key (CI)', command: '<%= config.bin %> serve --port 0 --data-dir "$(mktemp -d)" --api-key sk_test_ci_example_key'},
    {description: 'Then, in another terminal', command: '<%= config.bin %> login --local && <%= config.bin %> payments create --amount 2000 --currency EUR --method card --card 4242424242424242'},
  ]

  static override flags = {
    host: Flags.string({description: 'Address to listen on.', default: '127.0.0.1', env: 'GW_HOST'}),
    port: Flags.integer({description: 'Port to listen on (0 picks a free one).', default: 8443, min: 0, max: 65535, env: 'GW_PORT'}),
    'data-dir': Flags.string({description: 'Where the engine keeps its database, certificates and key. [default: ~/.gw/engine]', env: 'GW_DATA_DIR'}),
    'api-key': Flags.string({description: 'Fix the test secret key (sk_test_...), e.g. for scripts and CI. Otherwise one is created once and kept in the data dir.', env: 'GW_SERVE_API_KEY'}),
    'rate-limit': Flags.integer({description: 'Requests per second per account and mode; bursts of twice that pass. 0 turns the limit off (benchmarks).', default: 100, min: 0, env: 'GW_RATE_LIMIT'}),
    durability: Flags.string({description: "'full' fsyncs every commit; 'normal' may lose the last commits on power loss.", options: ['full', 'normal'], default: 'full', env: 'GW_DURABILITY'}),
    'payout-currency': Flags.string({description: 'Convert every settlement into this currency and pay out in it (simulated fixed rates). Default: one payout per currency.', env: 'GW_PAYOUT_CURRENCY'}),
    demo: Flags.boolean({description: 'After starting, make a first test payment and print it with next steps.', env: 'GW_DEMO'}),
    json: Flags.boolean({description: 'Print the start-up information as one JSON line on stdout.', env: 'GW_JSON'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Serve)
    const {startEngine, EngineConfigError} = await import('../engine/index.js')
    const dataDir = flags['data-dir'] ?? defaultDataDir()
    let engine
    try {
      engine = await startEngine({
        dataDir,
        host: flags.host,
        port: flags.port,
        apiKey: flags['api-key'],
        rateLimit: flags['rate-limit'],
        durability: flags.durability as 'full' | 'normal',
        payoutCurrency: flags['payout-currency'],
        log: (l) => process.stderr.write(`${l}\n`),
      })
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      if (e instanceof EngineConfigError) this.error(err.message, {exit: 2})
      if (err.code === 'EADDRINUSE') this.error(`Port ${flags.port} on ${flags.host} is already in use. Pick another with --port, or --port 0 for a free one.`, {exit: 2})
      if (err.code === 'EACCES') this.error(`Not allowed to listen on ${flags.host}:${flags.port}. Use a port above 1023.`, {exit: 2})
      throw e
    }
    const info = {base_url: engine.baseUrl, checkout_url: engine.checkoutUrl, secret_key: engine.secretKey, ca_file: engine.caFile, data_dir: dataDir, pid: process.pid}
    if (flags.json) process.stdout.write(JSON.stringify(info) + '\n')
    else {
      process.stdout.write(
        [
          'gw engine running (test mode, simulated providers)',
          `  base_url      ${engine.baseUrl}`,
          `  checkout_url  ${engine.checkoutUrl}`,
          `  secret key    ${engine.secretKey}`,
          `  CA file       ${engine.caFile}`,
          `  data dir      ${dataDir}`,
          '',
        ].join('\n'),
      )
    }
    if (flags.demo) await this.demo(engine)
    if (!flags.json) process.stderr.write('Press Ctrl-C to stop.\n')

    await new Promise<void>((resolve) => {
      let stopping = false
      const stop = (sig: string) => {
        if (stopping) return
        stopping = true
        process.stderr.write(`\n${sig}: finishing in-flight requests and closing the store...\n`)
        engine.close().then(resolve, (e) => {
          process.stderr.write(`shutdown error: ${(e as Error).message}\n`)
          resolve()
        })
      }
      process.once('SIGINT', () => stop('SIGINT'))
      process.once('SIGTERM', () => stop('SIGTERM'))
    })
    process.stderr.write('stopped.\n')
    process.exit(0)
  }

  private async demo(engine: {baseUrl: string; caCertPem: string; secretKey: string}) {
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
    process.stdout.write(
      [
        '',
        `First payment: ${p.id}  ${p.status}  €${(p.amount / 100).toFixed(2)} ${p.currency}  via ${p.provider}`,
        '',
        'Next, in another terminal:',
        '  gw login --local',
        '  gw payments create --amount 2000 --currency EUR --method card --card 4242424242424242',
        '  gw payments create --amount 2000 --currency EUR --method card --card 4000000000003220   # 3-D Secure page',
        '  gw payments list',
        '',
      ].join('\n'),
    )
  }
}
