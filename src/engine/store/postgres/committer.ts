// The committer of the PostgreSQL adapter: writes change sets in the order they are staged, in as
// few transactions as possible (every change set staged while a group commits forms the next
// group: one WAL flush for them all). A change set that breaks its group (a version conflict)
// makes the group roll back, and each is then committed alone, in order. Change sets that
// replace or delete a whole account, or write in another one, are committed alone.
import type pg from 'pg'
import {type AccountRows, type ChangeSet, type StoreCounters, RESTORED_SETTINGS_SQL, type Kind, KINDS, type Put, UNSNAPSHOTTED, VersionConflictError} from '../../ports/store.js'
import {COLUMNS} from '../columns.js'
import {dueAt, type Notice, Notices, notify} from './feed.js'
import {TABLE} from './schema.js'
import {bind, connectClient, freshCounters, isUnavailable, type PgConfig, pgText, query, rowOf, wrap} from './sql.js'
import {groupStatement, Merged} from './group-statement.js'
import {ACCOUNT_TABLES, type PgStaged, swapStaged} from './staging.js'

const MAX_BATCH = 256
const MAX_ROWS_PER_INSERT = 1000
/**
 * Group statements' texts prepared on the committer's connection, at most: a group of a shape seen
 * before (the same kinds of rows, however many) runs its prepared statement, without a parse and
 * plan of its own. Texts beyond these (an unusual mix) are sent unnamed, as every text once was.
 */
const MAX_PREPARED = 200

interface Pending {
  account: string
  cs: ChangeSet
  resolve: () => void
  reject: (e: unknown) => void
}

/** Change sets that cannot share a group: their statements must run in order with nothing batched around them. */
const alone = (cs: ChangeSet) => cs.restore !== undefined || cs.restoreStaged !== undefined || cs.purgeAccount !== undefined || cs.also !== undefined

export class Committer {
  private queue: Pending[] = []
  private running: Promise<void> | undefined
  private client: pg.Client | undefined
  /** the names of the group statements' texts prepared so far (MAX_PREPARED) */
  private readonly prepared = new Map<string, string>()
  /** commits of staged rows in progress, each on a connection of its own (see aside) */
  private readonly asides = new Set<Promise<void>>()

  constructor(
    private readonly config: PgConfig,
    private readonly instanceId: string,
    /** called once a group is durable, with what it touched */
    private readonly durable: (notices: Notice[]) => void,
    private readonly counts: StoreCounters = freshCounters(),
  ) {}

