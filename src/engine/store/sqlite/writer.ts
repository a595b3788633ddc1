// The SQLite writer: one connection that writes, on a worker thread, so the event loop never
// waits for SQLite's B-tree work or the disk. It receives batches of change sets already
// compiled into statements with their parameters (strings and numbers: cheap to pass between
// threads; a statement's text crosses once, then its number), joins every batch waiting for it
// into one transaction (a failing change set rolls back alone: see write below), and commits
// with synchronous=FULL for 'full' durability: the fsync blocks this thread only. It answers
// per change set: written, or why not.
//
// Between the threads a batch travels as one flat array of strings and numbers (see encode
// below), not as objects: the structured clone writes every property name of every object, and
// a payment is ~12 statements, so objects cost the event loop about twice as much to send.
import type {Worker} from 'node:worker_threads'
import type {Database as Db, Statement} from 'better-sqlite3'
import {type Kind, VersionConflictError} from '../../ports/store.js'
import {CURRENT, DICTIONARIES, pack, PACK_MIN, ZSTD_PARAMETERS} from './codec.js'
import {giveBackWriterThread, takeWriterThread} from './writer-pool.js'

/** One statement: SQL, parameters, and what its result must be. */
export interface Op {
  /** the statement; its text crosses to the writer thread once, after that its number */
  sql: string
  params: unknown[]
  /** 'one': it must change exactly one row, else the change set fails with a version conflict on (kind, id); 'seq': report its rowid (an event's seq) */
  check?: 'one' | 'seq'
  kind?: string
  id?: string
  /** parameters (JSON text) to store packed (codec.ts), by index */
  pack?: number[]
  /**
   * An update of an object's row whose typed columns are set only where they change (see
   * Narrow): its parameters are the data, the internal state, the typed columns' values, then
   * id, expected version and account, as `sql` (the update of every column) takes them. A
   * statement's text crosses once, with its narrowing: every op of one text has the same.
   */
  narrow?: Narrow
}

/**
 * SQLite deletes and re-inserts an index's entry whenever an UPDATE sets a column of the index,
 * even to the value it holds: the entry's page is written to the WAL and checkpointed again. A
 * delivery attempt or a refund rewrote every index on an object's typed columns (an event's
 * deliveries, an endpoint's, a payment's reference, status and search keys), each entry on an
 * old page: with ten accounts, ~1.7 pages of the ~22 a payment writes. So the writer reads the
 * row's typed columns (one seek, on pages the update reads anyway) and sets only those that
 * differ; an unchanged index is not touched.
 */
export interface Narrow {
  table: string
  columns: readonly string[]
}

type ChangeError = {name: string; message: string; code?: string; kind?: string; id?: string}
export type ChangeResult = {ok: true; seq: number | null} | {ok: false; error: ChangeError}

const CHECK = {one: 1, seq: 2} as const

/**
 * A batch as the flat array the writer thread decodes (writer-thread.mjs's decode): per change set, its
 * number of statements, then per statement its number (`define` is told the text of one not
 * seen before), flags, its number of parameters, the mask of those to pack, kind and id when a
 * check needs them, and the parameters.
 */
export function encode(batch: Op[][], statements: Map<string, number>, define: (q: number, sql: string, narrow?: Narrow) => void): unknown[] {
  const flat: unknown[] = []
  for (const ops of batch) {
    flat.push(ops.length)
    for (const op of ops) {
      let q = statements.get(op.sql)
      if (q === undefined) {
        statements.set(op.sql, (q = statements.size))
        define(q, op.sql, op.narrow)
      }
      let mask = 0
      if (op.pack) for (const i of op.pack) mask |= 1 << i
      const named = op.check === 'one'
      flat.push(q, (op.check ? CHECK[op.check] : 0) | (named ? 4 : 0), op.params.length, mask)
      if (named) flat.push(op.kind, op.id)
      for (const p of op.params) flat.push(p)
    }
  }
  return flat
}

/** The writer thread of one database file. */
export class Writer {
  private readonly worker: Worker
  private next = 0
  private readonly waiting = new Map<number, {size: number; done: (r: ChangeResult[]) => void}>()
  private failed: Error | undefined
  private closing = false
  /** resolves close's wait for the thread's 'closed' */
  private closedDb: (() => void) | undefined
  private readonly statements = new Map<string, number>()
  /** transactions written (each holds one or more batches) */
  transactions = 0

