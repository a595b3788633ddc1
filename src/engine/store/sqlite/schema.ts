import {referenceKeyedIndexes, SEARCH_KEYS_COLUMNS, TABLE} from '../tables.js'

export {SEARCH_KEYS_COLUMNS, TABLE}

/** The object tables of migration 3's shape (migration 3 moves their internal state to a column of its own). */
const OBJECT_TABLES = ['payments', 'customers', 'payment_methods', 'refunds', 'disputes', 'webhook_endpoints', 'deliveries', 'merchants', 'routing_rules', 'settlement_reports', 'payouts', 'ledger_entries']

/** Migration 6's object tables and their typed columns (frozen: migrations never change). */
const V6_OBJECTS: Record<string, [string, 'TEXT' | 'INTEGER'][]> = {
  payments: [['status', 'TEXT'], ['customer', 'TEXT'], ['reference', 'TEXT'], ['merchant', 'TEXT']],
  customers: [['email', 'TEXT']],
  payment_methods: [['customer', 'TEXT']],
  refunds: [['payment', 'TEXT'], ['status', 'TEXT']],
  disputes: [['payment', 'TEXT'], ['status', 'TEXT'], ['evidence_due_by', 'TEXT']],
  webhook_endpoints: [['disabled', 'INTEGER']],
  deliveries: [['event', 'TEXT'], ['endpoint', 'TEXT'], ['status', 'TEXT'], ['next_attempt_at', 'TEXT']],
  merchants: [['kyb_status', 'TEXT']],
  routing_rules: [['merchant', 'TEXT']],
  settlement_reports: [['provider', 'TEXT'], ['currency', 'TEXT'], ['date', 'TEXT']],
  payouts: [['currency', 'TEXT'], ['status', 'TEXT']],
  ledger_entries: [['currency', 'TEXT'], ['payment', 'TEXT'], ['type', 'TEXT'], ['available_at', 'TEXT'], ['amount', 'INTEGER']],
  accounts: [],
  api_keys: [['type', 'TEXT'], ['secret_hash', 'TEXT']],
  checkout_sessions: [['status', 'TEXT'], ['payment', 'TEXT']],
  chaos_faults: [],
}
/** Typed columns with no index of their own (another index serves them). */
const V6_UNINDEXED = new Set(['deliveries.next_attempt_at', 'ledger_entries.type', 'ledger_entries.currency', 'ledger_entries.available_at', 'ledger_entries.amount', 'api_keys.secret_hash'])
const V6_NEW = new Set(['accounts', 'api_keys', 'checkout_sessions', 'chaos_faults'])

/**
 * Migration 6 (accounts: docs/decisions.md#accounts): every row belongs to an account and every index leads with
 * it; ids are unique per account (a snapshot loads into any number of accounts with its ids), and
 * an event's object and payment get columns of their own (a payment's whole story). What existed
 * becomes the platform account's (acct_default, number 1). Rows carry an account's number
 * (account_numbers): an integer compares in a fraction of a text's time in every index entry
 * written, and every index leads with the account. Tables are rebuilt (SQLite cannot change a
 * UNIQUE constraint in place): rows keep their seq, so insertion order and cursors hold.
 */
