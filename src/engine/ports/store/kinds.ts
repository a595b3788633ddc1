// The kinds of object the store keeps and their typed filter fields (part of the Store port, ports/store.ts).
import {cardLast4, emailDomain, emailKey, nameKey, surnameKey} from '../search-keys.js'

/** Type of a filter field: its values, in the store and in filters. */
export type FieldType = 'text' | 'int' | 'bool' | 'time'

/**
 * Kinds of object and their typed filter fields. Every kind can also be filtered on
 * `created_at` (time). A field not listed here cannot be filtered, summed or grouped on. The
 * store keeps each listed field in a column of its type, taken from the object's member of that
 * name on every write. `delivery.next_attempt_at` also drives the delivery queue.
 */
export const KINDS = {
  /** card_last4: derived (DERIVED) */
  payment: {status: 'text', customer: 'text', reference: 'text', merchant: 'text', card_last4: 'text'},
  /** email_key, email_domain, name_key, surname_key: derived (DERIVED), what a support agent searches by (issue 36) */
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
  /** hosted checkout sessions (issue 28) */
  checkout_session: {status: 'text', payment: 'text'},
  /** failures switched on to rehearse (issue 29) */
  chaos_fault: {},
  /** `secret_hash` is read from the internal part (never served); looked up across accounts by Store.locate */
  api_key: {type: 'text', secret_hash: 'text'},
} as const satisfies Record<string, Record<string, FieldType>>

export type Kind = keyof typeof KINDS

/** Each kind's filter fields and their types, `created_at` included (what a filter may name). */
export const FIELDS: Readonly<Record<Kind, Readonly<Record<string, FieldType>>>> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, {...KINDS[k], created_at: 'time'}]),
) as unknown as Record<Kind, Record<string, FieldType>>
/** Each kind's typed columns, in KINDS order, written from the object on every put (`created_at` is a column of its own). */
export const COLUMNS: Readonly<Record<Kind, readonly string[]>> = Object.fromEntries((Object.keys(KINDS) as Kind[]).map((k) => [k, Object.keys(KINDS[k])])) as Record<Kind, string[]>

/** Filter fields kept in an object's internal part (`_x`) rather than its public JSON. */
export const INTERNAL_FIELDS: Readonly<Partial<Record<Kind, ReadonlySet<string>>>> = {api_key: new Set(['secret_hash'])}

/**
 * Filter fields computed from the object rather than read from a member of that name (issue 36):
 * the forms a support agent searches by, so each search is one indexed read. The query's value is
 * put in the same form (ports/search-keys.ts) by the use case.
 */
export const DERIVED: Readonly<Partial<Record<Kind, Readonly<Record<string, (obj: Record<string, unknown>) => unknown>>>>> = {
  payment: {card_last4: cardLast4},
  customer: {email_key: (o) => emailKey(o.email), email_domain: (o) => emailDomain(o.email), name_key: (o) => nameKey(o.name), surname_key: (o) => surnameKey(o.name)},
}

/** How a typed column's value is read from an object: derived, from its internal part, or its member of that name. */
function reader(kind: Kind, field: string): (obj: Record<string, unknown>) => unknown {
  const derived = DERIVED[kind]?.[field]
  if (derived) return derived
  if (INTERNAL_FIELDS[kind]?.has(field)) return (obj) => (obj._x as Record<string, unknown> | undefined)?.[field]
  return (obj) => obj[field]
}

/** The value of a typed column of an object. */
export function fieldValue(kind: Kind, obj: Record<string, unknown>, field: string): unknown {
  return reader(kind, field)(obj)
}

/** Each kind's typed columns as [name, type, how its value is read], for the writes of every put. */
export const COLUMN_SPECS: Readonly<Record<Kind, readonly (readonly [string, FieldType, (obj: Record<string, unknown>) => unknown])[]>> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, COLUMNS[k].map((c) => [c, (KINDS[k] as Record<string, FieldType>)[c]!, reader(k, c)] as const)]),
) as unknown as Record<Kind, readonly (readonly [string, FieldType, (obj: Record<string, unknown>) => unknown])[]>

/** The typed columns' values of an object (before a store's own conversion, see `convert`). */
export function columnValues<V>(kind: Kind, obj: Record<string, unknown>, convert: (type: FieldType, v: unknown) => V): V[] {
  const specs = COLUMN_SPECS[kind]
  const out = new Array<V>(specs.length)
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!
    out[i] = convert(spec[1], spec[2](obj))
  }
  return out
}

/** The engine's own account: existing data dirs and databases open as it, and its keys manage the other accounts. */
export const PLATFORM_ACCOUNT = 'acct_default'

/** Kinds never served by the API: a store may keep them in any form, as long as it gives the same object back. */
export const INTERNAL_KINDS: ReadonlySet<Kind> = new Set(['ledger_entry'])
/** The filter fields of a kind (of any kind, for `Kind` itself). */
export type FieldOf<K extends Kind> = K extends Kind ? (keyof (typeof KINDS)[K] & string) | 'created_at' : never
