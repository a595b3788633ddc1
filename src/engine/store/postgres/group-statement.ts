// A commit group as one statement (the committer's usual path): every insert, update, job,
// idempotency record, statistic, setting and event of the group's change sets in data-modifying
// WITH clauses, the events' seqs from the counter's row in the same statement, and the change
// notice for the other instances (pg_notify, delivered only if it commits). Without an update it
// is sent alone and commits by itself: one round trip and one WAL flush per group, however many
// change sets it holds, where a statement per table and kind (with BEGIN, the counter, the notice
// and COMMIT: nine or so round trips) made a group's cost grow as the load split into smaller
// groups across instances. With updates it runs between BEGIN and COMMIT, so that a version
// check that fails (an update that matched no row) rolls the whole group back.
//
// What one statement cannot do goes the committer's statement-by-statement way (committer.ts
// apply): a row written twice in the group (each part of one statement sees the rows as they
// were before it), deletes, completed or removed jobs, and the change sets that are committed
// alone (restores, purges, other accounts' rows).
import {type ChangeSet, type FieldType, type IdempotencyRecord, type Kind, type Put, type StatIncrement} from '../../ports/store.js'
import {COLUMNS, FIELDS} from '../columns.js'
import {bodyReference} from '../idempotency-body.js'
import {byChannel, CHANNEL, dueAt, type Notice, type Notices} from './feed.js'
import {TABLE} from './schema.js'
import {bind, pgText, rowOf} from './sql.js'

/** the most parameters one group statement binds (the protocol's limit is 65,535) */
const MAX_PARAMS = 30_000

export interface GroupStatement {
  text: string
  params: unknown[]
  /** updates in the statement: each must match one row, or the group rolls back */
  updates: number
  /** the group's events */
  events: number
  /** per account with events: how many of the group's events are up to its last one (its seq is the counter's old value plus this) */
  eventSeqs: Map<string, number>
}

type Part = {account: string; cs: ChangeSet}

/** Whether the group can be one statement (see the file's comment). */
function fits(batch: readonly Part[]): boolean {
  const written = new Set<string>()
  for (const {account, cs} of batch) {
    if (cs.restore || cs.restoreStaged || cs.purgeAccount !== undefined || cs.also || cs.deletes?.length || cs.completeJobs?.length || cs.removeJobs?.length) return false
    for (const p of cs.puts ?? []) {
      const k = `${p.kind}\n${account}\n${p.obj.id}`
      if (written.has(k)) return false
      written.add(k)
    }
  }
  return true
}

/**
 * The group's statement, or undefined when it cannot be one. `notices` gets what the group
 * touched (but the event seqs: known once it ran, from `eventSeqs`).
 */
export function groupStatement(batch: readonly Part[], instanceId: string, notices: Notices): GroupStatement | undefined {
  if (!fits(batch)) return undefined
  const params: unknown[] = []
  const p = bind(params)
  const withs: string[] = []
  // new objects, several rows per kind in one INSERT
  const inserts = new Map<Kind, {account: string; put: Put}[]>()
  const updates: string[] = []
  for (const {account, cs} of batch) {
    const n = notices.of(account)
    for (const put of cs.puts ?? []) {
      n.kinds.add(put.kind)
      if (put.expectVersion !== undefined) {
        updates.push(updateOf(account, put, p))
        continue
      }
      const l = inserts.get(put.kind)
      if (l) l.push({account, put})
      else inserts.set(put.kind, [{account, put}])
    }
  }
  for (const [kind, puts] of inserts) withs.push(insertOf(kind, puts, p))
  updates.forEach((u) => withs.push(u))
  const jobs: string[] = []
  const merged = new Merged()
  const events: {account: string; e: NonNullable<ChangeSet['events']>[number]}[] = []
  const eventSeqs = new Map<string, number>()
  for (const {account, cs} of batch) {
    const n = notices.of(account)
    for (const j of cs.addJobs ?? []) {
      jobs.push(`(${p(account)}, ${p(j.id)}, ${p(j.kind)}, ${p(j.ref)}, ${p(j.due_at)}, ${p(j.data ? JSON.stringify(j.data) : null)}::json)`)
      dueAt(n, j.due_at)
    }
    merged.add(account, cs, n)
    for (const e of cs.events ?? []) {
      events.push({account, e})
      eventSeqs.set(account, events.length)
      // (a placeholder until the statement ran: the notice says something)
      n.eventSeq = 0
    }
  }
  if (jobs.length) withs.push(`INSERT INTO jobs (account, id, kind, ref, due_at, data) VALUES ${jobs.join(', ')}`)
  for (const make of merged.statements()) withs.push(make(p))
  // the counter: its row lock orders this commit among every instance's until it is durable, so seqs are commit order
  const counter = events.length ? `s AS (UPDATE event_seq SET last = last + ${p(events.length)}::bigint RETURNING last), ` : ''
  if (events.length) {
    // every event's seq: the counter's new value less the group's count, plus its place
    const rows = events.map(({account, e}, i) => [i + 1, account, e.id, e.type, e.created_at, e.json, e.object_id == null ? null : pgText(e.object_id), e.payment == null ? null : pgText(e.payment)])
    withs.push(`INSERT INTO events (seq, account, id, type, created_at, json, object_id, payment) SELECT (SELECT last FROM s) - ${p(events.length)}::bigint + v.c0, v.c1, v.c2, v.c3, v.c4, v.c5, v.c6, v.c7 FROM ${valuesOf(rows, EVENT_TYPES, p)}`)
  }
  if (params.length > MAX_PARAMS) return undefined
  const said = notices.list()
  const select = [`${events.length ? '(SELECT last FROM s)' : 'NULL::bigint'} AS last`]
  if (updates.length) select.push(`${updates.map((_, i) => `(SELECT count(*) FROM u${i})`).join(' + ')} AS updated`)
  for (const [channel, ns] of byChannel(said)) {
    const notice = payloadSql(instanceId, ns, eventSeqs, events.length, p)
    select.push(`pg_notify(${p(notice.all ? CHANNEL : channel)}, ${notice.sql})`)
  }
  let u = 0
  const named = withs.map((w, i) => (w.startsWith('UPDATE ') ? `u${u++} AS (${w})` : `w${i} AS (${w})`))
  return {text: `WITH ${counter}${named.join(', ')} SELECT ${select.join(', ')}`, params, updates: updates.length, events: events.length, eventSeqs}
}

