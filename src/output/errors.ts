// How an error looks: one "Error:" line that names the flag and the fix, the API's request id
// (dim), and a hint. oclif's own parse errors ("Missing required flag currency", "Nonexistent
// flag: --amout") are rewritten in the same style, with a "did you mean" for flag typos.
import {stripVTControlCharacters} from 'node:util'
import {ApiError, NetworkError} from '../client/errors.js'
import {ExitCode, GwError} from '../errors.js'
import {closest} from '../suggest.js'
import type {Painter} from './color.js'

/** What the error renderer knows about the command that failed. */
export interface ErrorContext {
  color: Painter
  verbose?: boolean
  /** the command, for "See `gw payments create --help`" */
  commandId?: string
  /** the command's flags (long names, with descriptions), for rewrites and did-you-mean */
  flags?: Record<string, {description?: string; char?: string; options?: readonly string[]; helpValue?: string}>
  /** "for profile \"local\"" in the 401 hint, when known */
  profile?: () => string | undefined
  /** whether the base URL is the local engine's of a profile `gw login --local` made (for the hint on a connection failure) */
  localEngine?: () => boolean
}

const PARSE_WRAPPER = /^The following errors? occurred:\s*/
const SEE_HELP = /\s*See more help with --help\s*$/

/** The message of an oclif parse error, cleaned: no wrapper, no colour, no "See more help". */
function parseMessage(err: Error): string {
  return stripVTControlCharacters(err.message).replace(PARSE_WRAPPER, '').replace(SEE_HELP, '').trim()
}

/** Rewrites oclif's wording into gw's: the flag, what is wrong, the fix. */
export function rewriteParseError(err: Error, ctx: Pick<ErrorContext, 'flags' | 'commandId'>): {message: string; hint?: string} | undefined {
  const oclif = (err as {oclif?: unknown}).oclif
  if (!oclif && !/^Parsing --/.test(err.message)) return undefined
  const flags = ctx.flags ?? {}
  const names = Object.keys(flags)
  const help = ctx.commandId ? `See \`gw ${ctx.commandId.replaceAll(':', ' ')} --help\`.` : 'See --help.'
  // a flag's own parser threw (GwError messages already name the flag)
  const parsing = /^Parsing --([\w-]+) \n\t([\s\S]*?)(\nSee more help with --help)?$/.exec(err.message)
  if (parsing) {
    const inner = parsing[2]!.trim()
    return {message: inner.includes(`--${parsing[1]}`) ? inner : `invalid --${parsing[1]}: ${inner}`, hint: err instanceof GwError ? err.hint : undefined}
  }
  const text = parseMessage(err)
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean)
  const out: string[] = []
  const hints: string[] = []
  for (const line of lines) {
    let m: RegExpExecArray | null
    if ((m = /^Missing required flag ([\w-]+)$/.exec(line))) {
      const f = flags[m[1]!]
      const what = f?.description ? f.description.replace(/\.$/, '') : ''
      out.push(`Missing --${m[1]}${what ? `: ${what[0]!.toLowerCase()}${what.slice(1)}` : ''}.`)
      hints.push(`Add --${m[1]} ${exampleValue(m[1]!, f)}.`)
    } else if ((m = /^Nonexistent flags?: (.+)$/.exec(line))) {
      for (const given of m[1]!.split(/,\s*/)) {
        const name = given.replace(/^-+/, '').split('=')[0]!
        const near = closest(name, names, 2)
        out.push(`Unknown flag ${given}.`)
        hints.push(near.length ? `Did you mean ${near.map((n) => `--${n}`).join(' or ')}?` : help)
      }
    } else if ((m = /^Expected --([\w-]+)=(.*) to be one of: (.+)$/.exec(line))) {
      const options = m[3]!.split(/,\s*/)
      const near = closest(m[2]!, options, 1)
      out.push(`--${m[1]} "${m[2]}" is not one of: ${options.join(', ')}.`)
      if (near.length) hints.push(`Did you mean --${m[1]} ${near[0]}?`)
    } else if ((m = /^Expected (.*) to be one of: (.+)$/.exec(line))) {
      const options = m[2]!.split(/,\s*/)
      const near = closest(m[1]!, options, 1)
      out.push(`"${m[1]}" is not one of: ${options.join(', ')}.`)
      if (near.length) hints.push(`Did you mean ${near[0]}?`)
    } else if ((m = /^Missing (\d+) required args?/.exec(line))) {
      const arg = lines.find((l, i) => i > lines.indexOf(line) && /^\S+\s{2,}/.test(l))
      out.push(`Missing ${arg ? `the ${arg.split(/\s{2,}/)[0]} argument (${arg.split(/\s{2,}/).slice(1).join(' ')})` : 'a required argument'}.`)
      hints.push(help)
      break
    } else if ((m = /^Unexpected arguments?: (.+)$/.exec(line))) {
      out.push(`Unexpected argument${m[1]!.includes(',') ? 's' : ''}: ${m[1]}.`)
      hints.push(/^-\w{2,}/.test(m[1]!) ? `Long flags take two dashes: -${m[1]!.split(',')[0]}. ${help}` : help)
    } else if ((m = /^--([\w-]+)=(.*) cannot also be provided when using --([\w-]+)$/.exec(line))) {
      const pair = [m[1]!, m[3]!].sort().map((n) => `--${n}`)
      const said = `${pair[0]} and ${pair[1]} cannot be used together; give one of them.`
      if (!out.includes(said)) out.push(said)
    } else if ((m = /^All of the following must be provided when using --([\w-]+): (.+)$/.exec(line))) {
      out.push(`--${m[1]} needs ${m[2]!.split(/,\s*/).join(' and ')}.`)
    } else if ((m = /^Exactly one of the following must be provided: (.+)$/.exec(line))) {
      out.push(`Give exactly one of ${m[1]!.split(/,\s*/).join(', ')}.`)
    } else if (!/^\S+\s{2,}/.test(line) && !/^Note:|^Alternatively/.test(line)) {
      out.push(/[.!?]$/.test(line) ? line : `${line}.`)
    }
  }
  if (!out.length) return {message: text || err.message, hint: help}
  return {message: out.join(' '), hint: hints.length ? [...new Set(hints)].join(' ') : help}
}

