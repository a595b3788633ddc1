// What a support agent searches payments by (docs/decisions.md#finding-payments), as the store keeps it: each a typed
// column of its own, indexed, derived from the object on every write (store/columns.ts DERIVED) and
// from the query's value the same way, so a search is an index read, never a scan.

/** A card payment's last four digits (its card, kept in the internal part). */
export function cardLast4(obj: Record<string, unknown>): string | null {
  const last4 = ((obj._x as {instrument?: {last4?: unknown}} | undefined)?.instrument?.last4 ?? null) as unknown
  return typeof last4 === 'string' ? last4 : null
}

/** An email compared case-insensitively: trimmed and in lower case (`ZOE@Lovelace-Shop.example` is `zoe@lovelace-shop.example`). */
export function emailKey(email: unknown): string | null {
  if (typeof email !== 'string') return null
  const key = email.trim().toLowerCase()
  return key === '' ? null : key
}

/** An email's domain, in lower case (what follows its last @); a value with no @ has none. */
export function emailDomain(email: unknown): string | null {
  const key = emailKey(email)
  const at = key?.lastIndexOf('@') ?? -1
  return key && at >= 0 && at < key.length - 1 ? key.slice(at + 1) : null
}

/** A domain as typed: in lower case, without a leading @ (`@Lovelace-Shop.example`). */
export const domainKey = (domain: string): string => domain.trim().replace(/^@/, '').toLowerCase()

/**
 * A name as a person types it: accents dropped (Zoë is zoe), case ignored, spaces collapsed,
 * so that `zoe love` is a prefix of `Zoë  Lovelace`'s key.
 */
export function nameKey(name: unknown): string | null {
  if (typeof name !== 'string') return null
  const key = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
  return key === '' ? null : key
}

/** The last word of a name of several words (the family name, as most names are written), as nameKey keeps it; null for a name of one word. */
export function surnameKey(name: unknown): string | null {
  const key = nameKey(name)
  const space = key?.lastIndexOf(' ') ?? -1
  return key && space > 0 ? key.slice(space + 1) : null
}