/** New objects of one kind, in one INSERT (valuesOf). */
function insertOf(kind: Kind, puts: readonly {account: string; put: Put}[], p: (v: unknown) => string): string {
  const cols = COLUMNS[kind]
  const rows = puts.map(({account, put}) => {
    const r = rowOf(kind, put.obj, put.json)
    return [account, put.obj.id, put.obj.created_at, r.data, r.internal, ...r.cols]
  })
  return `INSERT INTO ${TABLE[kind]} (account, id, created_at, data, internal${cols.map((x) => `, ${x}`).join('')}, version) SELECT v.*, 1 FROM ${valuesOf(rows, columnTypes(kind), p)}`
}

const EVENT_TYPES = ['bigint', 'text', 'text', 'text', 'timestamptz', 'text', 'text', 'text']
const columnTypes = (kind: Kind) => ['text', 'text', 'timestamptz', 'json', 'json', ...COLUMNS[kind].map((c) => SQL_TYPE[FIELDS[kind][c]!]!)]
const SQL_TYPE: Record<FieldType, string> = {text: 'text', int: 'bigint', bool: 'boolean', time: 'timestamptz'}

/**
 * Rows as `(VALUES …) AS v(c0, c1, …) WHERE v.c1 IS NOT NULL`, each value a parameter cast to its
 * column's type, padded with rows of NULLs (which the WHERE drops) to the next power of two: a
 * statement's text then depends on its group's size only by that power, and the committer's
 * prepared statements serve groups of every size. (Arrays per column would have kept the text
 * fixed, but node-postgres escapes every element of an array in JavaScript: the JSON of a
 * payment's rows cost the engine ~60 µs more than as plain parameters.)
 */
export function valuesOf(rows: readonly (readonly unknown[])[], types: readonly string[], p: (v: unknown) => string): string {
  const n = rows.length <= 1 ? 1 : 2 ** Math.ceil(Math.log2(rows.length))
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    const r = rows[i]
    out.push(`(${types.map((t, k) => `${p(r ? r[k] : null)}::${t}`).join(', ')})`)
  }
  return `(VALUES ${out.join(', ')}) AS v(${types.map((_, k) => `c${k}`).join(', ')}) WHERE v.c1 IS NOT NULL`
}

/** An update of one object, if its version is the one expected (RETURNING: counted by the statement). */
function updateOf(account: string, put: Put, p: (v: unknown) => string): string {
  const cols = COLUMNS[put.kind]
  const r = rowOf(put.kind, put.obj, put.json)
  // a write of a delivery ends its claim
  const claimReset = put.kind === 'delivery' ? ', claim = NULL, claim_until = NULL' : ''
  return `UPDATE ${TABLE[put.kind]} SET data = ${p(r.data)}, internal = ${p(r.internal)}, version = version + 1${cols.map((x, i) => `, ${x} = ${p(r.cols[i])}`).join('')}${claimReset} WHERE account = ${p(account)} AND id = ${p(put.obj.id)} AND version = ${p(put.expectVersion)} RETURNING 1`
}

/**
 * The NOTIFY payload (feed.ts `payload`) as an SQL expression: the accounts' event seqs are the
 * counter's old value plus their place in the group, known in the statement only.
 */
