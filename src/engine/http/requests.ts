// Request schemas: what each operation accepts, checked before a use case runs. Every error
// names the parameter (dotted path for nested fields) and says how to fix it.
import {EVIDENCE_LIMITS} from '../domain/dispute-evidence.js'
import {DomainError, invalid, unknownParam} from '../domain/errors.js'
import {MAX_AMOUNT} from '../domain/payment.js'
import {REFUND_REASONS} from '../domain/refund.js'
import {MAX_ENABLED_EVENTS} from '../domain/webhooks.js'
import type {Schema} from './validate.js'

export const BILLING_SCHEMA: Schema = {
  name: {type: 'string', maxLength: 200},
  email: {type: 'string', maxLength: 200},
  phone: {type: 'string', maxLength: 40},
  address: {
    type: 'object',
    fields: {
      line1: {type: 'string', maxLength: 200},
      line2: {type: 'string', maxLength: 200},
      city: {type: 'string', maxLength: 100},
      state: {type: 'string', maxLength: 100},
      postal_code: {type: 'string', maxLength: 20},
      country: {type: 'string', maxLength: 2},
    },
  },
}

export const PAYMENT_METHOD_DATA_SCHEMA: Schema = {
  type: {type: 'string', required: true, enum: ['card'], hint: 'Only card instruments can be created with raw details.'},
  card: {
    type: 'object',
    required: true,
    fields: {
      number: {type: 'string', required: true, maxLength: 30},
      exp_month: {type: 'integer', required: true},
      exp_year: {type: 'integer', required: true},
      cvc: {type: 'string', maxLength: 4},
    },
  },
  customer: {type: 'string'},
  billing_details: {type: 'object', fields: BILLING_SCHEMA},
}

export const CREATE_PAYMENT: Schema = {
  amount: {type: 'integer', required: true, min: 1, max: MAX_AMOUNT, hint: "in the currency's minor unit (2000 = €20.00)"},
  currency: {type: 'string', required: true},
  payment_method: {type: 'string'},
  payment_method_id: {type: 'string'},
  payment_method_data: {type: 'object', fields: PAYMENT_METHOD_DATA_SCHEMA},
  reference: {type: 'string', maxLength: 255},
  customer: {
    type: 'string_or_object',
    fields: {id: {type: 'string'}, email: {type: 'string', maxLength: 200}, name: {type: 'string', maxLength: 200}},
  },
  return_url: {type: 'string', maxLength: 2048},
  capture_method: {type: 'string', enum: ['automatic', 'manual']},
  confirm: {type: 'boolean'},
  description: {type: 'string', maxLength: 1000, nullable: true},
  metadata: {type: 'string_map', maxKeys: 50},
  merchant: {type: 'string'},
}