function accountsMigration(): string {
  const out: string[] = [`CREATE TABLE account_numbers (n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
INSERT INTO account_numbers (n, id) VALUES (1, 'acct_default');`]
  for (const [t, cols] of Object.entries(V6_OBJECTS)) {
    const target = V6_NEW.has(t) ? t : `${t}_v6`
    out.push(`CREATE TABLE ${target} (
  seq INTEGER PRIMARY KEY,
  account INTEGER NOT NULL,
  id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL,
  internal TEXT${cols.map(([c, type]) => `,\n  ${c} ${type}`).join('')},
  UNIQUE (id, account)
);`)
    if (!V6_NEW.has(t)) {
      const names = ['seq', 'id', 'created_at', 'version', 'data', 'internal', ...cols.map(([c]) => c)].join(', ')
      out.push(`INSERT INTO ${target} (account, ${names}) SELECT 1, ${names} FROM ${t} ORDER BY seq;`, `DROP TABLE ${t};`, `ALTER TABLE ${target} RENAME TO ${t};`)
    }
    // pages of a listed kind are by seq; the ledger is never listed (summed, and read by payment or day)
    if (t !== 'ledger_entries') out.push(`CREATE INDEX ${t}_account ON ${t}(account, seq);`)
    if (t !== 'deliveries') out.push(`CREATE INDEX ${t}_created ON ${t}(account, created_at);`)
    // a filter is an equality or a range, never matching a null: an object without the field costs no index entry
    for (const [c] of cols) if (!V6_UNINDEXED.has(`${t}.${c}`)) out.push(`CREATE INDEX ${t}_${c} ON ${t}(account, ${c}, seq) WHERE ${c} IS NOT NULL;`)
  }
  out.push(`CREATE INDEX ledger_entries_balance ON ledger_entries(account, currency, available_at, amount);
CREATE INDEX deliveries_due ON deliveries(account, endpoint, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE UNIQUE INDEX api_keys_secret_hash ON api_keys(secret_hash);

CREATE TABLE events_v6 (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account INTEGER NOT NULL,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  json TEXT NOT NULL,
  object_id TEXT,
  payment TEXT,
  UNIQUE (id, account)
);
INSERT INTO events_v6 (seq, account, id, type, created_at, json) SELECT seq, 1, id, type, created_at, json FROM events ORDER BY seq;
-- the log's high-water mark goes with it: a seq is never given twice (migration 5)
UPDATE sqlite_sequence SET seq = (SELECT MAX(seq) FROM sqlite_sequence WHERE name IN ('events', 'events_v6')) WHERE name = 'events_v6';
INSERT INTO sqlite_sequence (name, seq) SELECT 'events_v6', seq FROM sqlite_sequence WHERE name = 'events' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events_v6');
DROP TABLE events;
ALTER TABLE events_v6 RENAME TO events;
CREATE INDEX events_type ON events(account, type, seq);
CREATE INDEX events_created ON events(account, created_at);
CREATE INDEX events_account ON events(account, seq);
-- a story: the payment an event concerns, else its object (EventQuery.subject)
CREATE INDEX events_subject ON events(account, COALESCE(payment, object_id), seq);

CREATE TABLE jobs_v6 (
  account INTEGER NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  due_at TEXT NOT NULL,
  data TEXT,
  PRIMARY KEY (account, id)
);
INSERT INTO jobs_v6 (account, id, kind, ref, due_at, data) SELECT 1, id, kind, ref, due_at, data FROM jobs ORDER BY rowid;
DROP TABLE jobs;
ALTER TABLE jobs_v6 RENAME TO jobs;
CREATE INDEX jobs_due ON jobs(account, due_at);
CREATE INDEX jobs_ref ON jobs(account, kind, ref);

CREATE TABLE idempotency_keys_v6 (
  account INTEGER NOT NULL,
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  body_event TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (key, scope, account)
);
-- a record's scope was '<account>:<mode>'; the account is a column now, the scope its mode
INSERT INTO idempotency_keys_v6 (account, scope, key, request_hash, status, body, body_event, created_at, expires_at)
  SELECT 1, CASE WHEN instr(scope, ':') > 0 THEN substr(scope, instr(scope, ':') + 1) ELSE scope END, key, request_hash, status, body, body_event, created_at, expires_at FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v6 RENAME TO idempotency_keys;
CREATE INDEX idempotency_expires ON idempotency_keys(account, expires_at);

CREATE TABLE provider_stats_v6 (
  account INTEGER NOT NULL,
  provider TEXT NOT NULL,
  day TEXT NOT NULL,
  approved INTEGER NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (account, provider, day)
);
INSERT INTO provider_stats_v6 SELECT 1, provider, day, approved, total FROM provider_stats;
DROP TABLE provider_stats;
ALTER TABLE provider_stats_v6 RENAME TO provider_stats;

CREATE TABLE settings_v6 (
  account INTEGER NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (account, key)
);
INSERT INTO settings_v6 SELECT 1, key, value FROM settings;
DROP TABLE settings;
ALTER TABLE settings_v6 RENAME TO settings;`)
  return out.join('\n')
}

function searchKeysMigration(): string {
  const out: string[] = []
  for (const [t, cols] of Object.entries(SEARCH_KEYS_COLUMNS))
    for (const c of cols) out.push(`ALTER TABLE ${t} ADD COLUMN ${c} TEXT;`, `CREATE INDEX ${t}_${c} ON ${t}(account, ${c}, seq) WHERE ${c} IS NOT NULL;`)
  return out.join('\n')
}

