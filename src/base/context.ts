// The context a command's body runs with (gh's "factory"): its settings (flag, then env, then
// profile), the API client built from them, the config and credential stores, the IO streams
// and the renderer, prompts, the live-mode guard. A command's body is a plain function of a
// Context and its flags, so it can be tested without oclif (createTestContext below builds one
// on buffers and a mock dispatcher).
import {existsSync, readFileSync} from 'node:fs'
import type {Dispatcher} from 'undici'
import {GwClient} from '../client/index.js'
import {wasmBaselineOnly} from '../client/runtime.js'
import {CredentialStore} from '../config/credentials.js'
import {keyMode} from '../config/redact.js'
import {redactSecret} from '../api/keys.js'
import {resolveApiKey, resolveProfile, type FlagInputs, type Resolved, type Setting} from '../config/resolve.js'
import {configFile} from '../config/paths.js'
import {ConfigStore} from '../config/store.js'
import {AbortedError, AuthError, UsageError} from '../errors.js'
import {confirmDestructive} from './confirm.js'
import {readLocalEngineInfo} from '../local-engine.js'
import type {Painter} from '../output/color.js'
import type {ListOptions} from '../output/list.js'
import {Renderer, type IO} from '../output/renderer.js'
import type {Columns} from '../output/table.js'

/** What the CLI's TLS failures tell to do: its own flags (the SDK's message names its `ca` option). */
const CLI_TLS_ADVICE = 'For a local engine run `gw login --local` so the CLI trusts its CA, or pass --ca-file.'

/** Test seams: an undici dispatcher (MockAgent), a fast sleep, scripted prompts. */
export interface Seams {
  dispatcher?: Dispatcher
  sleep?: (ms: number) => Promise<void>
  prompt?: (question: string, opts: {hidden: boolean}) => Promise<string>
  stdin?: () => Promise<string>
  interactive?: boolean
  credentials?: () => CredentialStore
}

/** The seams the oclif entry point uses; in-process command tests set them (src/base/test-support/cli.ts). */
export const testHooks: Seams = {}

/** The global flags every command may take (see command.ts). */
export interface GlobalInputs {
  json?: boolean
  verbose?: boolean
  yes?: boolean
  insecure?: boolean
  /** profile, api-key, base-url and ca-file as typed on the command line (not from env) */
  explicit?: FlagInputs
}

export interface ContextOptions extends GlobalInputs {
  io?: IO
  env?: NodeJS.ProcessEnv
  version?: string
  seams?: Seams
  config?: ConfigStore
}

export class Context {
  readonly out: Renderer
  readonly io: IO
  readonly env: NodeJS.ProcessEnv
  readonly version: string
  /** set by a command whose result is a failure without an error (gw webhooks verify) */
  exitCode: number | undefined
  private readonly seams: Seams
  private readonly inputs: GlobalInputs
  private clientInstance?: GwClient
  private clients: GwClient[] = []
  private resolved?: Resolved
  private key?: Setting<string>
  private liveNoticeShown = false
  private store?: ConfigStore

  constructor(opts: ContextOptions = {}) {
    this.io = opts.io ?? {stdout: process.stdout, stderr: process.stderr, stdin: process.stdin}
    this.env = opts.env ?? process.env
    this.version = opts.version ?? '0'
    this.seams = opts.seams ?? {}
    this.inputs = opts
    this.store = opts.config
    this.out = new Renderer(this.io, {json: Boolean(opts.json), verbose: opts.verbose, env: this.env})
  }

  // ----- the global flags

  get json(): boolean {
    return this.out.json
  }

  get yes(): boolean {
    return Boolean(this.inputs.yes)
  }

  get insecure(): boolean {
    return Boolean(this.inputs.insecure)
  }

  /** Base flags the command line set explicitly (not through env). */
  explicitFlags(): FlagInputs {
    return {...this.inputs.explicit}
  }

  // ----- output (the renderer, and short names for what every command does)

  get color(): Painter {
    return this.out.color
  }

  get errColor(): Painter {
    return this.out.errColor
  }

  print(text = ''): void {
    this.out.print(text)
  }

  notice(text: string): void {
    this.out.notice(text)
  }

  verboseLog(line: string): void {
    this.out.verbose(line)
  }

  table<T>(items: T[], cols: Columns<T>): Promise<string> {
    return this.out.table(items, cols)
  }

