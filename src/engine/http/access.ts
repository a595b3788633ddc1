// What a request's key may do, as the pipeline (pipeline.ts) checks it: the key of the
// Authorization header (bearer), the operation's permission (authorize, the document's
// x-permission), what a browser's publishable key may do (browserBody), and a browser's preflight.
import type {ServerResponse} from 'node:http'
import {ApiError} from './errors.js'
import {forbidden} from '../domain/errors.js'
import {allows, type KeyType, type Permission} from '../domain/keys.js'
import type {Caller} from '../app/keys.js'
import {OPERATION_PERMISSIONS, permissionName} from '../../api/openapi/document.js'
import {PLATFORM_ACCOUNT} from '../ports/store.js'

/**
 * Whether a presented secret equals a known one, in a time that depends on the known one's length
 * only: every character is compared, whatever differs first. (Not a digest of each presented key
 * and crypto.timingSafeEqual: hashing cost more than the rest of authentication.)
 */
export function sameSecret(known: string, given: string): boolean {
  let diff = known.length ^ given.length
  for (let i = 0; i < known.length; i++) diff |= known.charCodeAt(i) ^ given.charCodeAt(i < given.length ? i : 0)
  return diff === 0
}

/** The key of an `Authorization: Bearer <key>` header. */
export function bearer(header: string | undefined): string {
  if (!header) throw new ApiError(401, 'authentication_error', 'api_key_missing', 'No API key provided. Send your secret key as `Authorization: Bearer sk_test_...`.')
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!m) throw new ApiError(401, 'authentication_error', 'api_key_invalid', 'The Authorization header must be `Bearer <secret key>`.')
  return m[1]!
}

const KEY_WORD: Record<KeyType, string> = {secret: 'secret key', restricted: 'restricted key', publishable: 'publishable key'}

/**
 * What a browser may call with a publishable key (docs/decisions.md#browsers-and-hosted-pages): saving a card as a payment method
 * from the hosted card fields (gw.js), never attached to a customer (that needs a secret key), and
 * confirming a payment the shop's server created with that card (the payment's id, which only the
 * server and its customer know, is the capability; its routes check the rest), or paying a
 * checkout session the server created with it (the session's id is the capability).
 */
type BrowserBody = Record<string, unknown> | undefined

const BROWSER_OPERATIONS: ReadonlyMap<string, {permission: Permission; refuses: (body: BrowserBody) => boolean; why: string}> = new Map([
  ['createPaymentMethod', {permission: 'payment_methods:write' as Permission, refuses: (b: BrowserBody) => b?.customer !== undefined, why: 'A publishable key saves a card without a customer; attach it on your server with a secret key (customer on POST /v1/payment_methods, or payment_method_id on a payment).'}],
  ['confirmPayment', {permission: 'payments:write' as Permission, refuses: (b: BrowserBody) => b?.payment_method_id === undefined || b?.return_url !== undefined, why: 'A publishable key confirms a payment with the card the hosted card fields saved: send payment_method_id (and no return_url); anything else needs a secret key.'}],
  // a try at paying a checkout session (its id is the capability); its body is payment_method_id alone
  ['payCheckoutSession', {permission: 'payments:write' as Permission, refuses: () => false, why: ''}],
])

/** 403 when a publishable key asks a browser operation for more than a browser may (read once the body is). */
export function browserBody(caller: Caller, operationId: string, body: unknown): void {
  const rule = caller.key.type === 'publishable' ? BROWSER_OPERATIONS.get(operationId) : undefined
  if (rule?.refuses(body as BrowserBody)) throw forbidden(rule.permission, rule.why)
}

const NONE: readonly Permission[] = ['none']

/** The permissions of `needs` the caller's key lacks; undefined when it holds them all (a loop, not a filter: no array per request on the hot path). */
function lacking(caller: Pick<Caller, 'account' | 'key'>, needs: readonly Permission[]): Permission[] | undefined {
  const {type, permissions} = caller.key
  const platform = caller.account === PLATFORM_ACCOUNT
  let holds = true
  for (const need of needs) if (!allows(type, permissions, need, platform)) holds = false
  return holds ? undefined : needs.filter((need) => !allows(type, permissions, need, platform))
}

/** 403 permission_error unless the caller's key may perform the operation: every permission it needs (docs/api.md "Keys"). */
export function authorize(caller: Caller, operationId: string, method: string, pathname: string): void {
  const needs = (OPERATION_PERMISSIONS.get(operationId) ?? NONE) as readonly Permission[]
  const {key} = caller
  const platform = caller.account === PLATFORM_ACCOUNT
  if (key.type === 'publishable' && BROWSER_OPERATIONS.has(operationId)) return
  const missing = lacking(caller, needs)
  if (!missing) return
  // error.permission names all the operation needs (one, or several joined by commas)
  const need = permissionName(needs)
  const what = `${method} ${pathname}`
  if (key.type === 'publishable')
    throw forbidden(need, `Publishable keys (${key.redacted}) work only where a browser may call (the hosted card fields: saving a card, confirming a payment, paying a checkout session); ${what} needs a secret or restricted key${need === 'none' ? '' : ` with ${need}`}.`)
  if (need.startsWith('api_keys:')) throw forbidden(need, `Managing API keys needs a secret key; this ${KEY_WORD[key.type]} (${key.redacted}) cannot ${what}.`)
  if (need.startsWith('accounts:') && !platform)
    throw forbidden(need, `Accounts are managed with a key of the engine's own account (${PLATFORM_ACCOUNT}, the key gw login --local saves); this key belongs to ${caller.account}.`)
  const all = needs.length > 1 ? ` (it needs ${needs.join(' and ')})` : ''
  throw forbidden(
    need,
    `This restricted key (${key.redacted}) lacks ${missing.join(' and ')}, which ${what} needs${all}. It has ${key.permissions!.join(', ') || 'no permission'}; create a key that includes ${need} (gw keys create --permissions ${need}).`,
  )
}

/**
 * 403 permission_error unless the caller's key also holds `needs`: what a request's content asks
 * beyond its operation's own permission (`operation`) — a payment filter that reads customers, an
 * endpoint that would receive payloads. error.permission names the missing ones; `what` says
 * what needs them (docs/api.md#what-a-key-reaches).
 */
export function authorizeAlso(caller: Pick<Caller, 'account' | 'key'>, needs: readonly Permission[], what: string, operation: Permission): void {
  const {key} = caller
  const missing = lacking(caller, needs)
  if (!missing) return
  const name = permissionName(missing)
  throw forbidden(
    name,
    `This ${KEY_WORD[key.type]} (${key.redacted}) lacks ${missing.join(' and ')}, which ${what} needs. It has ${key.permissions?.join(', ') || 'no permission'}; create a key that includes them (gw keys create --permissions ${operation},${name}).`,
  )
}

/** A browser's preflight: any origin, the methods and headers the API reads; the key decides the rest. */
export function preflight(res: ServerResponse, requestId: string): void {
  res.writeHead(204, {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Service-Version, Gw-Parent-Origin',
    'Access-Control-Max-Age': '600',
    'Request-Id': requestId,
    'X-Content-Type-Options': 'nosniff',
  })
  res.end()
}