/**
 * Migration 9 (docs/decisions.md#storage-per-payment): an index whose keys grow at its end takes, in a
 * group commit, one dirty leaf page per run of equal leading keys: one per account when it leads
 * with the account. Indexes on a reference to an object made at about the same time (an event's
 * deliveries, a payment's ledger entries, refunds, disputes and checkout sessions, an event's
 * subject) lead with that reference instead — ids sort by creation time, so every account's new
 * entries append at one end — and then the account: a lookup is an equality on both, a seek to
 * the account's own rows. (These columns are only ever compared for equality; a range on them
 * would cross accounts.) Deliveries lose the two indexes no query needs: they are listed by
 * endpoint or by event (the status filter applies to those few rows), and the endpoint index,
 * no longer partial (every delivery has one), serves what reads an account's deliveries whole
 * (snapshots, purges). The statements are PostgreSQL's migration 5's (tables.ts).
 */
const STORAGE_MIGRATION_SQL = `${referenceKeyedIndexes()}
DROP INDEX IF EXISTS events_subject;
CREATE INDEX events_subject ON events(COALESCE(payment, object_id), account, seq);`

/** The migration whose search columns are filled in from the stored objects, in JavaScript; its tables and columns. */
export const SEARCH_KEYS_MIGRATION = 8

/** The migration that scrubs secrets shown once from stored answers, in JavaScript. */
export const SCRUB_SECRETS_MIGRATION = 7

/** The migration whose event columns are filled in from the stored event bytes, in JavaScript. */
export const EVENT_SUBJECTS_MIGRATION = 6

