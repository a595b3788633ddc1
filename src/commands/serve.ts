import {Flags} from '@oclif/core'
import {globalFlags, GwCommand} from '../base/command.js'
import {serve} from './shared/serve.js'

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
        'Proxies in front of this instance (a load balancer: 1) whose X-Forwarded-For entries are believed: the client address that failed authentications are limited by (5 per second, bursts of 20), and connections are counted by, is then the Nth entry from the right, not the connection\'s peer. Only with proxies that append to X-Forwarded-For: otherwise a client could name any address. [default: 0]',
      min: 0,
      max: 10,
      env: 'GW_TRUSTED_PROXIES',
    }),
    'max-connections': Flags.integer({
      description:
        "Connections the port holds at once at most, below this process's limit on open files (ulimit -n). At the cap a new connection is let in by closing one that waits for nothing: first one that has sent no request yet, then an idle one whose requests never authenticated, then an idle authenticated one; only while every connection is busy is a new one refused. [default: the open-files limit less a fifth of it (at least 256), at most 16384]",
      min: 1,
      env: 'GW_MAX_CONNECTIONS',
    }),
    'max-connections-per-address': Flags.integer({
      description:
        'Connections one client address holds at once at most (an IPv6 address counts as its /64; with --trusted-proxies, the address X-Forwarded-For names); its next one closes its oldest that waits for nothing. 0: no cap. Behind a TCP balancer every client has the balancer\'s address: raise it or set 0 there. [default: 256]',
      min: 0,
      env: 'GW_MAX_CONNECTIONS_PER_ADDRESS',
    }),
    'max-event-streams': Flags.integer({
      description: 'Event streams (GET /v1/events/stream and /v1/request_logs/stream together) one account holds open at once on this instance; beyond, 429. [default: 20]',
      min: 1,
      env: 'GW_MAX_EVENT_STREAMS',
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
    drain: Flags.string({
      description:
        'On SIGTERM or SIGINT, first answer /readyz 503 for this long while still serving every request (so a balancer takes the instance out without a failed request), then close the listener and let requests in flight finish; a second signal ends the drain. 0 stops at once. Set it above the balancer\'s time to notice (check interval x failures). [default: 5s on PostgreSQL, 0 on SQLite]',
      env: 'GW_DRAIN',
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
    return serve(this.ctx, this.flags)
  }

  /** Under --json serve's stdout is lines (scripts read the first): an error, a bad flag's too, is one line. */
  override async catch(err: Error & {exitCode?: number}): Promise<void> {
    if (this.jsonEnabled()) this.ctx.out.streamed = true
    return super.catch(err)
  }
}
