// GwCommand: the base of every gw command (and of `gw serve`). It parses the global flags,
// resolves profile, key and base URL (flag, then env, then profile), builds the API client,
// guards live mode, renders lists, and turns errors into the documented exit codes without
// stack traces. `run()` returns the typed result that `--json` prints.
import {existsSync, readFileSync} from 'node:fs'
import {setFlagsFromString} from 'node:v8'
import {Command, Flags, type Interfaces} from '@oclif/core'
import type {Dispatcher} from 'undici'
import type {ListEnvelope} from '../api/types.js'
import {ApiError, NetworkError} from '../client/errors.js'
import {GwClient} from '../client/index.js'
import {CredentialStore} from '../config/credentials.js'
import {keyMode, redactKey, scrub} from '../config/redact.js'
import {resolveApiKey, resolveProfile, type FlagInputs, type Resolved, type Setting} from '../config/resolve.js'
import {ConfigStore} from '../config/store.js'
import {readLocalEngineInfo} from '../local-engine.js'
import {colorEnabled, painter, type Painter} from '../output/color.js'
import type {Columns} from '../output/table.js'
import {AbortedError, AuthError, ExitCode, exitCodeFor, GwError, UsageError} from './exit-codes.js'
import {fillFlagEnv, flagsForParse, installFlagEnv, listsFromEnv} from './flag-env.js'
import {isInteractive, promptHidden, promptLine, readStdin} from './io.js'

export {ExitCode, GwError, UsageError, AuthError, AbortedError, exitCodeFor} from './exit-codes.js'

export const globalFlags = {
  json: Flags.boolean({description: 'Print the result as JSON (the API objects as they came), nothing else on stdout.', env: 'GW_JSON', helpGroup: 'GLOBAL'}),
  profile: Flags.string({description: 'Profile to use (see `gw config list`).', env: 'GW_PROFILE', helpGroup: 'GLOBAL'}),
  'api-key': Flags.string({
    description: 'API key for this call; "-" reads it from stdin. Prefer `gw login` or GW_API_KEY.',
    env: 'GW_API_KEY',
    helpGroup: 'GLOBAL',
  }),
  'base-url': Flags.string({description: 'API base URL, https://HOST[:PORT]/v1.', env: 'GW_BASE_URL', helpGroup: 'GLOBAL'}),
  'ca-file': Flags.string({description: 'PEM file of an extra CA to trust for this call.', env: 'GW_CA_FILE', helpGroup: 'GLOBAL'}),
  verbose: Flags.boolean({description: 'Show requests, request ids and timings on stderr.', env: 'GW_VERBOSE', helpGroup: 'GLOBAL'}),
  insecure: Flags.boolean({description: 'Do not verify the server certificate (this call only; prints a warning).', env: 'GW_INSECURE', helpGroup: 'GLOBAL'}),
  yes: Flags.boolean({char: 'y', description: 'Skip the typed confirmation that live-mode money movements ask for.', env: 'GW_YES', helpGroup: 'GLOBAL'}),
}

export type GwFlags<T extends typeof Command> = Interfaces.InferredFlags<typeof globalFlags & T['flags']>
export type GwArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>

/** Test seams: an undici dispatcher (MockAgent), a fast sleep, scripted prompts. */
export const testHooks: {
  dispatcher?: Dispatcher
  sleep?: (ms: number) => Promise<void>
  prompt?: (question: string, opts: {hidden: boolean}) => Promise<string>
  stdin?: () => Promise<string>
  interactive?: boolean
  credentials?: () => CredentialStore
} = {}

export interface CommandContext {
  json: boolean
  color: Painter
  errColor: Painter
  print(text: string): void
  notice(text: string): void
  client(): Promise<GwClient>
  sleep(ms: number): Promise<void>
}

const FLAG_NAMES: Record<keyof FlagInputs, string> = {profile: 'profile', apiKey: 'api-key', baseUrl: 'base-url', caFile: 'ca-file'}

