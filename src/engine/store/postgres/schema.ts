import {KINDS, type FieldType, type Kind} from '../../ports/store.js'
import {TABLE} from '../sqlite/schema.js'

export {TABLE}

/** The PostgreSQL type of a typed filter field. */
export const PG_TYPE: Record<FieldType, string> = {text: 'text COLLATE "C"', int: 'bigint', bool: 'boolean', time: 'timestamptz'}

/** One object table: insertion order, id, created_at, version, public JSON (`json`: the bytes as written, keys in the API's order), internal part (`json` too: `jsonb` refuses the \\u0000 a client may send in any string), typed filter columns. */
function objectTable(kind: Kind): string {
  const t = TABLE[kind]
  const fields = Object.entries(KINDS[kind] as Record<string, FieldType>)
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

/**
 * Ordered migrations; each runs once, all pending ones in one transaction under an advisory
 * lock, so instances starting at the same moment apply them once. Append only.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: every table of the store port
  `${(Object.keys(TABLE) as Kind[]).map(objectTable).join('\n')}
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
]
