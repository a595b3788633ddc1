// Errors the CLI raises itself, and the exit codes of every gw command. A leaf module: config/,
// events/, output/ and base/ all import it, and it imports nothing. The README's "## Exit codes"
// section documents this table.

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
  /** not a gw command */
  UNKNOWN_COMMAND: 127,
} as const

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode]

/** Errors the CLI raises itself, with their exit code and an optional hint line. */
export class GwError extends Error {
  readonly exitCode: number
  readonly hint?: string
  /** already said on screen (the evidence form's own "Canceled"): exit with the code, print nothing more */
  readonly quiet: boolean
  constructor(message: string, opts: {exit?: number; hint?: string; quiet?: boolean} = {}) {
    super(message)
    this.name = 'GwError'
    this.exitCode = opts.exit ?? ExitCode.ERROR
    this.hint = opts.hint
    this.quiet = opts.quiet ?? false
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
  constructor(message: string, hint?: string, opts: {quiet?: boolean} = {}) {
    super(message, {exit: ExitCode.ABORTED, hint, quiet: opts.quiet})
    this.name = 'AbortedError'
  }
}