  async list<I extends {id: string}>(opts: ListOptions<I>) {
    const {showList} = await import('../output/list.js')
    return showList(this.out, opts)
  }

  rememberSecret(secret: string | undefined): void {
    this.out.remember(secret)
  }

  // ----- input

  interactive(): boolean {
    return this.seams.interactive ?? Boolean(this.io.stdin.isTTY && this.io.stderr.isTTY)
  }

  async prompt(question: string, opts: {hidden: boolean}): Promise<string> {
    // a question may quote data (what a confirmation is about): shown as the renderer shows text
    const shown = this.out.human(question)
    if (this.seams.prompt) return this.seams.prompt(shown, opts)
    const {promptHidden, promptLine} = await import('./io.js')
    return opts.hidden ? promptHidden(shown) : promptLine(shown)
  }

  /** All of stdin (`--api-key -`, `--from-file -`, `--payload-file -`). */
  async readStdin(): Promise<string> {
    if (this.seams.stdin) return this.seams.stdin()
    const {readStdin} = await import('./io.js')
    return readStdin(this.io.stdin)
  }

  sleep(ms: number): Promise<void> {
    return this.seams.sleep ? this.seams.sleep(ms) : new Promise((r) => setTimeout(r, ms))
  }

  // ----- settings and credentials

  get configStore(): ConfigStore {
    this.store ??= new ConfigStore(configFile(this.env))
    return this.store
  }

  get credentials(): CredentialStore {
    return this.seams.credentials?.() ?? new CredentialStore({notice: (m) => this.notice(this.errColor.yellow(m)), env: this.env})
  }

  settings(): Resolved {
    this.resolved ??= resolveProfile(this.explicitFlags(), this.env, this.configStore)
    return this.resolved
  }

  async apiKey(): Promise<Setting<string>> {
    this.key ??= await resolveApiKey(this.explicitFlags(), this.env, this.settings(), this.credentials, () => this.secretFromStdin())
    this.out.remember(this.key.value)
    return this.key
  }

  /** `--api-key -`: a pipe is read to its end; a terminal gets a hidden prompt. */
  private async secretFromStdin(): Promise<string> {
    if (this.seams.stdin) return this.seams.stdin()
    if (this.io.stdin.isTTY) return this.prompt('API key: ', {hidden: true})
    const {readStdin} = await import('./io.js')
    return readStdin(this.io.stdin)
  }

  /** A profile named by --profile or GW_PROFILE that `gw login` never made: a usage error naming the known ones. */
  unknownProfile(): UsageError | undefined {
    const s = this.settings()
    if (s.profileData || (s.profile.source !== 'flag' && s.profile.source !== 'env')) return undefined
    const known = Object.keys(this.configStore.read().profiles)
    const from = s.profile.source === 'flag' ? '--profile' : 'GW_PROFILE'
    return new UsageError(
      `Unknown profile "${s.profile.value}" (from ${from}; known: ${known.length ? known.join(', ') : 'none yet'}).`,
      `Create it with \`gw login --profile ${s.profile.value}\`${known.length ? `, or use one of the known profiles` : ''}.`,
    )
  }

