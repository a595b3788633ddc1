// The error envelope (docs/api.md#errors) and every error an operation may answer: codes by HTTP status,
// the type of each status, and the responses the document's operations refer to.
import {obj, idOf, ref, str, type ErrorStatus, type Schema} from './kit.js'
import {ENGINE_TIME_HEADER} from '../engine-time.js'

/** Final issuer declines answered as 402 card_error (docs/api.md#errors, engine/domain/declines.ts). */
export const CARD_ERROR_CODES = [
  'card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'do_not_honor', 'lost_card', 'stolen_card', 'fraudulent',
  'invalid_account', 'authentication_required',
] as const

/** Every error code, by HTTP status (docs/api.md#errors, docs/decisions.md#wire-details). */
export const ERROR_CODES = {
  400: [
    'parameter_invalid', 'parameter_missing', 'parameter_unknown', 'version_invalid', 'tls_required', 'request_malformed',
    'currency_not_supported', 'card_number_invalid', 'card_expiry_invalid', 'cvc_invalid', 'merchant_inactive', 'amount_too_large',
    'payment_unexpected_state', 'payment_not_capturable', 'payment_not_incrementable', 'payment_not_cancelable',
    'payment_not_refundable', 'payment_disputed', 'partial_refund_unsupported', 'payment_not_disputable', 'payment_already_disputed',
    'dispute_not_actionable', 'payment_method_not_attached', 'session_invalid', 'test_mode_only', 'webhook_endpoint_limit',
    'webhook_endpoint_disabled', 'no_webhook_endpoints', 'event_already_delivered', 'replay_too_large', 'api_key_limit', 'api_key_revoked', 'api_key_expired', 'account_not_deletable', 'checkout_session_not_open',
  ],
  401: ['api_key_missing', 'api_key_invalid', 'api_key_expired', 'api_key_revoked', 'live_mode_unavailable'],
  402: CARD_ERROR_CODES,
  403: ['permission_denied'],
  404: ['resource_missing', 'route_unknown'],
  408: ['request_timeout'],
  409: ['idempotency_key_reused', 'idempotency_key_in_use'],
  413: ['request_too_large'],
  415: ['media_type_unsupported'],
  429: ['rate_limit_exceeded'],
  431: ['request_header_too_large'],
  500: ['internal_error'],
  502: ['provider_error'],
  503: ['service_unavailable'],
} as const satisfies Record<ErrorStatus, readonly string[]>

export const ERROR_TYPE_OF_STATUS: Record<keyof typeof ERROR_CODES, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'card_error',
  403: 'permission_error',
  404: 'invalid_request_error',
  408: 'invalid_request_error',
  409: 'idempotency_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  431: 'invalid_request_error',
  500: 'api_error',
  502: 'api_error',
  503: 'api_error',
}

/** The error envelope's schemas. */
export const errorSchemas = (): Record<string, Schema> => ({
  ErrorDetail: obj(
    {
      type: {type: 'string', enum: ['invalid_request_error', 'authentication_error', 'permission_error', 'card_error', 'idempotency_error', 'rate_limit_error', 'api_error']},
      code: {type: 'string', enum: [...new Set(Object.values(ERROR_CODES).flat())]},
      message: str({minLength: 1, description: 'Human-readable: names the field and the fix.'}),
      doc_url: str({format: 'uri', description: "Link to the error's reference entry."}),
      request_id: str({pattern: '^req_[0-9A-Za-z]+$', description: 'Equal to the Request-Id header.'}),
      param: str({description: 'The offending parameter: dotted path for nested fields (payment_method_data.card.number), [i] for array items.'}),
      payment: idOf('pay', 'On 402 card errors: the failed payment, stored and retrievable.'),
      permission: str({pattern: '^[a-z_]+:(read|write)(,[a-z_]+:(read|write))*$', description: 'On 403 permission_error: the permission the request needs, e.g. payments:write; several joined by commas when it needs them all (webhooks:write,events:read), as gw keys create --permissions takes them.'}),
    },
    {optional: ['param', 'payment', 'permission']},
  ),
  Error: obj({error: ref('ErrorDetail')}, {description: 'The error envelope.'}),
})

const header = (description: string, schema: Schema = {type: 'string'}) => ({description, schema})

export function errorResponse(status: ErrorStatus): Schema {
  const codes = ERROR_CODES[status]
  const text: Record<ErrorStatus, string> = {
    400: 'Invalid request: a parameter (error.param names it), the state of the object, the Service-Version or the Idempotency-Key.',
    401: 'Missing, invalid, expired or revoked API key (authentication_error).',
    403: 'The key may not do this (permission_error): a restricted key without the permission error.permission names (several joined by commas: the key needs them all), a publishable key, or key and account management with a key that cannot.',
    402: "The issuer declined (card_error); error.payment names the stored failed payment, failure_code repeats the code.",
    404: 'Unknown id (resource_missing, error.param names it) or unknown route (route_unknown).',
    408: 'The request was not received in time (its headers or body stopped arriving); the connection closes. Retry it with the same Idempotency-Key.',
    409: 'Idempotency-Key reused with a different request, or a request with it is still running (idempotency_error).',
    413: 'The request body is over 1 MiB.',
    415: 'The request body is not JSON (Content-Type other than application/json) or is encoded in a way the engine does not decode (Content-Encoding other than gzip): the message names it.',
    429: "Over the rate limit (100 requests/s per account and mode, bursts to 200; the account's publishable key has a budget of the same size of its own), or too many failed authentications from this client address (5/s, bursts of 20: only failures are refused, a key that authenticates is served): wait Retry-After seconds, reuse the Idempotency-Key.",
    431: 'The request header block is too large.',
    500: 'Internal error (api_error): retry with the same Idempotency-Key.',
    502: 'The provider did not confirm (api_error): retry with the same Idempotency-Key.',
    503: "The engine's database cannot be reached right now (PostgreSQL restarting): wait Retry-After seconds and retry with the same Idempotency-Key.",
  }
  const headers: Record<string, unknown> = {'Request-Id': {$ref: '#/components/headers/Request-Id'}}
  // the key was authenticated (not 401), and the request was read (not 408, 431): the account's engine time
  if (status !== 401 && status !== 408 && status !== 431) headers[ENGINE_TIME_HEADER] = {$ref: `#/components/headers/${ENGINE_TIME_HEADER}`}
  // 4xx outcomes of an idempotent POST are stored and replayed (docs/api.md Idempotency)
  if (status === 400 || status === 402 || status === 404) headers['Idempotent-Replayed'] = {$ref: '#/components/headers/Idempotent-Replayed'}
  if (status === 503) headers['Retry-After'] = {$ref: '#/components/headers/Retry-After'}
  if (status === 429) {
    headers['Retry-After'] = {$ref: '#/components/headers/Retry-After'}
    headers['RateLimit-Limit'] = header('Requests per second allowed (absent when failed authentications ran out).', {type: 'integer'})
    headers['RateLimit-Remaining'] = header('Always 0 on a 429 (absent when failed authentications ran out).', {type: 'integer'})
  }
  return {
    description: text[status],
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [ref('Error')],
          properties: {
            error: {properties: {type: {const: ERROR_TYPE_OF_STATUS[status]}, code: {enum: [...codes]}}},
          },
        },
      },
    },
  }
}

export const RESPONSE_NAME: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'CardError',
  403: 'Forbidden',
  404: 'NotFound',
  408: 'RequestTimeout',
  409: 'IdempotencyConflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  431: 'HeadersTooLarge',
  500: 'InternalError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
}
