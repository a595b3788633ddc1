// GwCommand: the small base of every gw command. It parses the global flags (--json,
// --profile, --api-key, --base-url, --ca-file, --verbose, --insecure, --yes; each also read
// from GW_<NAME>), builds the command's Context (src/base/context.ts), prints the result under
// --json, and turns errors into the documented exit codes without stack traces
// (src/output/errors.ts). A command's body is a plain function of the Context and its flags.
import {Command, Flags, type Interfaces} from '@oclif/core'
import {GwError} from '../errors.js'
import {fillFlagEnv, flagsForParse, installFlagEnv, listsFromEnv} from './flag-env.js'
import {Context, testHooks} from './context.js'
import type {FlagInputs} from '../config/resolve.js'
import type {ErrorContext} from '../output/errors.js'
import type {OperationId} from '../api/types.js'

export {ExitCode, GwError, UsageError, AuthError, AbortedError} from '../errors.js'
export {Context, testHooks} from './context.js'

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

const FLAG_NAMES: Record<keyof FlagInputs, string> = {profile: 'profile', apiKey: 'api-key', baseUrl: 'base-url', caFile: 'ca-file'}

export abstract class GwCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true
  /**
   * The operations of the API (the OpenAPI document's operationIds) this command is the gw command
   * for, one command each; kept in the manifest. openapi-commands.test.ts runs the command against
   * a mock of the API and checks it sends each one.
   */
  static operations?: readonly OperationId[]
  /** The global flags; a command may keep only some of them (`gw serve` keeps --json and --verbose). */
  static override baseFlags: Partial<typeof globalFlags> = globalFlags

  protected flags!: GwFlags<T>
  protected args!: GwArgs<T>
  private context?: Context

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

  /** The context of this run: built on first use, after the flags are parsed. */
  protected get ctx(): Context {
    this.context ??= new Context({
      json: this.jsonEnabled(),
      verbose: Boolean((this.flags as {verbose?: boolean} | undefined)?.verbose),
      yes: Boolean((this.flags as {yes?: boolean} | undefined)?.yes),
      insecure: Boolean((this.flags as {insecure?: boolean} | undefined)?.insecure),
      explicit: this.explicitFlags(),
      version: this.config?.version,
      seams: testHooks,
    })
    return this.context
  }

  /** Base flags the command line set explicitly (oclif merges env into flags; this tells them apart). */
  private explicitFlags(): FlagInputs {
    const out: FlagInputs = {}
    const f = (this.flags ?? {}) as Record<string, unknown>
    for (const [k, name] of Object.entries(FLAG_NAMES) as [keyof FlagInputs, string][]) {
      const given = this.argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`))
      if (given && typeof f[name] === 'string') out[k] = f[name] as string
    }
    return out
  }

  override jsonEnabled(): boolean {
    if (super.jsonEnabled()) return true
    const v = process.env.GW_JSON
    return this.ctor.enableJsonFlag === true && v !== undefined && ['1', 'true', 'yes', 'y'].includes(v.toLowerCase())
  }

  /** --json: the result, unless the command streamed NDJSON already. */
  override logJson(json: unknown): void {
    this.ctx.out.result(json)
  }

  private errorContext(): ErrorContext {
    const flags = {...(this.ctor.baseFlags ?? {}), ...(this.ctor.flags ?? {})} as ErrorContext['flags']
    return {
      color: this.ctx.errColor,
      verbose: Boolean((this.flags as {verbose?: boolean} | undefined)?.verbose) || this.argv.includes('--verbose'),
      commandId: this.id,
      flags,
      profile: () => this.ctx.settings().profile.value,
      localEngine: () => {
        const s = this.ctx.settings()
        return s.baseUrl.source === 'profile' && Boolean(s.profileData?.data_dir)
      },
    }
  }

  override async catch(err: Error & {exitCode?: number}): Promise<void> {
    // loaded only when something failed: start-up stays lean
    const {errorJson, exitCodeFor, formatError} = await import('../output/errors.js')
    const code = exitCodeFor(err)
    const out = this.ctx.out
    const ec = this.errorContext()
    if (this.jsonEnabled()) {
      // mid-way through an NDJSON stream the error is one more line
      const body = errorJson(err, ec)
      out.io.stdout.write(out.scrub(out.streamed ? JSON.stringify(body) : JSON.stringify(body, null, 2)) + '\n')
    }
    if (!(err instanceof GwError && err.quiet)) out.io.stderr.write(out.human(formatError(err, ec)) + '\n')
    process.exitCode = code
  }

  override async finally(err: Error | undefined): Promise<void> {
    if (this.context) {
      await this.context.close()
      if (!err && this.context.exitCode !== undefined) process.exitCode = this.context.exitCode
    }
    return super.finally(err)
  }
}

// every command flag reads GW_<NAME> too (src/base/flag-env.ts)
installFlagEnv(GwCommand)