  /** Checks a base URL: absolute https, normally ending in /v1. */
  checkBaseUrl(value: string, source: string): string {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      throw new UsageError(`The base URL "${value}" (from ${source}) is not a URL.`, 'It looks like https://127.0.0.1:8443/v1.')
    }
    if (url.protocol !== 'https:') {
      throw new UsageError(`The base URL "${value}" (from ${source}) is not https; the gateway accepts TLS only.`, `Use https://${url.host}${url.pathname}.`)
    }
    return value.replace(/\/+$/, '')
  }

  async isLive(): Promise<boolean> {
    return keyMode((await this.apiKey()).value) === 'live'
  }

  /**
   * Live-mode guard for commands that move money: with a sk_live_ key, ask the user to type
   * "live" unless --yes. Without a terminal to ask on, refuse.
   */
  /**
   * Confirms a destructive or redirecting action (delete, revoke, detach, a webhook URL changed):
   * y/N on a terminal, the typed word "live" on a live key, --yes without a terminal.
   */
  async confirmDestructive(action: string, nothing?: string): Promise<void> {
    if (this.yes) return
    const c = this.errColor
    await confirmDestructive({yes: false, interactive: this.interactive(), ask: (q) => this.prompt(q, {hidden: false}), live: await this.isLive(), liveLabel: (t) => c.bgRed(c.bold(t))}, action, nothing)
  }

  async confirmLive(action: string): Promise<void> {
    if (!(await this.isLive()) || this.yes) return
    if (!this.interactive()) {
      throw new AbortedError(`Refusing to ${action} in live mode without confirmation.`, 'Re-run with --yes to confirm (or use a sk_test_ key).')
    }
    const c = this.errColor
    const answer = await this.prompt(`${c.bgRed(c.bold(' LIVE '))} This will ${action} with real money. Type "live" to continue: `, {hidden: false})
    if (answer.trim().toLowerCase() !== 'live') throw new AbortedError('Not confirmed; nothing was sent.')
  }

  // ----- the API client

  /** The API client for the resolved profile; built once per command. */
  async client(): Promise<GwClient> {
    if (this.clientInstance) return this.clientInstance
    const s = this.settings()
    const key = await this.apiKey()
    if (!key.value) {
      const unknown = this.unknownProfile()
      if (unknown) throw unknown
      throw new AuthError(
        `No API key for profile "${s.profile.value}".`,
        'Run `gw login` (or `gw login --local` for the engine started by `gw serve`), or set GW_API_KEY.',
      )
    }
    if (!s.baseUrl.value) {
      throw new UsageError(
        `No base URL for profile "${s.profile.value}".`,
        'Run `gw login --base-url https://HOST/v1` (or `gw login --local`), or pass --base-url / GW_BASE_URL.',
      )
    }
    let baseUrlValue = s.baseUrl.value
    // a profile made by `gw login --local` follows the engine if it restarted on another port
    if (s.baseUrl.source === 'profile' && s.profileData?.data_dir) {
      try {
        const current = readLocalEngineInfo(s.profileData.data_dir).base_url
        if (current && current !== baseUrlValue) {
          this.verboseLog(`local engine now at ${current} (profile had ${baseUrlValue})`)
          baseUrlValue = current
        }
      } catch {
        // engine.json gone: keep the saved URL
      }
    }
    const baseUrl = this.checkBaseUrl(baseUrlValue, s.baseUrl.source)
    let ca: Buffer | undefined
    if (s.caFile.value) {
      if (!existsSync(s.caFile.value)) {
        throw new UsageError(
          `The CA file ${s.caFile.value} (from ${s.caFile.source}) does not exist.`,
          s.profileData?.data_dir ? 'Start the engine with `gw serve` and run `gw login --local` again.' : 'Fix it with `gw config set ca_file PATH`.',
        )
      }
      ca = readFileSync(s.caFile.value)
    }
    if (this.insecure) this.notice(this.errColor.yellow(`! --insecure: the certificate of ${new URL(baseUrl).host} is NOT verified for this call.`))
    if (keyMode(key.value) === 'live' && !this.liveNoticeShown) {
      this.liveNoticeShown = true
      const c = this.errColor
      this.notice(`${c.bgRed(c.bold(' LIVE '))} ${c.red(`live mode: profile ${s.profile.value}, key ${redactSecret(key.value)}`)}`)
    }
    this.clientInstance = this.makeClient({baseUrl, apiKey: key.value, ca})
    return this.clientInstance
  }

  /** A client for explicit settings (login verifies a key before saving it). Closed by close(). */
  makeClient(opts: {baseUrl: string; apiKey: string; ca?: Buffer}): GwClient {
    if (!this.seams.dispatcher) wasmBaselineOnly()
    this.out.remember(opts.apiKey)
    const client = new GwClient({
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      ca: opts.ca,
      insecure: this.insecure,
      dispatcher: this.seams.dispatcher,
      sleep: this.seams.sleep,
      maxRetries: envInt(this.env.GW_MAX_RETRIES, 3),
      retryBudgetMs: envInt(this.env.GW_RETRY_BUDGET, 30) * 1000,
      userAgent: `gw/${this.version} node/${process.versions.node}`,
      tlsAdvice: CLI_TLS_ADVICE,
      log: this.inputs.verbose ? (line) => this.verboseLog(line) : undefined,
    })
    this.clients.push(client)
    return client
  }

  /** Releases every client's sockets so the process can exit. */
  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close().catch(() => {})))
  }
}

function envInt(v: string | undefined, fallback: number): number {
  return v && /^\d+$/.test(v) ? Number(v) : fallback
}
