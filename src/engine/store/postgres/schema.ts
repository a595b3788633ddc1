import {type FieldType, type Kind} from '../../ports/store.js'
import {referenceKeyedIndexes, SEARCH_KEYS_COLUMNS, TABLE} from '../tables.js'
import {SHOWN_ONCE_PATTERN} from '../../domain/secrets.js'

export {TABLE}

/** The PostgreSQL type of a typed filter field. */
export const PG_TYPE: Record<FieldType, string> = {text: 'text COLLATE "C"', int: 'bigint', bool: 'boolean', time: 'timestamptz'}

/** The kinds migration 1 made tables for (frozen: later kinds come with later migrations). */
const V1_KINDS: Kind[] = ['payment', 'customer', 'payment_method', 'refund', 'dispute', 'webhook_endpoint', 'delivery', 'merchant', 'routing_rule', 'settlement_report', 'payout', 'ledger_entry']
/** Their typed columns then (frozen). */
const V1_FIELDS: Record<string, Record<string, FieldType>> = {
  payment: {status: 'text', customer: 'text', reference: 'text', merchant: 'text'},
  customer: {email: 'text'},
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
}

/** One object table: insertion order, id, created_at, version, public JSON (`json`: the bytes as written, keys in the API's order), internal part (`json` too: `jsonb` refuses the \\u0000 a client may send in any string), typed filter columns. */
function objectTable(kind: Kind): string {
  const t = TABLE[kind]
  const fields = Object.entries(V1_FIELDS[kind]!)
  const cols = fields.map(([f, type]) => `,\n  ${f} ${PG_TYPE[type]}`).join('')
  const indexes = fields.map(([f]) => `CREATE INDEX ${t}_${f} ON ${t} (${f}, seq);`)
  return `CREATE TABLE ${t} (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  version bigint NOT NULL,
  data json NOT NULL,
  internal json${cols}
);
CREATE INDEX ${t}_created ON ${t} (created_at);
${indexes.join('\n')}`
}

/** Migration 2's tables and their typed columns besides the frozen V1 kinds' (frozen). */
const V2_NEW: Record<string, [string, string][]> = {
  accounts: [],
  api_keys: [['type', 'text COLLATE "C"'], ['secret_hash', 'text COLLATE "C"']],
  checkout_sessions: [['status', 'text COLLATE "C"'], ['payment', 'text COLLATE "C"']],
  chaos_faults: [],
}
/** Typed columns (table.column) with no index of their own (another serves them). */
const V2_UNINDEXED = new Set(['deliveries.next_attempt_at', 'ledger_entries.type', 'ledger_entries.currency', 'ledger_entries.available_at', 'ledger_entries.amount', 'api_keys.secret_hash'])