export abstract class GwCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true
  /** The global flags; a command may keep only some of them (`gw serve` keeps --json). */
  static override baseFlags: Partial<typeof globalFlags> = globalFlags

  protected flags!: GwFlags<T>
  protected args!: GwArgs<T>

  private clientInstance?: GwClient
  private extraClients: GwClient[] = []
  private resolvedSettings?: Resolved
  private apiKeySetting?: Setting<string>
  private streamedJson = false
  private liveNoticeShown = false

  override async init(): Promise<void> {
    await super.init()
    fillFlagEnv(this.ctor)
    const {args, flags} = await this.parse({
      flags: flagsForParse(this.ctor.flags, this.argv),
      baseFlags: (super.ctor as typeof GwCommand).baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    })
    listsFromEnv(this.ctor.flags, flags)
    this.flags = flags as GwFlags<T>
    this.args = args as GwArgs<T>
  }

  // ----- output -----

  override jsonEnabled(): boolean {
    if (super.jsonEnabled()) return true
    const v = process.env.GW_JSON
    return this.ctor.enableJsonFlag === true && v !== undefined && ['1', 'true', 'yes', 'y'].includes(v.toLowerCase())
  }

  protected get json(): boolean {
    return this.jsonEnabled()
  }

  /** Painter for stdout: colour only on a TTY and without NO_COLOR. */
  protected get color(): Painter {
    return painter(colorEnabled(process.stdout))
  }

  protected get errColor(): Painter {
    return painter(colorEnabled(process.stderr))
  }

  /** Human output on stdout; silent under --json. */
  protected print(text = ''): void {
    if (!this.json) process.stdout.write(text + '\n')
  }

  /** A notice on stderr (shown in every mode; stdout stays clean). */
  protected notice(text: string): void {
    process.stderr.write(this.scrubSecrets(text) + '\n')
  }

  protected verboseLog(line: string): void {
    if (this.flags?.verbose) process.stderr.write(this.errColor.dim(this.scrubSecrets(line)) + '\n')
  }

  override logJson(json: unknown): void {
    if (this.streamedJson) return
    process.stdout.write(JSON.stringify(json, null, 2) + '\n')
  }

  /** Keys this command has seen; never written out whole. */
  private secrets: string[] = []

  protected rememberSecret(key: string | undefined): void {
    if (key) this.secrets.push(key)
  }

  protected scrubSecrets(text: string): string {
    let out = text
    for (const k of [...this.secrets, this.apiKeySetting?.value]) out = scrub(out, k)
    return out
  }

  // ----- settings and client -----

  protected get configStore(): ConfigStore {
    return new ConfigStore()
  }

  protected get credentials(): CredentialStore {
    return testHooks.credentials?.() ?? new CredentialStore({notice: (m) => this.notice(this.errColor.yellow(m))})
  }

  /** Base flags the command line set explicitly (oclif merges env into flags; this tells them apart). */
  protected explicitFlags(): FlagInputs {
    const out: FlagInputs = {}
    const f = this.flags as Record<string, unknown>
    for (const [k, name] of Object.entries(FLAG_NAMES) as [keyof FlagInputs, string][]) {
      const given = this.argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`))
      if (given && typeof f[name] === 'string') out[k] = f[name] as string
    }
    return out
  }

  protected settings(): Resolved {
    this.resolvedSettings ??= resolveProfile(this.explicitFlags(), process.env, this.configStore)
    return this.resolvedSettings
  }

  protected async apiKey(): Promise<Setting<string>> {
    this.apiKeySetting ??= await resolveApiKey(this.explicitFlags(), process.env, this.settings(), this.credentials, () => this.secretFromStdin())
    return this.apiKeySetting
  }

  /** `--api-key -`: a pipe is read to its end; a terminal gets a hidden prompt. */
  protected async secretFromStdin(): Promise<string> {
    if (testHooks.stdin) return testHooks.stdin()
    if (process.stdin.isTTY) return this.prompt('API key: ', {hidden: true})
    return readStdin()
  }

  protected async prompt(question: string, opts: {hidden: boolean}): Promise<string> {
    if (testHooks.prompt) return testHooks.prompt(question, opts)
    return opts.hidden ? promptHidden(question) : promptLine(question)
  }

  protected interactive(): boolean {
    return testHooks.interactive ?? isInteractive()
  }

  /** Checks a base URL: absolute https, normally ending in /v1. */
  protected checkBaseUrl(value: string, source: string): string {
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

  /** Whether the active key is a live key (sk_live_). */
  protected async isLive(): Promise<boolean> {
    return keyMode((await this.apiKey()).value) === 'live'
  }

  /** The API client for the resolved profile; built once per command. */
  protected async client(): Promise<GwClient> {
    if (this.clientInstance) return this.clientInstance
    const s = this.settings()
    const key = await this.apiKey()
    if (!key.value) {
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
    if (this.flags.insecure) {
      this.notice(this.errColor.yellow(`! --insecure: the certificate of ${new URL(baseUrl).host} is NOT verified for this call.`))
    }
    if (keyMode(key.value) === 'live' && !this.liveNoticeShown) {
      this.liveNoticeShown = true
      const c = this.errColor
      this.notice(`${c.bgRed(c.bold(' LIVE '))} ${c.red(`live mode: profile ${s.profile.value}, key ${redactKey(key.value)}`)}`)
    }
    this.clientInstance = this.makeClient({baseUrl, apiKey: key.value, ca})
    return this.clientInstance
  }

  /** A client for explicit settings (login verifies a key before saving it). Closed in finally(). */
  protected makeClient(opts: {baseUrl: string; apiKey: string; ca?: Buffer}): GwClient {
    if (!testHooks.dispatcher) wasmBaselineOnly()
    const client = new GwClient({
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      ca: opts.ca,
      insecure: this.flags.insecure,
      dispatcher: testHooks.dispatcher,
      sleep: testHooks.sleep,
      maxRetries: envInt('GW_MAX_RETRIES', 3),
      userAgent: `gw/${this.config?.version ?? '0'} node/${process.versions.node}`,
      log: this.flags.verbose ? (line) => this.verboseLog(line) : undefined,
    })
    this.extraClients.push(client)
    return client
  }

  /**
   * Live-mode guard for commands that move money: with a sk_live_ key, ask the user to type
   * "live" unless --yes. Without a terminal to ask on, refuse.
   */
  protected async confirmLive(action: string): Promise<void> {
    if (!(await this.isLive()) || this.flags.yes) return
    if (!this.interactive()) {
      throw new AbortedError(`Refusing to ${action} in live mode without confirmation.`, 'Re-run with --yes to confirm (or use a sk_test_ key).')
    }
    const c = this.errColor
    const answer = await this.prompt(`${c.bgRed(c.bold(' LIVE '))} This will ${action} with real money. Type "live" to continue: `, {hidden: false})
    if (answer.trim().toLowerCase() !== 'live') throw new AbortedError('Not confirmed; nothing was sent.')
  }

  /** What shared helpers (src/base/payments.ts, `serve`) need from a command. */
  protected ctx(): CommandContext {
    return {
      json: this.json,
      color: this.color,
      errColor: this.errColor,
      print: (t) => this.print(t),
      notice: (t) => this.notice(t),
      client: () => this.client(),
      sleep: testHooks.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    }
  }

  // ----- lists -----

  /**
   * One page (the list envelope as it came) or, with --all, every object: NDJSON streamed
   * when --json goes to a pipe, a JSON array on a terminal, a table for humans.
   */
  protected async showList<I extends {id: string}>(opts: {
    all: boolean
    page: () => Promise<ListEnvelope<I>>
    iterate: () => AsyncIterable<I>
    columns: Columns<I>
    noun: string
  }): Promise<ListEnvelope<I> | I[]> {
    const {renderTable} = await import('../output/table.js')
    if (!opts.all) {
      const env = await opts.page()
      if (this.json) return env
      this.print(env.data.length ? await renderTable(env.data, opts.columns, this.color) : `No ${opts.noun}.`)
      if (env.has_more && env.data.length) {
        this.notice(this.errColor.dim(`More ${opts.noun}: add --starting-after ${env.data[env.data.length - 1].id}, or --all for every page.`))
      }
      return env
    }
    const items: I[] = []
    if (this.json && !process.stdout.isTTY) {
      this.streamedJson = true
      for await (const item of opts.iterate()) {
        items.push(item)
        process.stdout.write(JSON.stringify(item) + '\n')
      }
      return items
    }
    const {startProgress} = await import('../ui/progress.js')
    const progress = await startProgress(`Fetching ${opts.noun}…`, {json: this.json})
    try {
      for await (const item of opts.iterate()) {
        items.push(item)
        if (items.length % 100 === 0) progress.update(`Fetching ${opts.noun}… ${items.length}`)
      }
    } finally {
      progress.stop()
    }
    if (!this.json) this.print(items.length ? await renderTable(items, opts.columns, this.color) : `No ${opts.noun}.`)
    return items
  }

  // ----- errors -----

  override async catch(err: Error & {exitCode?: number}): Promise<void> {
    const code = exitCodeFor(err)
    if (this.json) {
      // mid-way through an NDJSON stream the error is one more line
      const text = this.streamedJson ? JSON.stringify(errorJson(err)) : JSON.stringify(errorJson(err), null, 2)
      process.stdout.write(this.scrubSecrets(text) + '\n')
    }
    process.stderr.write(this.scrubSecrets(this.formatError(err)) + '\n')
    process.exitCode = code
  }

  protected formatError(err: Error): string {
    const c = this.errColor
    const lines: string[] = []
    const parseMatch = /^Parsing --([\w-]+) \n\t([\s\S]*?)(\nSee more help with --help)?$/.exec(err.message)
    if (err instanceof ApiError) {
      lines.push(`${c.red('Error:')} ${err.message}`)
      const bits = [
        `${err.type}${err.code ? ` ${err.code}` : ''}`,
        `HTTP ${err.status}`,
        `request_id ${err.requestId ?? '(none)'}`,
      ]
      if (err.param) bits.push(`param ${err.param}`)
      if (err.payment) bits.push(`payment ${err.payment}`)
      if (err.retries) bits.push(`after ${err.retries} ${err.retries === 1 ? 'retry' : 'retries'}`)
      lines.push(c.dim(`  ${bits.join(' · ')}`))
      const hint = apiErrorHint(err, this.settings?.bind(this))
      if (hint) lines.push(`  ${hint}`)
    } else if (err instanceof NetworkError) {
      lines.push(`${c.red('Error:')} ${err.message}`)
      const bits = [`network error ${err.code}`, 'request_id (none: no response)']
      if (err.retries) bits.push(`after ${err.retries} ${err.retries === 1 ? 'retry' : 'retries'}`)
      lines.push(c.dim(`  ${bits.join(' · ')}`))
      if (!err.isTls && /\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(err.url)) {
        lines.push('  Is the local engine running? Start it with `gw serve`.')
      }
    } else if (parseMatch) {
      const inner = parseMatch[2].trim()
      lines.push(`${c.red('Error:')} ${inner.includes(`--${parseMatch[1]}`) ? inner : `invalid --${parseMatch[1]}: ${inner}`}`)
      if (err instanceof GwError && err.hint) lines.push(`  ${err.hint}`)
      lines.push(c.dim('  See more help with --help.'))
    } else if (err instanceof GwError) {
      lines.push(`${c.red('Error:')} ${err.message}`)
      if (err.hint) lines.push(`  ${err.hint}`)
    } else if ((err as {oclif?: unknown}).oclif) {
      // oclif's own usage errors (missing argument, unknown flag, ...)
      lines.push(`${c.red('Error:')} ${err.message}`)
    } else {
      lines.push(`${c.red('Error:')} ${err.message || String(err)}`)
      if (this.flags?.verbose && err.stack) lines.push(c.dim(err.stack))
      else lines.push(c.dim('  (unexpected error; run with --verbose for the stack trace)'))
    }
    return lines.join('\n')
  }

  override async finally(err: Error | undefined): Promise<void> {
    await Promise.all(this.extraClients.map((c) => c.close().catch(() => {})))
    return super.finally(err)
  }
}

// every command flag reads GW_<NAME> too (src/base/flag-env.ts)
installFlagEnv(GwCommand)

function apiErrorHint(err: ApiError, settings?: () => Resolved): string | undefined {
  switch (exitCodeFor(err)) {
    case ExitCode.AUTH: {
      let profile = ''
      try {
        profile = settings ? ` for profile "${settings().profile.value}"` : ''
      } catch {}
      return `The API key${profile} was rejected. Run \`gw login\` again, or check GW_API_KEY / --api-key.`
    }
    case ExitCode.RATE_LIMITED:
      return 'Rate limited. Wait a few seconds and try again; POSTs are safe to repeat with the same --idempotency-key.'
    case ExitCode.SERVER:
      return 'The server failed. It is safe to retry: a POST repeated with the same --idempotency-key cannot double-charge.'
    default:
      return undefined
  }
}

