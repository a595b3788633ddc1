// The kinds of object the store keeps and their typed filter fields (part of the Store port, ports/store.ts).

/** Type of a filter field: its values, in the store and in filters. */
export type FieldType = 'text' | 'int' | 'bool' | 'time'

/**
 * Kinds of object and their typed filter fields. Every kind can also be filtered on
 * `created_at` (time). A field not listed here cannot be filtered, summed or grouped on. The
 * store keeps each listed field in a column of its type, taken from the object's member of that
 * name on every write. `delivery.next_attempt_at` also drives the delivery queue.
 */
export const KINDS = {
  /** card_last4: derived (store/columns.ts DERIVED) */
  payment: {status: 'text', customer: 'text', reference: 'text', merchant: 'text', card_last4: 'text'},
  /** email_key, email_domain, name_key, surname_key: derived (store/columns.ts DERIVED), what a support agent searches by (docs/decisions.md#finding-payments) */
  customer: {email: 'text', email_key: 'text', email_domain: 'text', name_key: 'text', surname_key: 'text'},
  payment_method: {customer: 'text'},
  refund: {payment: 'text', status: 'text'},
  dispute: {payment: 'text', status: 'text', evidence_due_by: 'time'},
  webhook_endpoint: {disabled: 'bool'},
  delivery: {event: 'text', endpoint: 'text', status: 'text', next_attempt_at: 'time'},
  merchant: {kyb_status: 'text'},
  routing_rule: {merchant: 'text'},
  settlement_report: {provider: 'text', currency: 'text', date: 'text'},
  payout: {currency: 'text', status: 'text'},
  ledger_entry: {currency: 'text', payment: 'text', type: 'text', available_at: 'time', amount: 'int'},
  /** accounts are objects of the platform account (the engine's own, PLATFORM_ACCOUNT) */
  account: {},
  /** hosted checkout sessions (docs/api.md#hosted-checkout-sessions) */
  checkout_session: {status: 'text', payment: 'text'},
  /** failures switched on to rehearse (docs/decisions.md#failure-on-purpose) */
  chaos_fault: {},
  /** `secret_hash` is read from the internal part (never served); looked up across accounts by Store.locate */
  api_key: {type: 'text', secret_hash: 'text'},
} as const satisfies Record<string, Record<string, FieldType>>

export type Kind = keyof typeof KINDS

/** The engine's own account: existing data dirs and databases open as it, and its keys manage the other accounts. */
export const PLATFORM_ACCOUNT = 'acct_default'

/** Kinds never served by the API: a store may keep them in any form, as long as it gives the same object back. */
export const INTERNAL_KINDS: ReadonlySet<Kind> = new Set(['ledger_entry'])
/** The filter fields of a kind (of any kind, for `Kind` itself). */
export type FieldOf<K extends Kind> = K extends Kind ? (keyof (typeof KINDS)[K] & string) | 'created_at' : never
