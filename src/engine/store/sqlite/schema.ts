import type {Kind} from '../../ports/store.js'

/** Each kind is a table of JSON documents plus the columns list filters and indexes use. */
export const TABLES: Record<Kind, {table: string; columns: readonly string[]}> = {
  payment: {table: 'payments', columns: ['status', 'customer', 'reference', 'merchant']},
  customer: {table: 'customers', columns: ['email']},
  payment_method: {table: 'payment_methods', columns: ['customer']},
  refund: {table: 'refunds', columns: ['payment', 'status']},
  dispute: {table: 'disputes', columns: ['payment', 'status', 'evidence_due_by']},
  webhook_endpoint: {table: 'webhook_endpoints', columns: ['disabled']},
  delivery: {table: 'deliveries', columns: ['event', 'endpoint', 'status']},
  merchant: {table: 'merchants', columns: ['kyb_status']},
  routing_rule: {table: 'routing_rules', columns: ['merchant']},
  settlement_report: {table: 'settlement_reports', columns: ['provider', 'currency', 'date']},
  payout: {table: 'payouts', columns: ['currency', 'status']},
  ledger_entry: {table: 'ledger_entries', columns: ['currency', 'payment', 'type', 'available_at', 'amount']},
}

/** The columns migration 1 created; later columns come from later migrations. */
const V1_COLUMNS: Partial<Record<Kind, readonly string[]>> = {
  ledger_entry: ['currency', 'payment', 'type'],
}

function objectTable(kind: Kind): string {
  const table = TABLES[kind].table
  const columns = V1_COLUMNS[kind] ?? TABLES[kind].columns
  const cols = columns.map((c) => `, ${c} TEXT`).join('')
  const idx = columns.map((c) => `CREATE INDEX ${table}_${c} ON ${table}(${c}, seq);`).join('\n')
  return `
CREATE TABLE ${table} (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL${cols}
);
CREATE INDEX ${table}_created ON ${table}(created_at);
${idx}`
}

/** Ordered migrations; each runs once, in its own transaction. Append only. */
export const MIGRATIONS: readonly string[] = [
  // 1: all tables
  `${(Object.keys(TABLES) as Kind[]).map(objectTable).join('\n')}
CREATE TABLE events (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  json TEXT NOT NULL
);
CREATE INDEX events_type ON events(type, seq);
CREATE INDEX events_created ON events(created_at);
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  due_at TEXT NOT NULL,
  data TEXT
);
CREATE INDEX jobs_due ON jobs(due_at);
CREATE INDEX jobs_ref ON jobs(kind, ref);
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_expires ON idempotency_keys(expires_at);
CREATE TABLE provider_stats (
  provider TEXT NOT NULL,
  day TEXT NOT NULL,
  approved INTEGER NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (provider, day)
);
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);`,
  // 2: the balance is summed in the store (a covering index) instead of held entry by entry in memory
  `ALTER TABLE ledger_entries ADD COLUMN available_at TEXT;
ALTER TABLE ledger_entries ADD COLUMN amount INTEGER;
UPDATE ledger_entries SET available_at = json_extract(data, '$.available_at'), amount = json_extract(data, '$.amount');
DROP INDEX ledger_entries_currency;
DROP INDEX ledger_entries_type;
CREATE INDEX ledger_entries_balance ON ledger_entries(currency, available_at, amount);`,
]