  constructor(path: string, durability: 'full' | 'normal') {
    const codec = {version: CURRENT, min: PACK_MIN, parameters: ZSTD_PARAMETERS, dictionary: new Uint8Array(DICTIONARIES[CURRENT]!)}
    // a thread of the pool (writer-pool.ts) when one waits, else a new one
    this.worker = takeWriterThread({path, durability, codec})
    // 'closed': the thread closed its database (close below); otherwise the answer: per message, its id, its number of change sets (-2: all failed with the error
    // that follows), then per change set the event seq it wrote (-1: none) or why it failed
    this.worker.on('message', (a: (number | ChangeError)[] | 'closed') => {
      if (a === 'closed') return this.closedDb?.()
      this.transactions++
      for (let i = 0; i < a.length; ) {
        const id = a[i] as number
        const n = a[i + 1] as number
        i += 2
        const w = this.waiting.get(id)
        this.waiting.delete(id)
        let results: ChangeResult[]
        if (n === -2) {
          const error = a[i++] as ChangeError
          results = Array.from({length: w?.size ?? 0}, () => ({ok: false, error}))
        } else {
          results = new Array<ChangeResult>(n)
          for (let k = 0; k < n; k++) {
            const r = a[i++]!
            results[k] = typeof r === 'number' ? {ok: true, seq: r < 0 ? null : r} : {ok: false, error: r}
          }
        }
        w?.done(results)
      }
    })
    this.worker.on('error', (e) => this.fail(e))
    // an exit that close() did not ask for, whatever its code, fails what is waiting and all later writes
    this.worker.on('exit', (code) => this.closing || this.fail(new Error(`the SQLite writer thread exited with code ${code}`)))
  }

  private fail(e: Error): void {
    this.failed = e
    for (const [id, w] of this.waiting) {
      this.waiting.delete(id)
      w.done(Array.from({length: w.size}, () => ({ok: false, error: {name: 'Error', message: `SQLite writer: ${e.message}`}})))
    }
  }

  /** Writes a batch of change sets (each a list of statements) in one durable transaction; `relaxed`: durable with the next durable one (staging.ts). */
  write(batch: Op[][], relaxed = false): Promise<ChangeResult[]> {
    // (after close the thread may be another store's: nothing more goes to it)
    const refused = this.failed?.message ?? (this.closing ? 'the store is closed' : undefined)
    if (refused !== undefined) return Promise.resolve(batch.map(() => ({ok: false, error: {name: 'Error', message: `SQLite writer: ${refused}`}})))
    const id = this.next++
    const defs: (number | string)[] = []
    // a narrowing update's statement: its number, table and typed columns (writer-thread.mjs builds its reads and updates)
    const narrows: (number | string | readonly string[])[] = []
    const msg = {id, defs, narrows, flat: encode(batch, this.statements, (q, sql, n) => (defs.push(q, sql), n && narrows.push(q, n.table, n.columns))), relaxed}
    return new Promise((resolve) => {
      this.waiting.set(id, {size: batch.length, done: resolve})
      this.worker.postMessage(msg)
    })
  }

  /**
   * Closes the database (every write sent before has been answered by then) and gives the thread
   * back to the pool, unless it failed or exited: then it is ended or gone, and never reused.
   */
  async close(): Promise<void> {
    if (this.closing) return
    this.closing = true
    if (this.failed) {
      await this.worker.terminate()
      return
    }
    const closed = await new Promise<boolean>((resolve) => {
      this.closedDb = () => resolve(true)
      this.worker.once('exit', () => resolve(false))
      this.worker.postMessage('close')
    })
    if (closed && !this.failed) giveBackWriterThread(this.worker)
    else await this.worker.terminate()
  }
}

/** The in-memory database's writer (it has no second connection): the same statements, in this thread (savepoints cost nothing on disk there). */
export function writeHere(s: {readonly db: Db; stmt(sql: string): Statement}, batch: Op[][]): ChangeResult[] {
  const db = s.db
  const results: ChangeResult[] = []
  db.exec('BEGIN IMMEDIATE')
  for (const ops of batch) {
    db.exec('SAVEPOINT cs')
    try {
      let seq: number | null = null
      for (const op of ops) {
        if (op.pack) for (const i of op.pack) op.params[i] = pack(op.params[i] as string)
        const r = s.stmt(op.sql).run(op.params)
        if (op.check === 'one' && r.changes !== 1) throw new VersionConflictError(op.kind as Kind, op.id!)
        if (op.check === 'seq') seq = Number(r.lastInsertRowid)
      }
      db.exec('RELEASE cs')
      results.push({ok: true, seq})
    } catch (e) {
      db.exec('ROLLBACK TO cs')
      db.exec('RELEASE cs')
      const err = e as VersionConflictError & {code?: string}
      results.push({ok: false, error: {name: err.name, message: err.message, code: err.code, kind: err.kind, id: err.id}})
    }
  }
  db.exec('COMMIT')
  return results
}

/** An error reported by the writer, as the error it was. */
export function restore(e: ChangeError): Error {
  if (e.name === 'VersionConflictError') return new VersionConflictError(e.kind as Kind | 'job' | 'idempotency_key', e.id!)
  return Object.assign(new Error(e.message), {name: e.name === 'SqliteError' ? 'SqliteError' : e.name, code: e.code})
}
