// The contract's schemas, family by family (resources/*.ts): every response object (with a list
// envelope for each listed one, and the error envelope) and every request body, by name, as
// `components/schemas` of the document holds them.
import {errorSchemas} from './errors.js'
import {listSchemas, type Family, type Schema} from './kit.js'
import {family as accounts} from './resources/accounts.js'
import {family as chaos} from './resources/chaos.js'
import {family as checkout} from './resources/checkout.js'
import {family as customers} from './resources/customers.js'
import {family as meta} from './resources/meta.js'
import {family as payments} from './resources/payments.js'
import {family as refundsDisputes} from './resources/refunds-disputes.js'
import {family as requestLog} from './resources/request-log.js'
import {family as routing} from './resources/routing.js'
import {family as settlement} from './resources/settlement.js'
import {family as testHelpers} from './resources/test-helpers.js'
import {family as webhooks} from './resources/webhooks.js'

export type {Schema} from './kit.js'
export {body, idOf, idRef, MAX_AMOUNT, MAX_SAFE, nullable, obj, ref} from './kit.js'
export {CARD_ERROR_CODES, ERROR_CODES, ERROR_TYPE_OF_STATUS} from './errors.js'
export {BILLING_DETAILS, PAYMENT_METHOD_DATA} from './resources/payments.js'
// the vocabulary: one list of each, in src/api
export {METHOD_CODES} from '../catalog.js'
export {MAX_ADVANCE_S} from '../clock-steps.js'
export * from '../vocabulary.js'

/** The resource families, in the document's order (its paths, tags and schemas follow it). */
export const FAMILIES: readonly Family[] = [payments, customers, checkout, refundsDisputes, webhooks, routing, settlement, testHelpers, chaos, requestLog, accounts, meta]

/** Response objects (additionalProperties: false, so an undocumented field fails validation). */
export function responseSchemas(): Record<string, Schema> {
  return Object.assign({}, ...FAMILIES.map((f) => f.responses?.() ?? {}), errorSchemas(), listSchemas(FAMILIES.flatMap((f) => f.lists ?? [])))
}

/** Request bodies, each checked by the request validator compiled from the document. */
export function requestSchemas(): Record<string, Schema> {
  return Object.assign({}, ...FAMILIES.map((f) => f.requests?.() ?? {}))
}
