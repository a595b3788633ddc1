// One classification of network failures (undici and node:net errors), shared by the engine's
// webhook attempts, the CLI client and `gw listen`.

export type NetworkErrorKind = 'timeout' | 'connection_refused' | 'dns_error' | 'tls_error' | 'connection_error' | 'destination_blocked'

/** Codes of TLS verification failures. */
export const TLS_CODES: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
])

/** Connection-level codes worth retrying (the request may never have reached the server). */
export const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
])

export function isRetryableNetworkCode(code: string): boolean {
  return RETRYABLE_CODES.has(code)
}

interface ErrorLike {
  name?: string
  code?: string
  message?: string
  cause?: {code?: string; message?: string}
}

/** The error's code (undici puts the socket's code on `cause`). */
export function networkErrorCode(e: unknown): string {
  const err = e as ErrorLike
  return err?.cause?.code ?? err?.code ?? ''
}

/** What kind of failure a network error is, with its code and a short message. */
export function classifyNetworkError(e: unknown, timeoutMs?: number): {error: NetworkErrorKind; code: string; message: string} {
  const err = e as ErrorLike
  const code = networkErrorCode(e)
  const message = err?.cause?.message ?? err?.message ?? String(e)
  if (err?.name === 'AbortError' || err?.name === 'TimeoutError' || /TIMEOUT/.test(code) || code === 'ETIMEDOUT')
    return {error: 'timeout', code, message: timeoutMs ? `no response within ${timeoutMs / 1000} s` : 'no response in time'}
  if (code === 'ECONNREFUSED') return {error: 'connection_refused', code, message: 'connection refused'}
  // the engine's destination policy refused the resolved address (engine/domain/destinations.ts)
  if (code === 'EDESTBLOCKED') return {error: 'destination_blocked', code, message}
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return {error: 'dns_error', code, message: `cannot resolve the host (${code})`}
  if (TLS_CODES.has(code) || /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code) || /certificate|TLS|SSL/i.test(message)) return {error: 'tls_error', code, message}
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return {error: 'connection_error', code, message: `connection reset (${code})`}
  return {error: 'connection_error', code, message: code ? `${code}: ${message}` : message}
}
