import type {Kind} from '../ports/store.js'

// What both adapters' schemas share: the table of each kind and the search columns (each adapter
// writes its own DDL from these; sqlite/schema.ts, postgres/schema.ts).

/** The table of each kind. Columns: seq (insertion order), id, created_at, version, data (public JSON), internal (JSON or NULL), and the kind's typed filter fields (ports/store.ts KINDS). */
export const TABLE: Record<Kind, string> = {
  payment: 'payments',
  customer: 'customers',
  payment_method: 'payment_methods',
  refund: 'refunds',
  dispute: 'disputes',
  webhook_endpoint: 'webhook_endpoints',
  delivery: 'deliveries',
  merchant: 'merchants',
  routing_rule: 'routing_rules',
  settlement_report: 'settlement_reports',
  payout: 'payouts',
  ledger_entry: 'ledger_entries',
  account: 'accounts',
  api_key: 'api_keys',
  checkout_session: 'checkout_sessions',
  chaos_fault: 'chaos_faults',
}

/** The search columns of migration 8 (SQLite) and 4 (PostgreSQL), by table (frozen): filled in from the stored objects, in JavaScript. */
export const SEARCH_KEYS_COLUMNS: Readonly<Record<string, readonly string[]>> = {payments: ['card_last4'], customers: ['email_key', 'email_domain', 'name_key', 'surname_key']}

/**
 * Indexes keyed by a reference before the account (SQLite migration 9, PostgreSQL migration 5;
 * docs/decisions.md#storage-per-payment), by table (frozen): each of these columns holds the id of an object made at about the
 * same time as the row, so the index takes every account's new entries at one end. Only ever
 * compared for equality (a range would cross accounts).
 */
export const REFERENCE_KEYED: readonly (readonly [table: string, column: string])[] = [
  ['deliveries', 'event'],
  ['ledger_entries', 'payment'],
  ['refunds', 'payment'],
  ['disputes', 'payment'],
  ['checkout_sessions', 'payment'],
]

/**
 * Migration 9 / 5's statements but for the event subject index (its expression is written as
 * each adapter writes one): deliveries' status and account indexes dropped, their endpoint index
 * made whole (not partial), the REFERENCE_KEYED indexes re-keyed. Each DROP is IF EXISTS: a store
 * rolled back to an earlier version (a test of an earlier migration) runs it again.
 */
export function referenceKeyedIndexes(): string {
  const out = ['DROP INDEX IF EXISTS deliveries_status;', 'DROP INDEX IF EXISTS deliveries_account;', 'DROP INDEX IF EXISTS deliveries_endpoint;', 'CREATE INDEX deliveries_endpoint ON deliveries (account, endpoint, seq);']
  for (const [t, c] of REFERENCE_KEYED) out.push(`DROP INDEX IF EXISTS ${t}_${c};`, `CREATE INDEX ${t}_${c} ON ${t} (${c}, account, seq) WHERE ${c} IS NOT NULL;`)
  return out.join('\n')
}