function payloadSql(instanceId: string, notices: readonly Notice[], eventSeqs: Map<string, number>, total: number, p: (v: unknown) => string): {sql: string; all?: true} {
  // the JSON of feed.ts `payload` in pieces, each account's seq between two
  const texts: string[] = []
  const seqs: number[] = []
  let text = `{"o":${JSON.stringify(instanceId)},"n":[`
  notices.forEach((n, i) => {
    text += `${i ? ',' : ''}[${JSON.stringify(n.account)},${JSON.stringify([...n.kinds])},${JSON.stringify(n.settings)},`
    const at = eventSeqs.get(n.account)
    if (at === undefined) text += 'null'
    else {
      texts.push(text)
      seqs.push(at)
      text = ''
    }
    text += `,${JSON.stringify(n.dueBy)},${(n.purged ? 1 : 0) | (n.restored ? 2 : 0)}]`
  })
  texts.push(text + ']}')
  // NOTIFY payloads are limited to 8000 bytes (a seq is at most 19 digits): too much to say means "everything may have changed"
  // (said to every instance, on CHANNEL)
  if (texts.reduce((a, x) => a + x.length, 0) + 19 * seqs.length >= 7900) return {sql: `${p(JSON.stringify({o: instanceId, all: true}))}::text`, all: true}
  const first = seqs.length ? `(SELECT last FROM s) - ${p(total)}::bigint` : ''
  return {sql: texts.map((x, i) => (i < seqs.length ? `${p(x)}::text || (${first} + ${p(seqs[i])}::bigint)::text || ` : `${p(x)}::text`)).join('')}
}

/**
 * A group's idempotency records, statistics and settings, each written by one statement (either
 * way a group is committed): the last record of a key wins, statistics of a provider and day add up.
 */
export class Merged {
  private readonly idem = new Map<string, IdempotencyRecord & {account: string; ref: string | null}>()
  private readonly stats = new Map<string, StatIncrement & {account: string}>()
  private readonly settings = new Map<string, {account: string; key: string; value: string}>()

  add(account: string, cs: ChangeSet, n: Notice): void {
    // a body that is the data.object of an event of the change set is kept as that event's id (idempotency-body.ts)
    if (cs.idempotency) this.idem.set(JSON.stringify([account, cs.idempotency.scope, cs.idempotency.key]), {...cs.idempotency, account, ref: bodyReference(cs)})
    for (const s of cs.stats ?? []) {
      const k = `${account}\n${s.provider}\n${s.day}`
      const prev = this.stats.get(k)
      this.stats.set(k, prev ? {...prev, approved: prev.approved + s.approved, total: prev.total + s.total} : {...s, account})
    }
    for (const [k, v] of Object.entries(cs.settings ?? {})) {
      this.settings.set(`${account}\n${k}`, {account, key: k, value: v})
      if (!n.settings.includes(k)) n.settings.push(k)
    }
  }

  /** The statements, each made with the parameter binder it is given. */
  statements(): ((p: (v: unknown) => string) => string)[] {
    const out: ((p: (v: unknown) => string) => string)[] = []
    const idem = [...this.idem.values()]
    if (idem.length)
      out.push(
        (p) => `INSERT INTO idempotency_keys (account, scope, key, request_hash, status, body, body_event, created_at, expires_at) SELECT v.* FROM ${valuesOf(
          idem.map((r) => [r.account, pgText(r.scope), pgText(r.key), r.request_hash, r.status, r.ref === null ? r.body : null, r.ref, r.created_at, r.expires_at]),
          ['text', 'text', 'text', 'text', 'integer', 'text', 'text', 'timestamptz', 'timestamptz'],
          p,
        )}
       ON CONFLICT (account, scope, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status, body = excluded.body, body_event = excluded.body_event, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      )
    const ss = [...this.stats.values()]
    if (ss.length)
      out.push(
        (p) => `INSERT INTO provider_stats AS p (account, provider, day, approved, total) SELECT * FROM unnest(${p(ss.map((s) => s.account))}::text[], ${p(ss.map((s) => s.provider))}::text[], ${p(ss.map((s) => s.day))}::text[], ${p(ss.map((s) => s.approved))}::bigint[], ${p(ss.map((s) => s.total))}::bigint[])
       ON CONFLICT (account, provider, day) DO UPDATE SET approved = p.approved + excluded.approved, total = p.total + excluded.total`,
      )
    const st = [...this.settings.values()]
    if (st.length)
      out.push(
        (p) =>
          `INSERT INTO settings (account, key, value) SELECT * FROM unnest(${p(st.map((s) => s.account))}::text[], ${p(st.map((s) => s.key))}::text[], ${p(st.map((s) => s.value))}::text[]) ON CONFLICT (account, key) DO UPDATE SET value = excluded.value`,
      )
    return out
  }
}
