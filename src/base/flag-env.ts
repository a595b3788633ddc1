// Every command flag also reads an environment variable: GW_ and the flag's name in upper
// snake case (--amount: GW_AMOUNT, --forward-to: GW_FORWARD_TO), listed in --help as
// [env: ...]. Flags that name their own variable keep it (--yes: GW_YES, serve --api-key:
// GW_SERVE_API_KEY). Precedence: the command line, then the environment, then the profile,
// then the default. Commands declare their flags as usual; GwCommand fills the variables in
// (see installFlagEnv), so the manifest, --help and parsing all see them.
import type {Command} from '@oclif/core'

/** The parts of an oclif flag definition this module reads. */
interface FlagDef {
  env?: string
  type: 'boolean' | 'option'
  char?: string
  aliases?: string[]
  allowNo?: boolean
  exclusive?: string[]
  exactlyOne?: string[]
  dependsOn?: string[]
  multiple?: boolean
  delimiter?: string
}

type FlagSet = Record<string, FlagDef>

/** Flags that read no variable, and why. */
export const NO_ENV_FLAGS: Readonly<Record<string, string>> = {
  // one key names one request: a key left in the environment would make every later POST a
  // replay of the first one (same response, nothing new created)
  'idempotency-key': 'an Idempotency-Key names a single request',
}

/** GW_ variables with a meaning of their own that no flag may take over. */
export const RESERVED_ENV = ['GW_MAX_RETRIES', 'GW_NO_KEYRING', 'GW_TRACE_FILE'] as const

/** --forward-to -> GW_FORWARD_TO */
export function flagEnvName(name: string): string {
  return `GW_${name.toUpperCase().replaceAll('-', '_')}`
}

/** The flags with `env` filled in where a flag has none (new objects; the inputs are shared). */
export function withFlagEnv<F extends object>(flags: F): F {
  if (!flags) return flags
  const out: Record<string, unknown> = {}
  for (const [name, flag] of Object.entries(flags as FlagSet)) {
    const env = flagEnvName(name)
    const skip = flag.env || Object.hasOwn(NO_ENV_FLAGS, name) || (RESERVED_ENV as readonly string[]).includes(env)
    out[name] = skip ? flag : {...flag, env}
  }
  return out as F
}

const filled = new WeakSet<object>()

/** Gives a command class's own flags their variables, once. */
export function fillFlagEnv(cmd: typeof Command): void {
  if (filled.has(cmd)) return
  filled.add(cmd)
  if (cmd.flags) Object.defineProperty(cmd, 'flags', {value: withFlagEnv(cmd.flags), writable: true, enumerable: true, configurable: true})
}

/**
 * oclif assigns `id` to every command class it loads, both when `oclif manifest` caches the
 * commands (which --help reads) and before it runs one. An accessor for `id` on the base class
 * is therefore the one place that sees every subclass's flags before either: it fills the
 * variables in, then stores `id` as the plain property oclif expects.
 */
export function installFlagEnv(base: typeof Command): void {
  Object.defineProperty(base, 'id', {
    configurable: true,
    enumerable: false,
    get: () => undefined,
    set(this: typeof Command, id: string) {
      if (this !== base) fillFlagEnv(this)
      Object.defineProperty(this, 'id', {value: id, writable: true, enumerable: true, configurable: true})
    },
  })
}

function typed(name: string, flag: FlagDef | undefined, argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  const words = end === -1 ? argv : argv.slice(0, end)
  const longs = [name, ...(flag?.aliases ?? [])]
  return words.some(
    (w) =>
      longs.some((l) => w === `--${l}` || w.startsWith(`--${l}=`) || w === `--no-${l}`) ||
      (flag?.char !== undefined && w.startsWith(`-${flag.char}`) && !w.startsWith('--')),
  )
}

function fromEnv(flag: FlagDef | undefined, env: NodeJS.ProcessEnv): boolean {
  const v = flag?.env ? env[flag.env] : undefined
  if (!v) return false
  return flag!.type !== 'boolean' || flag!.allowNo === true || ['1', 'true', 'y', 'yes'].includes(v.toLowerCase())
}

/**
 * The flag definitions for one parse, with variables that would fight the command line left
 * out: a variable of a flag whose alternative (exclusive, exactly-one) is typed; of a flag whose
 * prerequisite (dependsOn) is given neither way; and a plain boolean's "false" or "0", which
 * means the same as not set.
 */
export function flagsForParse<F extends object>(flags: F, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): F {
  if (!flags) return flags
  const set = flags as FlagSet
  const out: Record<string, FlagDef> = {}
  for (const [name, flag] of Object.entries(set)) {
    let keep = Boolean(flag.env && env[flag.env])
    if (keep && flag.type === 'boolean' && !flag.allowNo) keep = fromEnv(flag, env)
    if (keep && !typed(name, flag, argv)) {
      const rivals = [...(flag.exclusive ?? []), ...(flag.exactlyOne ?? [])].filter((r) => r !== name)
      if (rivals.some((r) => typed(r, set[r], argv))) keep = false
      if ((flag.dependsOn ?? []).some((d) => !typed(d, set[d], argv) && !fromEnv(set[d], env))) keep = false
    }
    out[name] = keep || !flag.env ? flag : {...flag, env: undefined}
  }
  return out as F
}

/** oclif hands a repeatable flag read from a variable over as one string: make it a list. */
export function listsFromEnv(flags: object | undefined, values: Record<string, unknown>): void {
  if (!flags) return
  for (const [name, flag] of Object.entries(flags as FlagSet)) {
    const v = values[name]
    if (flag.multiple && typeof v === 'string') values[name] = flag.delimiter ? v.split(flag.delimiter).map((s) => s.trim()) : [v]
  }
}