/** Ordered migrations; each runs once, in its own transaction. Append only: never edit one that shipped. */
export const MIGRATIONS: readonly string[] = [
  // 1: all tables (objects as JSON documents plus TEXT filter columns)
  `CREATE TABLE payments (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, status TEXT, customer TEXT, reference TEXT, merchant TEXT
);
CREATE INDEX payments_created ON payments(created_at);
CREATE INDEX payments_status ON payments(status, seq);
CREATE INDEX payments_customer ON payments(customer, seq);
CREATE INDEX payments_reference ON payments(reference, seq);
CREATE INDEX payments_merchant ON payments(merchant, seq);

CREATE TABLE customers (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, email TEXT
);
CREATE INDEX customers_created ON customers(created_at);
CREATE INDEX customers_email ON customers(email, seq);

CREATE TABLE payment_methods (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, customer TEXT
);
CREATE INDEX payment_methods_created ON payment_methods(created_at);
CREATE INDEX payment_methods_customer ON payment_methods(customer, seq);

CREATE TABLE refunds (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, payment TEXT, status TEXT
);
CREATE INDEX refunds_created ON refunds(created_at);
CREATE INDEX refunds_payment ON refunds(payment, seq);
CREATE INDEX refunds_status ON refunds(status, seq);

CREATE TABLE disputes (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, payment TEXT, status TEXT, evidence_due_by TEXT
);
CREATE INDEX disputes_created ON disputes(created_at);
CREATE INDEX disputes_payment ON disputes(payment, seq);
CREATE INDEX disputes_status ON disputes(status, seq);
CREATE INDEX disputes_evidence_due_by ON disputes(evidence_due_by, seq);

CREATE TABLE webhook_endpoints (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, disabled TEXT
);
CREATE INDEX webhook_endpoints_created ON webhook_endpoints(created_at);
CREATE INDEX webhook_endpoints_disabled ON webhook_endpoints(disabled, seq);

CREATE TABLE deliveries (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, event TEXT, endpoint TEXT, status TEXT
);
CREATE INDEX deliveries_created ON deliveries(created_at);
CREATE INDEX deliveries_event ON deliveries(event, seq);
CREATE INDEX deliveries_endpoint ON deliveries(endpoint, seq);
CREATE INDEX deliveries_status ON deliveries(status, seq);

CREATE TABLE merchants (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, kyb_status TEXT
);
CREATE INDEX merchants_created ON merchants(created_at);
CREATE INDEX merchants_kyb_status ON merchants(kyb_status, seq);

CREATE TABLE routing_rules (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, merchant TEXT
);
CREATE INDEX routing_rules_created ON routing_rules(created_at);
CREATE INDEX routing_rules_merchant ON routing_rules(merchant, seq);

CREATE TABLE settlement_reports (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, provider TEXT, currency TEXT, date TEXT
);
CREATE INDEX settlement_reports_created ON settlement_reports(created_at);
CREATE INDEX settlement_reports_provider ON settlement_reports(provider, seq);
CREATE INDEX settlement_reports_currency ON settlement_reports(currency, seq);
CREATE INDEX settlement_reports_date ON settlement_reports(date, seq);

CREATE TABLE payouts (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, currency TEXT, status TEXT
);
CREATE INDEX payouts_created ON payouts(created_at);
CREATE INDEX payouts_currency ON payouts(currency, seq);
CREATE INDEX payouts_status ON payouts(status, seq);

CREATE TABLE ledger_entries (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  data TEXT NOT NULL, currency TEXT, payment TEXT, type TEXT
);
CREATE INDEX ledger_entries_created ON ledger_entries(created_at);
CREATE INDEX ledger_entries_currency ON ledger_entries(currency, seq);
CREATE INDEX ledger_entries_payment ON ledger_entries(payment, seq);
CREATE INDEX ledger_entries_type ON ledger_entries(type, seq);
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
  // 3: the store port (docs/decisions.md#one-unit-of-work): public JSON and internal state in their own columns (the
  // public bytes are served as they are), booleans as integers, the delivery queue on
  // next_attempt_at instead of one job row per delivery
  `${OBJECT_TABLES.map(
    (t) => `ALTER TABLE ${t} ADD COLUMN internal TEXT;
UPDATE ${t} SET internal = json_extract(data, '$._x'), data = json_remove(data, '$._x') WHERE json_type(data, '$._x') IS NOT NULL;`,
  ).join('\n')}
DROP INDEX webhook_endpoints_disabled;
ALTER TABLE webhook_endpoints RENAME COLUMN disabled TO disabled_text;
ALTER TABLE webhook_endpoints ADD COLUMN disabled INTEGER;
UPDATE webhook_endpoints SET disabled = (disabled_text = 'true');
ALTER TABLE webhook_endpoints DROP COLUMN disabled_text;
CREATE INDEX webhook_endpoints_disabled ON webhook_endpoints(disabled, seq);
ALTER TABLE deliveries ADD COLUMN next_attempt_at TEXT;
UPDATE deliveries SET next_attempt_at = json_extract(data, '$.next_attempt_at');
CREATE INDEX deliveries_due ON deliveries(endpoint, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
DELETE FROM jobs WHERE kind = 'webhook.deliver';`,
  // 4: storage per payment (docs/decisions.md#storage-per-payment): an idempotency body that is an event's data.object is kept
  // as a reference to the event; internal kinds keep only what their columns do not hold; the
  // created_at index of deliveries had no reader
  `ALTER TABLE idempotency_keys ADD COLUMN body_event TEXT;
DROP INDEX deliveries_created;`,
  // 5: an event's seq is never reused (AUTOINCREMENT): once housekeeping had purged every event,
  // rowids started again at 1 and live readers resuming after their last seq (the SSE feed)
  // skipped every new event until the old high-water mark was passed
  `CREATE TABLE events_v5 (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  json TEXT NOT NULL
);
INSERT INTO events_v5 (seq, id, type, created_at, json) SELECT seq, id, type, created_at, json FROM events ORDER BY seq;
DROP TABLE events;
ALTER TABLE events_v5 RENAME TO events;
CREATE INDEX events_type ON events(type, seq);
CREATE INDEX events_created ON events(created_at);`,
  // 6: accounts (docs/decisions.md#accounts): every row belongs to an account, every index leads with it, ids are
  // unique per account; an event's object and payment in columns (backfilled in JavaScript:
  // sqlite-store.ts); checkout sessions and chaos faults
  accountsMigration(),
  // 7: secrets at rest (docs/decisions.md#secrets-at-rest): idempotency records of answers that showed a secret once keep
  // it redacted (done in JavaScript: sqlite-store.ts; bodies may be packed)
  '',
  // 8: what a support agent searches payments by (docs/decisions.md#finding-payments): a card's last four digits, a customer's
  // email (any case), its domain, its name and family name, each a column with an index (filled
  // in from the stored objects in JavaScript: sqlite-store.ts, as every later write fills them)
  searchKeysMigration(),
  // 9: the bytes a payment writes with many accounts: see STORAGE_MIGRATION_SQL
  STORAGE_MIGRATION_SQL,
]