export const CONFIRM_PAYMENT: Schema = {payment_method_id: {type: 'string'}, return_url: {type: 'string', maxLength: 2048}}
export const CAPTURE_PAYMENT: Schema = {amount: {type: 'integer', min: 1, hint: "in the currency's minor unit"}, final_capture: {type: 'boolean'}}
export const INCREMENT_PAYMENT: Schema = {amount: {type: 'integer', required: true, min: 1, max: MAX_AMOUNT, hint: 'as the new total authorization in minor units'}}
export const CANCEL_PAYMENT: Schema = {cancellation_reason: {type: 'string', enum: ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned']}}

export const CUSTOMER_FIELDS: Schema = {
  email: {type: 'string', maxLength: 200, nullable: true},
  name: {type: 'string', maxLength: 200, nullable: true},
  description: {type: 'string', maxLength: 1000, nullable: true},
  metadata: {type: 'string_map', maxKeys: 50},
}

export const CREATE_REFUND: Schema = {
  payment: {type: 'string', required: true},
  amount: {type: 'integer', min: 1, max: MAX_AMOUNT, hint: "in the payment currency's minor unit"},
  reason: {type: 'string', enum: REFUND_REASONS, nullable: true},
  metadata: {type: 'string_map', maxKeys: 50},
}

export const ENDPOINT_FIELDS: Schema = {
  url: {type: 'string', maxLength: 2048},
  enabled_events: {type: 'string_array', maxItems: MAX_ENABLED_EVENTS},
  description: {type: 'string', maxLength: 1000, nullable: true},
  metadata: {type: 'string_map', maxKeys: 50},
}
export const CREATE_ENDPOINT: Schema = {...ENDPOINT_FIELDS, url: {type: 'string', maxLength: 2048, required: true}, enabled_events: {type: 'string_array', maxItems: MAX_ENABLED_EVENTS, required: true}}
export const UPDATE_ENDPOINT: Schema = {...ENDPOINT_FIELDS, disabled: {type: 'boolean'}}

export const MERCHANT_FIELDS: Schema = {
  business_name: {type: 'string', maxLength: 200},
  legal_name: {type: 'string', maxLength: 200},
  country: {type: 'string', maxLength: 2},
  email: {type: 'string', maxLength: 200},
  metadata: {type: 'string_map', maxKeys: 50},
  capabilities: {
    type: 'object',
    fields: {
      card_payments: {type: 'string', enum: ['active', 'inactive']},
      local_payments: {type: 'string', enum: ['active', 'inactive']},
      payouts: {type: 'string', enum: ['active', 'inactive']},
    },
  },
}
export const CREATE_MERCHANT: Schema = {...MERCHANT_FIELDS, business_name: {type: 'string', required: true, maxLength: 200}, capabilities: {type: 'object', fields: {}}}

const CONDITIONS: Schema = {
  payment_method: {type: 'string'},
  currency: {type: 'string', maxLength: 3},
  amount_gte: {type: 'integer', min: 0},
  amount_lte: {type: 'integer', min: 0},
  card_brand: {type: 'string', maxLength: 20},
  country: {type: 'string', maxLength: 2},
}
/** `providers` (an array of {provider, weight?}) is checked by the use case, with the provider ids it knows. */
export const rule = (partial: boolean): Schema => ({
  merchant: {type: 'string', nullable: true},
  priority: {type: 'integer', required: !partial, min: 0, max: 1_000_000},
  action: {type: 'string', required: !partial, enum: ['prefer', 'split', 'block']},
  providers: {type: 'any'},
  conditions: {type: 'object', fields: CONDITIONS},
})

/** An evidence body: `{fields: object of string to string, files: array of HTTPS URLs}`. */
export function parseEvidence(body: unknown): {fields: Record<string, string>; files: string[]} {
  const b = body ?? {}
  if (typeof b !== 'object' || Array.isArray(b)) throw invalid('body', 'The request body must be a JSON object {fields, files}.')
  for (const k of Object.keys(b)) if (k !== 'fields' && k !== 'files') throw unknownParam(k)
  const raw = b as {fields?: unknown; files?: unknown}
  const fields: Record<string, string> = {}
  if (raw.fields !== undefined) {
    if (typeof raw.fields !== 'object' || raw.fields === null || Array.isArray(raw.fields))
      throw invalid('fields', 'fields must be an object of string keys to string values, e.g. {"tracking_number": "1Z999..."}.')
    const entries = Object.entries(raw.fields as Record<string, unknown>)
    if (entries.length > EVIDENCE_LIMITS.maxFields) throw invalid('fields', `fields can hold at most ${EVIDENCE_LIMITS.maxFields} keys.`)
    for (const [k, v] of entries) {
      if (k.length === 0 || k.length > EVIDENCE_LIMITS.maxKeyLength) throw invalid(`fields.${k}`, `fields keys must be 1 to ${EVIDENCE_LIMITS.maxKeyLength} characters.`)
      if (typeof v !== 'string') throw invalid(`fields.${k}`, `fields.${k} must be a string.`)
      if (v.length > EVIDENCE_LIMITS.maxValueLength) throw invalid(`fields.${k}`, `fields.${k} must be at most ${EVIDENCE_LIMITS.maxValueLength} characters.`)
      fields[k] = v
    }
  }
  const files: string[] = []
  if (raw.files !== undefined) {
    if (!Array.isArray(raw.files)) throw invalid('files', 'files must be an array of HTTPS URLs.')
    if (raw.files.length > EVIDENCE_LIMITS.maxFiles) throw invalid('files', `files can hold at most ${EVIDENCE_LIMITS.maxFiles} URLs.`)
    raw.files.forEach((f, i) => {
      let u: URL | undefined
      if (typeof f === 'string' && f.length <= EVIDENCE_LIMITS.maxUrlLength) {
        try {
          u = new URL(f)
        } catch {
          u = undefined
        }
      }
      if (!u || u.protocol !== 'https:') throw invalid(`files[${i}]`, `files[${i}] must be an HTTPS URL such as https://shop.example/receipt.pdf.`)
      files.push(f as string)
    })
  }
  if (Object.keys(fields).length === 0 && files.length === 0)
    throw new DomainError('invalid_request', 'parameter_missing', 'Evidence needs at least one entry in fields or one file URL.', {param: 'fields'})
  return {fields, files}
}
