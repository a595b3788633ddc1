// Exit codes of every gw command. The README's "## Exit codes" section documents this table.
import {ApiError, NetworkError} from '../client/errors.js'

export const ExitCode = {
  OK: 0,
  /** the API rejected the request (400 invalid_request_error, 409 idempotency_error, ...) or an unexpected failure */
  ERROR: 1,
  /** bad flag or argument, missing input, unsupported combination */
  USAGE: 2,
  /** no API key configured, or 401 authentication_error */
  AUTH: 3,
  /** 402 card_error: the card was declined */
  CARD: 4,
  /** 404: no such object */
  NOT_FOUND: 5,
  /** 429 rate_limit_error, still limited after the retries */
  RATE_LIMITED: 6,
  /** 5xx api_error, still failing after the retries */
  SERVER: 7,
  /** no response: connection refused or reset, DNS, TLS verification, timeout */
  NETWORK: 8,
  /** a live-mode confirmation was declined or could not be asked */
  ABORTED: 9,
} as const

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode]

/** Errors the CLI raises itself, with their exit code and an optional hint line. */
export class GwError extends Error {
  readonly exitCode: number
  readonly hint?: string
  constructor(message: string, opts: {exit?: number; hint?: string} = {}) {
    super(message)
    this.name = 'GwError'
    this.exitCode = opts.exit ?? ExitCode.ERROR
    this.hint = opts.hint
  }
}

export class UsageError extends GwError {
  constructor(message: string, hint?: string) {
    super(message, {exit: ExitCode.USAGE, hint})
    this.name = 'UsageError'
  }
}

export class AuthError extends GwError {
  constructor(message: string, hint?: string) {
    super(message, {exit: ExitCode.AUTH, hint})
    this.name = 'AuthError'
  }
}

export class AbortedError extends GwError {
  constructor(message: string, hint?: string) {
    super(message, {exit: ExitCode.ABORTED, hint})
    this.name = 'AbortedError'
  }
}

export function exitCodeForApiError(err: ApiError): number {
  if (err.status === 401 || err.type === 'authentication_error') return ExitCode.AUTH
  if (err.status === 402 || err.type === 'card_error') return ExitCode.CARD
  if (err.status === 404) return ExitCode.NOT_FOUND
  if (err.status === 429 || err.type === 'rate_limit_error') return ExitCode.RATE_LIMITED
  if (err.status >= 500) return ExitCode.SERVER
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
