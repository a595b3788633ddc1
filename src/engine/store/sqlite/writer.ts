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
import {createRequire} from 'node:module'
import {Worker} from 'node:worker_threads'
import {CURRENT, DICTIONARIES, PACK_MIN, ZSTD_PARAMETERS} from './codec.js'

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
}

type ChangeError = {name: string; message: string; code?: string; kind?: string; id?: string}
export type ChangeResult = {ok: true; seq: number | null} | {ok: false; error: ChangeError}

const CHECK = {one: 1, seq: 2} as const

/**
 * A batch as the flat array the writer thread decodes (SOURCE's decode): per change set, its
 * number of statements, then per statement its number (`define` is told the text of one not
 * seen before), flags, its number of parameters, the mask of those to pack, kind and id when a
 * check needs them, and the parameters.
 */
export function encode(batch: Op[][], statements: Map<string, number>, define: (q: number, sql: string) => void): unknown[] {
  const flat: unknown[] = []
  for (const ops of batch) {
    flat.push(ops.length)
    for (const op of ops) {
      let q = statements.get(op.sql)
      if (q === undefined) {
        statements.set(op.sql, (q = statements.size))
        define(q, op.sql)
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

// CommonJS source: the worker needs nothing but better-sqlite3 and zstd-napi, and runs without the build's ESM.
const SOURCE = `
const {parentPort, workerData} = require('node:worker_threads')
const {Compressor} = require(workerData.codec.module)
const Database = require(workerData.module)
// codec.ts's pack (format 2), with its constants: one compression context, its dictionary loaded once
const compressor = new Compressor()
compressor.setParameters(workerData.codec.parameters)
compressor.loadDictionary(workerData.codec.dictionary)
const pack = (value) => {
  if (typeof value !== 'string' || value.length < workerData.codec.min) return value
  const z = compressor.compress(Buffer.from(value, 'utf8'))
  const out = Buffer.allocUnsafe(z.length + 1)
  out[0] = workerData.codec.version
  z.copy(out, 1)
  return out
}
const db = new Database(workerData.path, {fileMustExist: true})
db.pragma('journal_mode = WAL')
db.pragma('synchronous = ' + (workerData.durability === 'normal' ? 'NORMAL' : 'FULL'))
db.pragma('busy_timeout = 5000')
db.pragma('foreign_keys = ON')
// a statement journal, when a statement needs one, in memory rather than a temporary file
db.pragma('temp_store = MEMORY')
// checkpoints: this connection's automatic one, less often; the store's checkpointer copies pages meanwhile
db.pragma('wal_autocheckpoint = 10000')
// what a write replaces or deletes is zeroed in its page where that costs no I/O of its own: a
// row rewritten without a secret (issue 33: sealed at start) leaves no copy of it in the page
db.pragma('secure_delete = FAST')
// statements by number: an op carries its SQL the first time the number is used, and a batch's
// new statements are prepared before any of it runs (a change set that fails part-way may hold
// the text of a statement that later ones use by number)
const stmts = []
// a message: {id, defs: [q, sql, ...], flat} where flat is, per change set, its number of
// statements, then per statement: q, flags (bits 0-1: 0 none, 1 'one', 2 'seq'; bit 2 on: kind
// and id follow), the number of parameters, a bit mask of those to pack, kind, id, the parameters
const decode = (m) => {
  const defs = m.defs
  // a statement that cannot be prepared (an engine bug) fails the change sets that use it, not the batch
  for (let i = 0; i < defs.length; i += 2) {
    if (stmts[defs[i]] !== undefined) continue
    try {
      stmts[defs[i]] = db.prepare(defs[i + 1])
    } catch (e) {
      stmts[defs[i]] = {run() { throw e }}
    }
  }
  const f = m.flat
  const sets = []
  let i = 0
  while (i < f.length) {
    const n = f[i++]
    const ops = new Array(n)
    for (let k = 0; k < n; k++) {
      const q = f[i], flags = f[i + 1], np = f[i + 2], mask = f[i + 3]
      i += 4
      let kind, id
      if (flags & 4) {
        kind = f[i]
        id = f[i + 1]
        i += 2
      }
      const params = f.slice(i, i + np)
      i += np
      // packed once: a batch written again reuses the packed values
      if (mask) for (let b = 0; b < np; b++) if (mask & (1 << b)) params[b] = pack(params[b])
      ops[k] = {stmt: stmts[q], check: flags & 3, kind, id, params}
    }
    sets.push(ops)
  }
  return sets
}
const begin = db.prepare('BEGIN IMMEDIATE')
const commit = db.prepare('COMMIT')
const rollback = db.prepare('ROLLBACK')
class Conflict extends Error {
  constructor(kind, id) {
    super(kind + ' ' + id + ' was changed concurrently')
    this.name = 'VersionConflictError'
    this.kind = kind
    this.id = id
  }
}
// A change set that fails (a version conflict, a constraint) is rare: locks in the engine keep
// writers of one object apart. So a batch is written plainly, all change sets in one
// transaction, without savepoints; when one fails, the transaction is rolled back and the batch
// written again without it — the change sets before it run as before, those after it as if it
// had never been, as a savepoint per change set would have it. (A savepoint per change set made
// SQLite copy each page it touched into a statement journal: ~25 pages per payment, 100 KB of
// copying and write calls for nothing.)
const runOps = (ops) => {
  let seq = -1
  for (const op of ops) {
    const r = op.stmt.run(op.params)
    if (op.check === 1 && r.changes !== 1) throw new Conflict(op.kind, op.id)
    if (op.check === 2) seq = Number(r.lastInsertRowid)
  }
  return seq
}
const errorOf = (e) => ({name: e.name, message: e.message, code: e.code, kind: e.kind, id: e.id})
const write = (batch) => {
  const results = new Array(batch.length)
  let todo = batch.map((_, i) => i)
  while (todo.length > 0) {
    let failed = -1
    begin.run()
    for (const i of todo) {
      try {
        results[i] = runOps(batch[i])
      } catch (e) {
        failed = i
        results[i] = errorOf(e)
        break
      }
    }
    if (failed < 0) {
      commit.run()
      break
    }
    rollback.run()
    todo = todo.filter((i) => i !== failed)
  }
  return results
}
// Every batch that reached this thread while it was writing joins the next transaction: the
// messages waiting on the port are taken at once (group commit here, so the thread never waits
// for the event loop to send the next batch), and the answers go back in one message.
const {receiveMessageOnPort} = require('node:worker_threads')
const close = () => {
  db.close()
  parentPort.close()
}
parentPort.on('message', (m) => {
  if (m === 'close') return close()
  const msgs = [m]
  let closing = false
  for (;;) {
    const r = receiveMessageOnPort(parentPort)
    if (!r) break
    if (r.message === 'close') {
      closing = true
      break
    }
    msgs.push(r.message)
  }
  // the answer: per message, its id, its number of change sets, then per change set the event
  // seq it wrote (-1 if none) or, if it failed, the error
  const answer = []
  let results
  try {
    const sizes = []
    let batch = []
    for (const x of msgs) {
      const sets = decode(x)
      sizes.push(sets.length)
      batch = batch.length === 0 ? sets : batch.concat(sets)
    }
    // batches that need no fsync of their own (rows staged ahead of a swap, rows nobody has being
    // deleted) are written without one when nothing else joins them: the swap's fsync makes the
    // staged rows durable with it, and a crash before it leaves rows the next start deletes
    const relaxed = workerData.durability !== 'normal' && msgs.every((x) => x.relaxed === true)
    if (relaxed) db.pragma('synchronous = NORMAL')
    try {
      results = write(batch)
    } finally {
      if (relaxed) db.pragma('synchronous = FULL')
    }
    let at = 0
    for (let j = 0; j < msgs.length; j++) {
      answer.push(msgs[j].id, sizes[j])
      for (let k = 0; k < sizes[j]; k++) answer.push(results[at++])
    }
  } catch (e) {
    if (db.inTransaction) rollback.run()
    const error = {name: e.name, message: e.message, code: e.code}
    answer.length = 0
    for (const x of msgs) answer.push(x.id, -2, error)
  }
  parentPort.postMessage(answer)
  if (closing) close()
})
`

/** The writer thread of one database file. */
export class Writer {
  private readonly worker: Worker
  private next = 0
  private readonly waiting = new Map<number, {size: number; done: (r: ChangeResult[]) => void}>()
  private failed: Error | undefined
  private closing = false
  private readonly statements = new Map<string, number>()
  /** transactions written (each holds one or more batches) */
  transactions = 0

  constructor(path: string, durability: 'full' | 'normal') {
    const require = createRequire(import.meta.url)
    const module = require.resolve('better-sqlite3')
    const codec = {version: CURRENT, min: PACK_MIN, module: require.resolve('zstd-napi'), parameters: ZSTD_PARAMETERS, dictionary: new Uint8Array(DICTIONARIES[CURRENT]!)}
    this.worker = new Worker(SOURCE, {eval: true, workerData: {path, durability, module, codec}})
    // the answer: per message, its id, its number of change sets (-2: all failed with the error
    // that follows), then per change set the event seq it wrote (-1: none) or why it failed
    this.worker.on('message', (a: (number | ChangeError)[]) => {
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
    if (this.failed) return Promise.resolve(batch.map(() => ({ok: false, error: {name: 'Error', message: `SQLite writer: ${this.failed!.message}`}})))
    const id = this.next++
    const defs: (number | string)[] = []
    const msg = {id, defs, flat: encode(batch, this.statements, (q, sql) => defs.push(q, sql)), relaxed}
    return new Promise((resolve) => {
      this.waiting.set(id, {size: batch.length, done: resolve})
      this.worker.postMessage(msg)
    })
  }

  async close(): Promise<void> {
    this.closing = true
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()))
    this.worker.postMessage('close')
    await exited
  }
}
