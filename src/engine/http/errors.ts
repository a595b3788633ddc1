import type {ApiErrorBody} from '../../api/types.js'
import type {ChangeSet} from '../ports/store.js'

export type ErrorType = ApiErrorBody['error']['type']

export const DOC_BASE = 'https://docs.gw.dev/errors'

/** An error that becomes the spec's error envelope (§7). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly extra: {param?: string; payment?: string; headers?: Record<string, string>; changes?: ChangeSet} = {},
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
    return {error: e}
  }
}

export const invalid = (param: string, message: string, code = 'parameter_invalid') =>
  new ApiError(400, 'invalid_request_error', code, message, {param})

export const missing = (param: string, hint = '') =>
  new ApiError(400, 'invalid_request_error', 'parameter_missing', `Missing required parameter: ${param}.${hint ? ` ${hint}` : ''}`, {
    param,
  })

export const unknownParam = (param: string) =>
  new ApiError(
    400,
    'invalid_request_error',
    'parameter_unknown',
    `Received unknown parameter: ${param}. Remove it, or check its spelling against the API reference.`,
    {param},
  )

export const notFound = (what: string, id: string, param = 'id') =>
  new ApiError(404, 'invalid_request_error', 'resource_missing', `No such ${what}: '${id}'`, {param})

export const badState = (code: string, message: string) => new ApiError(400, 'invalid_request_error', code, message)

export const apiError = (message = 'An internal error occurred. Retry with the same Idempotency-Key.') =>
  new ApiError(500, 'api_error', 'internal_error', message)
