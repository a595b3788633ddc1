import type {ApiErrorBody, ErrorCode} from '../../api/types.js'
import {DomainError} from '../domain/errors.js'
import {StoreUnavailableError} from '../ports/store.js'

export type ErrorType = ApiErrorBody['error']['type']

export const DOC_BASE = 'https://docs.gw.dev/errors'

/** An error that becomes the API's error envelope (docs/api.md#errors). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: ErrorCode,
    message: string,
    readonly extra: {param?: string; payment?: string; permission?: string; headers?: Record<string, string>} = {},
  ) {
    super(message)
  }

  body(requestId: string): ApiErrorBody {
    const e: ApiErrorBody['error'] = {
      type: this.type,
      code: this.code,
      message: this.message,
      doc_url: `${DOC_BASE}#${this.code}`,
      request_id: requestId,
    }
    if (this.extra.param) e.param = this.extra.param
    if (this.extra.payment) e.payment = this.extra.payment
    if (this.extra.permission) e.permission = this.extra.permission
    return {error: e}
  }
}

export const apiError = (message = 'An internal error occurred. Retry with the same Idempotency-Key.') =>
  new ApiError(500, 'api_error', 'internal_error', message)

const STATUS: Record<DomainError['kind'], [number, ErrorType]> = {
  invalid_request: [400, 'invalid_request_error'],
  not_found: [404, 'invalid_request_error'],
  card: [402, 'card_error'],
  provider_unavailable: [502, 'api_error'],
  authentication: [401, 'authentication_error'],
  permission: [403, 'permission_error'],
}

/** The wire form of an error a use case, the validation or the store raised; undefined for anything else (a bug: 500). */
export function toApiError(e: unknown): ApiError | undefined {
  if (e instanceof ApiError) return e
  if (e instanceof DomainError) {
    const [status, type] = STATUS[e.kind]
    return new ApiError(status, type, e.code, e.message, e.detail)
  }
  if (e instanceof StoreUnavailableError)
    return new ApiError(503, 'api_error', 'service_unavailable', 'The service is briefly unavailable (its database is not reachable). Retry with the same Idempotency-Key.', {
      headers: {'Retry-After': '1'},
    })
  return undefined
}
