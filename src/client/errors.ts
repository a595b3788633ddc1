// Errors the API client raises. ApiError mirrors the API's error envelope (docs/api.md#errors);
// NetworkError covers everything that never produced an HTTP response.
import {networkErrorCode, TLS_CODES} from '../api/network-errors.js'
import type {ApiErrorBody, ErrorCode} from '../api/types.js'

export type ApiErrorType = ApiErrorBody['error']['type']
/**
 * An error's code: one of the document's codes, or another — a code added within v1, or one the
 * client makes for an answer without an envelope (`http_502`). Open so that code written against
 * today's list keeps compiling and running when the gateway adds one (docs/api.md#sdk-types).
 */
export type ApiErrorCode = ErrorCode | (string & {})
/** An error envelope as a client may meet it: the document's, or one built here for an answer without one (code `http_502`). */
export type ClientErrorBody = {error: Omit<ApiErrorBody['error'], 'code'> & {code: string}}

export class ApiError extends Error {
  override readonly name = 'ApiError'
  readonly status: number
  readonly type: ApiErrorType
  readonly code: ApiErrorCode
  /**
   * A card error's decline code from the issuer (`insufficient_funds`, `card_declined`, ...): for
   * a 402 card_error the API's `code` is the issuer's, repeated here as gw.js's errors carry it;
   * null for every other error, and for a failed 3-D Secure step (`authentication_required`,
   * which no issuer declined).
   */
  readonly decline_code: string | null
  readonly requestId: string | null
  readonly param: string | undefined
  readonly payment: string | undefined
  readonly docUrl: string | undefined
  /** seconds from a Retry-After header, when the server sent one */
  readonly retryAfter: number | undefined
  /** how many times the client retried before giving up */
  retries = 0
  /** the command-line flag the offending `param` came from (set by the CLI); makes it a usage error */
  flag?: string
  /** a sentence the CLI adds under the API's own error lines (e.g. why a dispute is not actionable) */
  explanation?: string
  /** the Idempotency-Key the request was sent with (POST): retrying with it is safe */
  idempotencyKey?: string
  /** the error envelope exactly as the API sent it, when it sent one: `--json` prints this, nothing added */
  envelope?: ClientErrorBody

  constructor(init: {
    status: number
    type: ApiErrorType
    code: ApiErrorCode
    message: string
    requestId?: string | null
    param?: string
    payment?: string
    docUrl?: string
    retryAfter?: number
  }) {
    super(init.message)
    this.status = init.status
    this.type = init.type
    this.code = init.code
    this.decline_code = init.type === 'card_error' && init.code !== 'authentication_required' ? init.code : null
    this.requestId = init.requestId ?? null
    this.param = init.param
    this.payment = init.payment
    this.docUrl = init.docUrl
    this.retryAfter = init.retryAfter
  }

  /** Builds the error from a non-2xx response; tolerates bodies that are not the envelope. */
  static fromResponse(status: number, body: unknown, headers: {requestId?: string | null; retryAfter?: number}): ApiError {
    const env = (body && typeof body === 'object' && 'error' in body ? (body as ApiErrorBody).error : undefined) as
      | Partial<ApiErrorBody['error']>
      | undefined
    const type = (env?.type as ApiErrorType | undefined) ?? typeForStatus(status)
    const err = new ApiError({
      status,
      type,
      code: env?.code ?? `http_${status}`,
      message: env?.message ?? `The server answered HTTP ${status} without an error body.`,
      requestId: env?.request_id ?? headers.requestId ?? null,
      param: env?.param,
      payment: env?.payment,
      docUrl: env?.doc_url,
      retryAfter: headers.retryAfter,
    })
    if (env && typeof env.message === 'string' && typeof env.type === 'string') err.envelope = body as ClientErrorBody
    return err
  }

  /**
   * The error as the API's envelope, for `--json` output: the body as it came when the API sent
   * one (the OpenAPI document's Error schema allows no other member; the exit code tells the
   * status), else one built from what is known.
   */
  toJSON(): ClientErrorBody {
    if (this.envelope) return this.envelope
    const error: ClientErrorBody['error'] = {
      type: this.type,
      code: this.code,
      message: this.message,
      doc_url: this.docUrl ?? '',
      request_id: this.requestId ?? '',
    }
    if (this.param) error.param = this.param
    if (this.payment) error.payment = this.payment
    return {error}
  }
}

export function typeForStatus(status: number): ApiErrorType {
  if (status === 401) return 'authentication_error'
  if (status === 402) return 'card_error'
  if (status === 409) return 'idempotency_error'
  if (status === 429) return 'rate_limit_error'
  if (status >= 500) return 'api_error'
  return 'invalid_request_error'
}

/** No HTTP response: DNS, refused/reset connection, TLS verification, timeout. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError'
  readonly code: string
  readonly url: string
  retries = 0
  /** the Idempotency-Key the request was sent with (POST): retrying with it is safe */
  idempotencyKey?: string

  constructor(message: string, code: string, url: string, options?: {cause?: unknown}) {
    super(message, options)
    this.code = code
    this.url = url
  }

  get isTls(): boolean {
    return TLS_CODES.has(this.code)
  }

  toJSON() {
    return {error: {type: 'network_error', code: this.code, message: this.message, request_id: null}}
  }
}

export {isRetryableNetworkCode} from '../api/network-errors.js'

/**
 * What to do about a certificate the client does not trust, in the words of the code that made
 * the client: the SDK's options (the default), or the CLI's flags (ClientOptions.tlsAdvice).
 */
export const SDK_TLS_ADVICE =
  "Pass the gateway's CA certificate (PEM) to the client, new Gateway({baseUrl, apiKey, ca}) — gw/testing's startGateway() gives it as `ca`, `gw serve` as the file `ca_file` — or start node with NODE_EXTRA_CA_CERTS=/path/to/ca.crt."

/** Turns whatever undici threw into a NetworkError with a readable message. */
export function toNetworkError(err: unknown, url: string, tlsAdvice = SDK_TLS_ADVICE): NetworkError {
  const e = err as {code?: string; message?: string; cause?: {code?: string; message?: string}}
  const code = networkErrorCode(err) || 'UNKNOWN'
  const origin = safeOrigin(url)
  let message: string
  switch (code) {
    case 'ECONNREFUSED':
      message = `Could not connect to ${origin}: connection refused.`
      break
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      message = `Could not resolve the host of ${origin}.`
      break
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      message = `The connection to ${origin} was closed unexpectedly.`
      break
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      message = `Timed out connecting to ${origin}.`
      break
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      message = `${origin} did not answer in time.`
      break
    default:
      if (TLS_CODES.has(code)) {
        message = `TLS verification of ${origin} failed (${code}). ${tlsAdvice}`
      } else {
        message = `Request to ${origin} failed: ${e?.cause?.message ?? e?.message ?? String(err)}`
      }
  }
  return new NetworkError(message, code, url, {cause: err})
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}