  enqueue(account: string, cs: ChangeSet): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({account, cs, resolve, reject})
      this.running ??= new Promise<void>((r) => setImmediate(r)).then(() => this.loop())
    })
  }

  private async loop(): Promise<void> {
    try {
      while (this.queue.length) {
        // a change set that must be alone ends the group before it, and is a group of its own
        let n = Math.min(MAX_BATCH, this.queue.length)
        const special = this.queue.slice(0, n).findIndex((p) => alone(p.cs))
        if (special === 0 && this.queue[0]!.cs.restoreStaged) {
          this.aside(this.queue.shift()!)
          continue
        }
        if (special === 0) n = 1
        else if (special > 0) n = special
        await this.commitGroup(this.queue.splice(0, n))
      }
    } finally {
      this.running = undefined
      if (this.queue.length) this.running = this.loop()
    }
  }

  async drain(): Promise<void> {
    while (this.running || this.asides.size) await Promise.all([this.running, ...this.asides])
  }

  /**
   * Commits staged rows in place of an account's (a large snapshot, docs/decisions.md#large-snapshots) on a connection of
   * its own: the swap writes every staged row once more, and the group commits of every other
   * account go on meanwhile instead of waiting behind it. A commit of the same account racing it
   * lands before or after it, as with any two commits.
   */
  private aside(p: Pending): void {
    const run = (async () => {
      let c: pg.Client
      try {
        c = await connectClient(this.config)
      } catch (e) {
        return p.reject(e)
      }
      const notices = new Notices()
      try {
        await query(c, 'BEGIN')
        await apply(c, [p], notices)
        await notify(c, this.instanceId, notices.list())
        await query(c, 'COMMIT')
      } catch (e) {
        if (!isUnavailable(e)) await c.query('ROLLBACK').catch(() => {})
        return p.reject(isUnavailable(e) ? wrap(e) : e)
      } finally {
        void c.end().catch(() => {})
      }
      const staged = p.cs.restoreStaged as PgStaged
      staged.state = 'swapped'
      staged.release()
      p.resolve()
      this.durable(notices.list())
    })()
    this.asides.add(run)
    void run.finally(() => this.asides.delete(run))
  }

  async end(): Promise<void> {
    const c = this.client
    this.client = undefined
    await c?.end()
  }

  private readonly forget = (c: pg.Client) => {
    if (this.client === c) this.client = undefined
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client
    const c = await connectClient(this.config, this.forget)
    this.client = c
    return c
  }

  private drop(c: pg.Client): void {
    if (this.client === c) this.client = undefined
    void c.end().catch(() => {})
  }

  /** The name a group statement's text is prepared under on the committer's connection, if it has one (MAX_PREPARED). */
  private nameOf(text: string): string | undefined {
    let name = this.prepared.get(text)
    if (name === undefined && this.prepared.size < MAX_PREPARED) this.prepared.set(text, (name = `gw_group_${this.prepared.size}`))
    return name
  }

  /** `statementwise`: the group's statements one by one (apply), not as one (group-statement.ts) */
  private async commitGroup(batch: Pending[], statementwise = false): Promise<void> {
    let c: pg.Client
    try {
      c = await this.connection()
    } catch (e) {
      for (const p of batch) p.reject(wrap(e))
      return
    }
    const notices = new Notices()
    const one = statementwise ? undefined : groupStatement(batch, this.instanceId, notices)
    let open = false
    try {
      try {
        if (one) {
          // alone, the statement commits by itself; with updates, their version checks decide between COMMIT and ROLLBACK
          if (one.updates) await query(c, 'BEGIN')
          open = one.updates > 0
          const r = (await query<{last: number | null; updated?: number}>(c, {name: this.nameOf(one.text), text: one.text, values: one.params})).rows[0]!
          if (one.updates && r.updated !== one.updates) throw new Error('an update of the group found its object changed')
          if (open) await query(c, 'COMMIT')
          open = false
          for (const [account, at] of one.eventSeqs) notices.of(account).eventSeq = r.last! - one.events + at
        } else {
          open = true
          await query(c, 'BEGIN')
          await apply(c, batch, notices)
          await notify(c, this.instanceId, notices.list())
          await query(c, 'COMMIT')
          open = false
        }
      } catch (e) {
        if (open && !isUnavailable(e)) await c.query('ROLLBACK').catch(() => this.drop(c))
        throw e
      }
    } catch (e) {
      if (isUnavailable(e)) {
        // the outcome of a COMMIT cut off is unknown: the requests get 503 and are retried with their keys
        this.drop(c)
        for (const p of batch) p.reject(wrap(e))
        return
      }
      // a change set broke the group (or its statement): each alone, statement by statement, which names what failed
      if (batch.length === 1 && !one) return batch[0]!.reject(e)
      for (const p of batch) await this.commitGroup([p], true)
      return
    }
    this.counts.commitGroups++
    this.counts.committedChangeSets += batch.length
    for (const p of batch) p.resolve()
    this.durable(notices.list())
  }
}

