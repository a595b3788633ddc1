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