function exampleValue(name: string, f: {options?: readonly string[]; helpValue?: string; description?: string} | undefined): string {
  if (f?.options?.length) return f.options[0]!
  const known: Record<string, string> = {currency: 'EUR', amount: '2000', payment: 'pay_123', url: 'https://shop.example/webhooks', 'business-name': '"Shop"', card: '4242424242424242', 'forward-to': 'localhost:3000/webhooks'}
  if (known[name]) return known[name]!
  const eg = /e\.g\. ([^\s,;)]+)/.exec(f?.description ?? '')
  return eg ? eg[1]!.replace(/\.$/, '') : 'VALUE'
}

/**
 * For a POST that may or may not have been done (a 5xx, a 429, a 409 in use, a lost connection):
 * the Idempotency-Key it was sent with, so the retry the server advises is safe. On stderr, in
 * --json mode too (stdout keeps the API's envelope as it came).
 */
function retryWithKey(err: ApiError | NetworkError): string | undefined {
  if (!err.idempotencyKey) return undefined
  const maybeDone = err instanceof NetworkError || err.status === 429 || err.status >= 500 || (err.status === 409 && err.code === 'idempotency_key_in_use')
  if (!maybeDone) return undefined
  return `Retry with the same Idempotency-Key, so it is done once: --idempotency-key ${err.idempotencyKey}`
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

/**
 * What to check when nothing answered (docs/decisions.md#a-newcomers-cli): the local engine only for a local base URL (a
 * loopback host, or the profile `gw login --local` made); for a remote one its host, and the
 * balancer in front of it. TLS failures have hints of their own (in the message).
 */
export function networkHint(err: NetworkError, localEngine?: () => boolean): string | undefined {
  if (err.isTls) return undefined
  let url: URL
  try {
    url = new URL(err.url)
  } catch {
    return undefined
  }
  const local = LOOPBACK.has(url.hostname) || /^127\./.test(url.hostname) || (localEngine?.() ?? false)
  if (local) return 'Is the local engine running? Start it with `gw serve`.'
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `The host ${url.hostname} was not found: check the base URL (gw config get base_url) and this machine's DNS.`
  const at = `${url.hostname}:${url.port || (url.protocol === 'http:' ? '80' : '443')}`
  return `Check that ${at} is up and reachable from here (network, firewall, VPN); behind a load balancer, that it has a ready instance (GET /readyz on each).`
}

/** The lines printed on stderr for an error. */
export function formatError(err: Error, ctx: ErrorContext): string {
  const c = ctx.color
  const lines: string[] = []
  if (err instanceof ApiError) {
    let message = err.message
    if (err.flag) {
      if (err.param) message = message.split(err.param).join(err.flag)
      if (!message.includes(err.flag)) message = `${err.flag}: ${message}`
    }
    lines.push(`${c.red('Error:')} ${message}`)
    const bits = [`${err.type}${err.code ? ` ${err.code}` : ''}`, `HTTP ${err.status}`, `request_id ${err.requestId ?? '(none)'}`]
    if (err.param) bits.push(`param ${err.param}`)
    if (err.payment) bits.push(`payment ${err.payment}`)
    if (err.retries) bits.push(`after ${err.retries} ${err.retries === 1 ? 'retry' : 'retries'}`)
    lines.push(c.dim(`  ${bits.join(' · ')}`))
    const hint = apiErrorHint(err, ctx.profile)
    if (hint) lines.push(`  ${hint}`)
    if (err.explanation) lines.push(`  ${err.explanation}`)
    const retry = retryWithKey(err)
    if (retry) lines.push(`  ${retry}`)
  } else if (err instanceof NetworkError) {
    lines.push(`${c.red('Error:')} ${err.message}`)
    const bits = [`network error ${err.code}`, 'request_id (none: no response)']
    if (err.retries) bits.push(`after ${err.retries} ${err.retries === 1 ? 'retry' : 'retries'}`)
    lines.push(c.dim(`  ${bits.join(' · ')}`))
    const hint = networkHint(err, ctx.localEngine)
    if (hint) lines.push(`  ${hint}`)
    const retry = retryWithKey(err)
    if (retry) lines.push(`  ${retry}`)
  } else {
    const parsed = rewriteParseError(err, ctx)
    if (parsed) {
      lines.push(`${c.red('Error:')} ${parsed.message}`)
      if (parsed.hint) lines.push(`  ${parsed.hint}`)
      else lines.push(c.dim('  See more help with --help.'))
    } else if (err instanceof GwError) {
      lines.push(`${c.red('Error:')} ${err.message}`)
      if (err.hint) lines.push(`  ${err.hint}`)
    } else {
      lines.push(`${c.red('Error:')} ${err.message || String(err)}`)
      if (ctx.verbose && err.stack) lines.push(c.dim(err.stack))
      else lines.push(c.dim('  (unexpected error; run with --verbose for the stack trace)'))
    }
  }
  return lines.join('\n')
}

export function apiErrorHint(err: ApiError, profile?: () => string | undefined): string | undefined {
  // the key is valid but may not do this: the message names what it needs
  if (err.status === 403 || err.type === 'permission_error') return 'This key may not do that: use a key that may (gw keys create --permissions ..., with a secret key), or log in with one (gw login).'
  // the CLI's command, not the API call the message names
  if (err.code === 'webhook_endpoint_disabled') {
    const id = /\bwh_[A-Za-z0-9]+/.exec(err.message)?.[0] ?? 'wh_...'
    return `Enable it first: gw webhooks update ${id} --enable`
  }
  switch (exitCodeFor(err)) {
    case ExitCode.AUTH: {
      let name: string | undefined
      try {
        name = profile?.()
      } catch {
        name = undefined
      }
      return `The API key${name ? ` for profile "${name}"` : ''} was rejected. Run \`gw login\` again, or check GW_API_KEY / --api-key.`
    }
    case ExitCode.RATE_LIMITED:
      return 'Rate limited. Wait a few seconds and try again; POSTs are safe to repeat with the same --idempotency-key.'
    case ExitCode.SERVER:
      return 'The server failed. It is safe to retry: a POST repeated with the same --idempotency-key cannot double-charge.'
    default:
      return undefined
  }
}

/** The error as JSON for --json (the API's envelope, or gw's own in the same shape). */
export function errorJson(err: Error, ctx: Pick<ErrorContext, 'flags' | 'commandId'> = {}): unknown {
  // the API's envelope as it came (the flag a bad param came from is on stderr, not in it)
  if (err instanceof ApiError) return err.toJSON()
  if (err instanceof NetworkError) return err.toJSON()
  const parsed = rewriteParseError(err, ctx)
  const message = parsed?.message ?? err.message
  const hint = parsed?.hint ?? (err instanceof GwError ? err.hint : undefined)
  const code = exitCodeFor(err)
  const type = code === ExitCode.USAGE ? 'usage_error' : code === ExitCode.AUTH ? 'authentication_error' : code === ExitCode.ABORTED ? 'aborted' : 'cli_error'
  return {error: {type, message, ...(hint ? {hint} : {}), request_id: null}}
}

// ----- exit codes (the README's table)

export function exitCodeForApiError(err: ApiError): number {
  // 401: no valid key; 403: a valid key without the permission (same class: the key cannot do this)
  if (err.status === 401 || err.status === 403 || err.type === 'authentication_error' || err.type === 'permission_error') return ExitCode.AUTH
  if (err.status === 402 || err.type === 'card_error') return ExitCode.CARD
  if (err.status === 404) return ExitCode.NOT_FOUND
  if (err.status === 429 || err.type === 'rate_limit_error') return ExitCode.RATE_LIMITED
  if (err.status >= 500) return ExitCode.SERVER
  // a 400 the CLI traced back to a flag the user typed is a usage error (see output/errors.ts)
  if (err.flag) return ExitCode.USAGE
  return ExitCode.ERROR
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof ApiError) return exitCodeForApiError(err)
  if (err instanceof NetworkError) return ExitCode.NETWORK
  if (err instanceof GwError) return err.exitCode
  const oclif = (err as {oclif?: {exit?: number}})?.oclif
  if (oclif && typeof oclif.exit === 'number') return oclif.exit
  return ExitCode.ERROR
}