/** Writes a group's change sets in order; throws (and the caller rolls back) on any conflict. */
async function apply(c: pg.Client, batch: Pending[], notices: Notices): Promise<void> {
  const q = (text: string, params?: unknown[]) => query(c, text, params)
  // a change set alone in its group: its whole-account parts first, in order
  for (const {account, cs} of batch) {
    if (cs.purgeAccount !== undefined) {
      if (cs.purgeAccount === account) throw new Error('an account cannot purge itself: the platform account deletes accounts')
      for (const t of ACCOUNT_TABLES) await q(`DELETE FROM ${t} WHERE account = $1`, [cs.purgeAccount])
      notices.of(cs.purgeAccount).purged = true
    }
    if (cs.restore) await restore(q, account, cs.restore, notices.of(account))
    if (cs.restoreStaged) await swapStaged(q, account, cs.restoreStaged as PgStaged, notices.of(account))
  }
  // new objects next, several rows per statement (ids are new: no change set of the group can depend on another's insert)
  const inserts = new Map<Kind, {account: string; put: Put}[]>()
  const addInsert = (account: string, p: Put) => {
    const l = inserts.get(p.kind)
    if (l) l.push({account, put: p})
    else inserts.set(p.kind, [{account, put: p}])
  }
  for (const {account, cs} of batch) {
    for (const p of cs.puts ?? []) if (p.expectVersion === undefined) addInsert(account, p)
    for (const o of cs.also ?? []) {
      if (o.account === account || o.changes.also || o.changes.events || o.changes.idempotency || o.changes.purgeAccount || o.changes.restore)
        throw new Error("a nested change set writes another account's objects, jobs, statistics and settings only")
      for (const p of o.changes.puts ?? []) if (p.expectVersion === undefined) addInsert(o.account, p)
    }
  }
  for (const [kind, puts] of inserts) {
    const cols = COLUMNS[kind]
    const width = 5 + cols.length
    for (let i = 0; i < puts.length; i += MAX_ROWS_PER_INSERT) {
      const chunk = puts.slice(i, i + MAX_ROWS_PER_INSERT)
      const params: unknown[] = []
      const values = chunk.map(({account, put}, j) => {
        const r = rowOf(kind, put.obj, put.json)
        params.push(account, put.obj.id, put.obj.created_at, r.data, r.internal, ...r.cols)
        notices.of(account).kinds.add(kind)
        return `(${Array.from({length: width}, (_, k) => `$${j * width + k + 1}`).join(', ')}, 1)`
      })
      await q(`INSERT INTO ${TABLE[kind]} (account, id, created_at, data, internal${cols.map((x) => `, ${x}`).join('')}, version) VALUES ${values.join(', ')}`, params)
    }
  }
  const merged = new Merged()
  const events: {account: string; id: string; type: string; created_at: string; json: string; object_id?: string | null; payment?: string | null}[] = []
  const rest = (account: string, cs: ChangeSet) => ({account, cs})
  const parts = batch.flatMap(({account, cs}) => [rest(account, cs), ...(cs.also ?? []).map((o) => rest(o.account, o.changes))])
  for (const {account, cs} of parts) {
    const n = notices.of(account)
    for (const p of cs.puts ?? []) {
      if (p.expectVersion === undefined) continue
      const cols = COLUMNS[p.kind]
      const r = rowOf(p.kind, p.obj, p.json)
      // a write of a delivery ends its claim
      const claimReset = p.kind === 'delivery' ? ', claim = NULL, claim_until = NULL' : ''
      const res = await q(
        `UPDATE ${TABLE[p.kind]} SET data = $1, internal = $2, version = version + 1${cols.map((x, i) => `, ${x} = $${i + 3}`).join('')}${claimReset} WHERE account = $${cols.length + 3} AND id = $${cols.length + 4} AND version = $${cols.length + 5}`,
        [r.data, r.internal, ...r.cols, account, p.obj.id, p.expectVersion],
      )
      if (res.rowCount !== 1) throw new VersionConflictError(p.kind, p.obj.id)
      n.kinds.add(p.kind)
    }
    for (const d of cs.deletes ?? []) {
      await q(`DELETE FROM ${TABLE[d.kind]} WHERE account = $1 AND id = $2`, [account, d.id])
      n.kinds.add(d.kind)
    }
    for (const j of cs.completeJobs ?? []) {
      // removed meanwhile (removeJobs by another unit): done all the same; claimed by someone else since: lost
      const res = await query<{lost: number}>(
        c,
        'WITH d AS (DELETE FROM jobs WHERE account = $1 AND id = $2 AND claim = $3 RETURNING 1) SELECT count(*) AS lost FROM jobs WHERE account = $1 AND id = $2 AND claim IS DISTINCT FROM $3 AND NOT EXISTS (SELECT 1 FROM d)',
        [account, j.id, j.claim],
      )
      if (res.rows[0]!.lost > 0) throw new VersionConflictError('job', j.id)
    }
    for (const j of cs.removeJobs ?? []) await q('DELETE FROM jobs WHERE account = $1 AND kind = $2 AND ref = $3', [account, j.kind, j.ref])
    if (cs.addJobs?.length) {
      const params: unknown[] = []
      const values = cs.addJobs.map((j, i) => {
        params.push(account, j.id, j.kind, j.ref, j.due_at, j.data ? JSON.stringify(j.data) : null)
        dueAt(n, j.due_at)
        return `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, $${i * 6 + 6}::json)`
      })
      await q(`INSERT INTO jobs (account, id, kind, ref, due_at, data) VALUES ${values.join(', ')}`, params)
    }
    merged.add(account, cs, n)
    for (const e of cs.events ?? []) events.push({...e, account})
  }
  for (const make of merged.statements()) {
    const params: unknown[] = []
    await q(make(bind(params)), params)
  }
  if (events.length) await insertEvents(q, events, notices)
}

/**
 * Events last: from here to COMMIT the counter's row lock orders this commit among every
 * instance's, so seqs are commit order and readers never see a gap fill in later.
 */