function accountsMigration(): string {
  const out: string[] = []
  const indexes = (t: string, fields: string[]) => {
    // pages of a listed kind are by seq; the ledger is never listed (summed, and read by payment or day)
    if (t !== 'ledger_entries') out.push(`CREATE INDEX ${t}_account ON ${t} (account, seq);`)
    if (t !== 'deliveries') out.push(`CREATE INDEX ${t}_created ON ${t} (account, created_at);`)
    // a filter is an equality or a range, never matching a null: an object without the field costs no index entry
    for (const f of fields) if (!V2_UNINDEXED.has(`${t}.${f}`)) out.push(`CREATE INDEX ${t}_${f} ON ${t} (account, ${f}, seq) WHERE ${f} IS NOT NULL;`)
  }
  for (const kind of V1_KINDS) {
    const t = TABLE[kind]
    const fields = Object.keys(V1_FIELDS[kind]!)
    out.push(`ALTER TABLE ${t} ADD COLUMN account text COLLATE "C" NOT NULL DEFAULT 'acct_default';
ALTER TABLE ${t} ALTER COLUMN account DROP DEFAULT;
ALTER TABLE ${t} DROP CONSTRAINT ${t}_id_key;
ALTER TABLE ${t} ADD CONSTRAINT ${t}_account_id_key UNIQUE (account, id);
DROP INDEX IF EXISTS ${t}_created;`)
    for (const f of fields) out.push(`DROP INDEX IF EXISTS ${t}_${f};`)
    indexes(t, fields)
  }
  for (const [t, cols] of Object.entries(V2_NEW)) {
    out.push(`CREATE TABLE ${t} (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  created_at timestamptz NOT NULL,
  version bigint NOT NULL,
  data json NOT NULL,
  internal json${cols.map(([c, type]) => `,\n  ${c} ${type}`).join('')},
  UNIQUE (account, id)
);`)
    indexes(t, cols.map(([c]) => c))
  }
  out.push(`CREATE UNIQUE INDEX api_keys_secret_hash ON api_keys (secret_hash);
CREATE INDEX ledger_entries_balance ON ledger_entries (account, currency, available_at, amount);
DROP INDEX deliveries_due;
CREATE INDEX deliveries_due ON deliveries (account, endpoint, next_attempt_at) WHERE next_attempt_at IS NOT NULL;

ALTER TABLE events ADD COLUMN account text COLLATE "C" NOT NULL DEFAULT 'acct_default';
ALTER TABLE events ALTER COLUMN account DROP DEFAULT;
ALTER TABLE events ADD COLUMN object_id text COLLATE "C";
ALTER TABLE events ADD COLUMN payment text COLLATE "C";
UPDATE events SET object_id = (json::json #>> '{data,object,id}'),
  payment = CASE WHEN (json::json #>> '{data,object,object}') = 'payment' THEN (json::json #>> '{data,object,id}') ELSE (json::json #>> '{data,object,payment}') END;
ALTER TABLE events DROP CONSTRAINT events_id_key;
ALTER TABLE events ADD CONSTRAINT events_account_id_key UNIQUE (account, id);
DROP INDEX events_type;
DROP INDEX events_created;
CREATE INDEX events_account ON events (account, seq);
CREATE INDEX events_type ON events (account, type, seq);
CREATE INDEX events_created ON events (account, created_at);
-- a story: the payment an event concerns, else its object (EventQuery.subject)
CREATE INDEX events_subject ON events (account, (COALESCE(payment, object_id)), seq);

ALTER TABLE jobs ADD COLUMN account text COLLATE "C" NOT NULL DEFAULT 'acct_default';
ALTER TABLE jobs ALTER COLUMN account DROP DEFAULT;
ALTER TABLE jobs DROP CONSTRAINT jobs_pkey;
ALTER TABLE jobs ADD PRIMARY KEY (account, id);
DROP INDEX jobs_due;
DROP INDEX jobs_ref;
CREATE INDEX jobs_due ON jobs (account, due_at, seq);
CREATE INDEX jobs_ref ON jobs (account, kind, ref);

ALTER TABLE idempotency_keys ADD COLUMN account text COLLATE "C" NOT NULL DEFAULT 'acct_default';
ALTER TABLE idempotency_keys ALTER COLUMN account DROP DEFAULT;
-- a record's scope was '<account>:<mode>'; the account is a column now, the scope its mode
UPDATE idempotency_keys SET scope = substr(scope, strpos(scope, ':') + 1) WHERE strpos(scope, ':') > 0;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (account, scope, key);
DROP INDEX idempotency_expires;
CREATE INDEX idempotency_expires ON idempotency_keys (account, expires_at);

ALTER TABLE provider_stats ADD COLUMN account text COLLATE "C" NOT NULL DEFAULT 'acct_default';
ALTER TABLE provider_stats ALTER COLUMN account DROP DEFAULT;
ALTER TABLE provider_stats DROP CONSTRAINT provider_stats_pkey;
ALTER TABLE provider_stats ADD PRIMARY KEY (account, provider, day);

ALTER TABLE settings ADD COLUMN account text COLLATE "C" NOT NULL DEFAULT 'acct_default';
ALTER TABLE settings ALTER COLUMN account DROP DEFAULT;
ALTER TABLE settings DROP CONSTRAINT settings_pkey;
ALTER TABLE settings ADD PRIMARY KEY (account, key);

DROP FUNCTION gw_claim_idempotency(text, text);
CREATE FUNCTION gw_claim_idempotency(p_account text, p_scope text, p_key text)
RETURNS TABLE (got boolean, request_hash text, status integer, body text, created_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  ok boolean := pg_try_advisory_xact_lock(hashtextextended('i:' || p_account || E'\n' || p_scope || E'\n' || p_key, 0));
BEGIN
  RETURN QUERY SELECT ok, k.request_hash, k.status, k.body, k.created_at, k.expires_at FROM idempotency_keys k WHERE k.account = p_account AND k.scope = p_scope AND k.key = p_key;
  IF NOT FOUND THEN
    RETURN QUERY SELECT ok, NULL::text, NULL::integer, NULL::text, NULL::timestamptz, NULL::timestamptz;
  END IF;
END
$$;

-- the request log of the whole fleet (docs/decisions.md#the-fleet): every instance's entries, bounded per account by housekeeping
CREATE TABLE request_logs (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account text COLLATE "C",
  id text COLLATE "C" NOT NULL,
  entry json NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX request_logs_account ON request_logs (account, seq);`)
  return out.join('\n')
}

