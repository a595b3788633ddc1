// How the store reads each kind's typed columns (ports/store/kinds.ts KINDS) from an object, the
// same in both adapters: a member of the column's name, a member of the internal part (`_x`), or
// a value derived from the object (the forms a support agent searches by).
import {cardLast4, emailDomain, emailKey, nameKey, surnameKey} from '../domain/search-keys.js'
import {type FieldType, type Kind, KINDS} from '../ports/store.js'

/** Each kind's filter fields and their types, `created_at` included (what a filter may name). */
export const FIELDS: Readonly<Record<Kind, Readonly<Record<string, FieldType>>>> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, {...KINDS[k], created_at: 'time'}]),
) as unknown as Record<Kind, Record<string, FieldType>>
/** Each kind's typed columns, in KINDS order, written from the object on every put (`created_at` is a column of its own). */
export const COLUMNS: Readonly<Record<Kind, readonly string[]>> = Object.fromEntries((Object.keys(KINDS) as Kind[]).map((k) => [k, Object.keys(KINDS[k])])) as Record<Kind, string[]>

/** Filter fields kept in an object's internal part (`_x`) rather than its public JSON. */
export const INTERNAL_FIELDS: Readonly<Partial<Record<Kind, ReadonlySet<string>>>> = {api_key: new Set(['secret_hash'])}

/**
 * Filter fields computed from the object rather than read from a member of that name (docs/decisions.md#finding-payments):
 * the forms a support agent searches by, so each search is one indexed read. The query's value is
 * put in the same form (domain/search-keys.ts) by the use case.
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