function errorJson(err: Error): unknown {
  if (err instanceof ApiError || err instanceof NetworkError) return err.toJSON()
  const parse = /^Parsing --([\w-]+) \n\t([\s\S]*?)(\nSee more help with --help)?$/.exec(err.message)
  const inner = parse?.[2].trim() ?? ''
  const message = parse ? (inner.includes(`--${parse[1]}`) ? inner : `invalid --${parse[1]}: ${inner}`) : err.message
  const type = exitCodeFor(err) === ExitCode.USAGE ? 'usage_error' : exitCodeFor(err) === ExitCode.AUTH ? 'authentication_error' : 'cli_error'
  return {error: {type, message, ...(err instanceof GwError && err.hint ? {hint: err.hint} : {}), request_id: null}}
}

/**
 * undici parses HTTP/1.1 with llhttp compiled to WebAssembly. V8 compiles it with its baseline
 * compiler (Liftoff) and re-compiles it with TurboFan on background threads, and a process
 * cannot exit before those threads finish: ~75 ms after the last byte of a `gw payments get`.
 * A CLI process parses a few kilobytes, so the baseline code is all it needs. Set before the
 * first connection compiles the module; only in CLI processes (not in `gw serve`'s engine,
 * which delivers webhooks with undici for hours). The plain (non-SIMD) build of llhttp, which
 * the baseline compiler handles on every CPU, unless UNDICI_NO_WASM_SIMD says otherwise.
 */
let wasmFlagSet = false
function wasmBaselineOnly(): void {
  if (wasmFlagSet) return
  wasmFlagSet = true
  process.env.UNDICI_NO_WASM_SIMD ??= '1'
  setFlagsFromString('--liftoff-only')
}

function envInt(name: string, fallback: number): number {
  const v = process.env[name]
  return v && /^\d+$/.test(v) ? Number(v) : fallback
}