/** Migration 4's search columns (docs/decisions.md#finding-payments), the same as SQLite's migration 8; filled in from the stored objects in JavaScript (postgres-store.ts). */
export const SEARCH_KEYS_MIGRATION = 4
export {SEARCH_KEYS_COLUMNS}

function searchKeysMigration(): string {
  const out: string[] = []
  for (const [t, cols] of Object.entries(SEARCH_KEYS_COLUMNS))
    for (const c of cols) out.push(`ALTER TABLE ${t} ADD COLUMN ${c} ${PG_TYPE.text};`, `CREATE INDEX ${t}_${c} ON ${t} (account, ${c}, seq) WHERE ${c} IS NOT NULL;`)
  return out.join('\n')
}

/**
 * An idempotency record's body (record `r`, the event `e` joined on its body_event when its body is
 * NULL): its own, else the event's data.object; '' where the event is gone (as SQLite's read does;
 * an event outlives the records that point at it: events are kept 30 days, records 24 hours).
 * Migration 6's claim function reads it the same way.
 */
export const IDEMPOTENCY_BODY_SQL = (r: string, e: string) => `COALESCE(${r}.body, gw_data_object(${e}.json), '')`

/**
 * Ordered migrations; each runs once, all pending ones in one transaction under an advisory
 * lock, so instances starting at the same moment apply them once. Append only.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: every table of the store port
  `${V1_KINDS.map(objectTable).join('\n')}
-- the delivery queue: claims with a lease (claim_until, the database's clock)
ALTER TABLE deliveries ADD COLUMN claim text, ADD COLUMN claim_until timestamptz;
CREATE INDEX deliveries_due ON deliveries (endpoint, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX deliveries_claimed ON deliveries (claim_until) WHERE claim_until IS NOT NULL;

-- the immutable event log; seq is commit order (event_seq below), json the exact bytes served
CREATE TABLE events (
  seq bigint PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  type text COLLATE "C" NOT NULL,
  created_at timestamptz NOT NULL,
  json text NOT NULL
);
CREATE INDEX events_type ON events (type, seq);
CREATE INDEX events_created ON events (created_at);
-- one row: the last seq handed out. Updated just before a commit's events are inserted, its row
-- lock orders the commits that write events, on every instance, until they are done.
CREATE TABLE event_seq (one boolean PRIMARY KEY DEFAULT true CHECK (one), last bigint NOT NULL);
INSERT INTO event_seq (last) VALUES (0);

-- seq: the order jobs were scheduled in (jobs due at the same moment run in that order)
CREATE TABLE jobs (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id text COLLATE "C" PRIMARY KEY,
  kind text COLLATE "C" NOT NULL,
  ref text COLLATE "C" NOT NULL,
  due_at timestamptz NOT NULL,
  data json,
  claim text,
  claim_until timestamptz
);
CREATE INDEX jobs_due ON jobs (due_at, seq);
CREATE INDEX jobs_ref ON jobs (kind, ref);

CREATE TABLE idempotency_keys (
  scope text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  request_hash text NOT NULL,
  status integer NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_expires ON idempotency_keys (expires_at);

CREATE TABLE provider_stats (
  provider text COLLATE "C" NOT NULL,
  day text COLLATE "C" NOT NULL,
  approved bigint NOT NULL,
  total bigint NOT NULL,
  PRIMARY KEY (provider, day)
);

CREATE TABLE settings (
  key text COLLATE "C" PRIMARY KEY,
  value text NOT NULL
);

-- an idempotency claim in one call: a transaction-level try-lock on the key, then the record as
-- committed once the lock is taken (a volatile function's statements each see the latest commits)
CREATE FUNCTION gw_claim_idempotency(p_scope text, p_key text)
RETURNS TABLE (got boolean, request_hash text, status integer, body text, created_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  ok boolean := pg_try_advisory_xact_lock(hashtextextended('i:' || p_scope || E'\n' || p_key, 0));
BEGIN
  RETURN QUERY SELECT ok, k.request_hash, k.status, k.body, k.created_at, k.expires_at FROM idempotency_keys k WHERE k.scope = p_scope AND k.key = p_key;
  IF NOT FOUND THEN
    RETURN QUERY SELECT ok, NULL::text, NULL::integer, NULL::text, NULL::timestamptz, NULL::timestamptz;
  END IF;
END
$$;

-- token buckets: no WAL, no fsync per request; emptied by a crash of the database (all full again)
CREATE UNLOGGED TABLE rate_buckets (
  scope text COLLATE "C" PRIMARY KEY,
  tokens double precision NOT NULL,
  at timestamptz NOT NULL,
  ok boolean NOT NULL
);`,
  // 2: accounts (docs/decisions.md#accounts): every row belongs to an account (what existed: the platform account
  // acct_default's), ids are unique per account, every index leads with the account; an event's
  // object and the payment it concerns (backfilled from its JSON); idempotency scopes are the
  // account's mode; checkout sessions and chaos faults; the fleet's request log (docs/decisions.md#the-fleet)
  accountsMigration(),
  // 3: secrets at rest (docs/decisions.md#secrets-at-rest): idempotency records of answers that showed a secret once (a new
  // key, account or webhook endpoint, stored before the engine kept them redacted) keep it redacted
  `UPDATE idempotency_keys SET body = regexp_replace(body, '${SHOWN_ONCE_PATTERN}', '"\\1":"\\2…\\3"', 'g') WHERE body ~ '${SHOWN_ONCE_PATTERN}';`,
  // 4: what a support agent searches payments by (docs/decisions.md#finding-payments): a card's last four digits, a customer's
  // email (any case), its domain, its name and family name, each an indexed column
  searchKeysMigration(),
  // 5: the bytes a payment writes with many accounts (docs/decisions.md#storage-per-payment), as SQLite's migration 9: indexes on
  // a reference to an object made at about the same time (ids sort by creation time) lead with it,
  // then the account, so every account's new entries append at one end of the index rather than
  // at one end per account, and a lookup is an equality on both — a seek to the account's own rows
  // (these columns are only compared for equality). Deliveries are listed by endpoint or event:
  // their status and account indexes go, and the endpoint index (every delivery has one) is no
  // longer partial, so it serves reads of an account's deliveries whole (snapshots, purges) —
  // tables.ts referenceKeyedIndexes, shared with SQLite's migration 9.
  `${referenceKeyedIndexes()}
DROP INDEX IF EXISTS events_subject;
CREATE INDEX events_subject ON events ((COALESCE(payment, object_id)), account, seq);`,
  // 6: an idempotency body that is an event's data.object is kept as a reference to the event
  // (docs/decisions.md#storage-per-payment), as SQLite's migration 4: the body NULL, the event's id
  // in body_event (rows written before keep their bodies). The claim function gives the body back
  // either way, so an instance that has not restarted since still replays every record; the
  // snapshot and export reads resolve it the same way (reads.ts). Adding a column without a
  // default and dropping NOT NULL rewrite nothing; the CHECK is not validated against old rows
  // (they all have a body). It can run again on a database that has it (as the migration tests
  // of 4 and 5 do).
  `ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS body_event text COLLATE "C";
ALTER TABLE idempotency_keys ALTER COLUMN body DROP NOT NULL;
ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_body;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_body CHECK (body IS NOT NULL OR body_event IS NOT NULL) NOT VALID;
-- the bytes of an event's data.object (idempotency-body.ts dataObjectOf): from the envelope's first
-- "data":{"object": to the JSON's last two characters (the closing braces)
CREATE OR REPLACE FUNCTION gw_data_object(event_json text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT left(substr(event_json, strpos(event_json, '"data":{"object":') + 17), -2) $$;
CREATE OR REPLACE FUNCTION gw_claim_idempotency(p_account text, p_scope text, p_key text)
RETURNS TABLE (got boolean, request_hash text, status integer, body text, created_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  ok boolean := pg_try_advisory_xact_lock(hashtextextended('i:' || p_account || E'\n' || p_scope || E'\n' || p_key, 0));
BEGIN
  RETURN QUERY SELECT ok, k.request_hash, k.status, COALESCE(k.body, gw_data_object(e.json), ''), k.created_at, k.expires_at
    FROM idempotency_keys k LEFT JOIN events e ON k.body IS NULL AND e.account = k.account AND e.id = k.body_event
    WHERE k.account = p_account AND k.scope = p_scope AND k.key = p_key;
  IF NOT FOUND THEN
    RETURN QUERY SELECT ok, NULL::text, NULL::integer, NULL::text, NULL::timestamptz, NULL::timestamptz;
  END IF;
END
$$;`,
  // 7: idempotency claims of an instance's units batched on one connection of its own
  // (claim-batch.ts): session-level try-locks on the same keys as gw_claim_idempotency's (the two
  // exclude each other), released by the next batch; each record read after its lock, as there
  `CREATE OR REPLACE FUNCTION gw_claim_idempotency_batch(p_unlock text[], p_account text[], p_scope text[], p_key text[], p_lock boolean[])
RETURNS TABLE (n integer, got boolean, request_hash text, status integer, body text, created_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  oks boolean[] := '{}';
  u text;
BEGIN
  FOREACH u IN ARRAY p_unlock LOOP
    PERFORM pg_advisory_unlock(hashtextextended(u, 0));
  END LOOP;
  FOR i IN 1 .. coalesce(array_length(p_key, 1), 0) LOOP
    oks := oks || CASE WHEN p_lock[i] THEN pg_try_advisory_lock(hashtextextended('i:' || p_account[i] || E'\n' || p_scope[i] || E'\n' || p_key[i], 0)) ELSE false END;
  END LOOP;
  RETURN QUERY SELECT t.i::integer, oks[t.i], k.request_hash, k.status, COALESCE(k.body, gw_data_object(e.json), ''), k.created_at, k.expires_at
    FROM unnest(p_account, p_scope, p_key) WITH ORDINALITY AS t(ta, ts, tk, i)
    LEFT JOIN idempotency_keys k ON k.account = t.ta AND k.scope = t.ts AND k.key = t.tk
    LEFT JOIN events e ON k.body IS NULL AND e.account = k.account AND e.id = k.body_event;
END
$$;`,
  // 8: the batch claim's query planned for the tables as they are at each call. PL/pgSQL plans it
  // once per connection, and after five calls keeps a generic plan; the claims connection lives as
  // long as the instance, so a plan made while the tables were small (a new database: a hash join
  // over every row of idempotency_keys and events) stayed as they grew, until an ANALYZE: a call
  // took 1.5 ms, then 13.6 ms 48 s later at 1,800 payments a second, and the instance's rate fell
  // by 40 %. A custom plan (the arrays' keys against the tables' current size) is an index lookup
  // per key at any size (docs/decisions.md#several-instances-on-postgresql).
  `ALTER FUNCTION gw_claim_idempotency_batch(text[], text[], text[], text[], boolean[]) SET plan_cache_mode = force_custom_plan;`,
]

