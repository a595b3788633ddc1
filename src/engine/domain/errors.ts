// Errors of the application layer. They say what went wrong in the domain's words; the HTTP
// layer (http/errors.ts) decides the status and the envelope.
import type {ErrorCode} from '../../api/types.js'
import {closest, distance} from '../../suggest.js'

export type ErrorKind =
  /** the request cannot be carried out as sent: a bad value, a missing or unknown parameter, an object in the wrong state */
  | 'invalid_request'
  /** an id that names nothing */
  | 'not_found'
  /** the issuer declined (a payment created or confirmed that fails this way is returned, not thrown) */
  | 'card'
  /** a provider gave no usable answer; retrying with the same Idempotency-Key may succeed */
  | 'provider_unavailable'
  /** the key is missing, unknown, expired or revoked (401) */
  | 'authentication'
  /** the key is valid but may not do this (403 permission_error: a restricted key without the permission, a publishable key, another account's business) */
  | 'permission'

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
    readonly detail: {param?: string; payment?: string; permission?: string} = {},
  ) {
    super(message)
  }
}

export const invalid = (param: string, message: string, code: ErrorCode = 'parameter_invalid') => new DomainError('invalid_request', code, message, {param})

export const missing = (param: string, hint = '') =>
  new DomainError('invalid_request', 'parameter_missing', `Missing required parameter: ${param}.${hint ? ` ${hint}` : ''}`, {param})

/**
 * A field the operation does not take; `known` (the fields it takes where this one was found)
 * gives a did-you-mean for a typo, as the CLI's flags do: `captur_method` → `capture_method`.
 */
export const unknownParam = (param: string, known: readonly string[] = []) => {
  const name = param.slice(param.lastIndexOf('.') + 1)
  // a near spelling only: a field far from every known one gets no guess
  const near = closest(name, known, 1).find((c) => distance(name.toLowerCase(), c.toLowerCase()) <= Math.max(1, Math.floor(name.length / 3)))
  const fix = near ? ` Did you mean ${param.slice(0, param.length - name.length)}${near}?` : ' Remove it, or check its spelling against the API reference.'
  return new DomainError('invalid_request', 'parameter_unknown', `Received unknown parameter: ${param}.${fix}`, {param})
}

export const notFound = (what: string, id: string, param = 'id') => new DomainError('not_found', 'resource_missing', `No such ${what}: '${id}'`, {param})

/** An object is not in a state for this action (payment_not_capturable, dispute_not_actionable, ...). */
export const badState = (code: ErrorCode, message: string) => new DomainError('invalid_request', code, message)

/** 403 permission_denied naming the permission the call needs (none for what any secret or restricted key may call). */
export const forbidden = (permission: string, message: string) => new DomainError('permission', 'permission_denied', message, permission === 'none' ? {} : {permission})

export const testModeOnly = () => new DomainError('invalid_request', 'test_mode_only', 'Test helpers work with test keys only.')