async function insertEvents(
  q: (text: string, params?: unknown[]) => Promise<pg.QueryResult>,
  events: {account: string; id: string; type: string; created_at: string; json: string; object_id?: string | null; payment?: string | null}[],
  notices: Notices,
): Promise<void> {
  const last = (await q('UPDATE event_seq SET last = last + $1 RETURNING last', [events.length])).rows[0].last as number
  const first = last - events.length + 1
  for (let i = 0; i < events.length; i += MAX_ROWS_PER_INSERT) {
    const chunk = events.slice(i, i + MAX_ROWS_PER_INSERT)
    const params: unknown[] = []
    const values = chunk.map((e, j) => {
      params.push(first + i + j, e.account, e.id, e.type, e.created_at, e.json, e.object_id === undefined || e.object_id === null ? null : pgText(e.object_id), e.payment === undefined || e.payment === null ? null : pgText(e.payment))
      notices.of(e.account).eventSeq = first + i + j
      return `(${Array.from({length: 8}, (_, k) => `$${j * 8 + k + 1}`).join(', ')})`
    })
    await q(`INSERT INTO events (seq, account, id, type, created_at, json, object_id, payment) VALUES ${values.join(', ')}`, params)
  }
}

/** Replaces an account's rows (but its keys and account objects) with a snapshot's, several rows per statement. */
async function restore(q: (text: string, params?: unknown[]) => Promise<pg.QueryResult>, account: string, rows: AccountRows, n: Notice): Promise<void> {
  const keep = new Set([...UNSNAPSHOTTED].map((k) => TABLE[k]))
  for (const t of ACCOUNT_TABLES) if (!keep.has(t)) await q(`DELETE FROM ${t} WHERE account = $1${t === 'settings' ? ` AND ${RESTORED_SETTINGS_SQL}` : ''}`, [account])
  await insertAccountRows(q, account, {...rows, objects: rows.objects.filter((o) => !UNSNAPSHOTTED.has(o.kind))}, n)
  for (const k of Object.keys(KINDS) as Kind[]) if (!UNSNAPSHOTTED.has(k)) n.kinds.add(k)
  n.restored = true
}

/** Inserts an account's rows, several per statement (a snapshot restored, a SQLite data dir imported); events get new seqs, in order. */
export async function insertAccountRows(q: (text: string, params?: unknown[]) => Promise<pg.QueryResult>, account: string, rows: AccountRows, n: Notice): Promise<void> {
  const byKind = new Map<Kind, AccountRows['objects']>()
  for (const o of rows.objects) {
    const l = byKind.get(o.kind)
    if (l) l.push(o)
    else byKind.set(o.kind, [o])
  }
  for (const [kind, objs] of byKind) {
    const cols = COLUMNS[kind]
    const width = 6 + cols.length
    for (let i = 0; i < objs.length; i += MAX_ROWS_PER_INSERT) {
      const params: unknown[] = []
      const values = objs.slice(i, i + MAX_ROWS_PER_INSERT).map((o, j) => {
        const r = rowOf(kind, o.obj)
        params.push(account, o.obj.id, o.obj.created_at, r.data, r.internal, o.version, ...r.cols)
        return `(${Array.from({length: width}, (_, k) => `$${j * width + k + 1}`).join(', ')})`
      })
      await q(`INSERT INTO ${TABLE[kind]} (account, id, created_at, data, internal, version${cols.map((x) => `, ${x}`).join('')}) VALUES ${values.join(', ')}`, params)
    }
  }
  const notices = new Notices()
  if (rows.events.length) await insertEvents(q, rows.events.map((e) => ({...e, account})), notices)
  n.eventSeq = notices.of(account).eventSeq
  if (rows.jobs.length) {
    const js = rows.jobs
    await q('INSERT INTO jobs (account, id, kind, ref, due_at, data) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::json[])', [
      account,
      js.map((j) => j.id),
      js.map((j) => j.kind),
      js.map((j) => j.ref),
      js.map((j) => j.due_at),
      js.map((j) => (j.data ? JSON.stringify(j.data) : null)),
    ])
    for (const j of js) dueAt(n, j.due_at)
  }
  if (rows.idempotency.length) {
    const rs = rows.idempotency
    await q('INSERT INTO idempotency_keys (account, scope, key, request_hash, status, body, created_at, expires_at) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::timestamptz[], $8::timestamptz[])', [
      account,
      rs.map((r) => pgText(r.scope)),
      rs.map((r) => pgText(r.key)),
      rs.map((r) => r.request_hash),
      rs.map((r) => r.status),
      rs.map((r) => r.body),
      rs.map((r) => r.created_at),
      rs.map((r) => r.expires_at),
    ])
  }
  if (rows.stats.length)
    await q('INSERT INTO provider_stats (account, provider, day, approved, total) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[])', [
      account,
      rows.stats.map((s) => s.provider),
      rows.stats.map((s) => s.day),
      rows.stats.map((s) => s.approved),
      rows.stats.map((s) => s.total),
    ])
  const keys = Object.keys(rows.settings)
  if (keys.length) await q('INSERT INTO settings (account, key, value) SELECT $1, * FROM unnest($2::text[], $3::text[])', [account, keys, keys.map((k) => rows.settings[k]!)])
  n.settings.push(...keys)
}
