// The SQLite writer: one connection that writes, on a worker thread, so the event loop never
// waits for SQLite's B-tree work or the disk. It receives batches of change sets already
// compiled into statements with their parameters (strings and numbers: cheap to pass between
// threads; a statement's text crosses once, then its number), joins every batch waiting for it
// into one transaction (a failing change set rolls back alone: see write below), and commits
// with synchronous=FULL for 'full' durability: the fsync blocks this thread only. It answers
// per change set: written, or why not.
import {createRequire} from 'node:module'
import {Worker} from 'node:worker_threads'
import {CURRENT, DICTIONARIES, PACK_MIN, ZSTD_PARAMETERS} from './codec.js'

/** One statement: SQL, parameters, and what its result must be. */
export interface Op {
  /** the statement; sent to the writer thread once, after that by its number `q` (set by Writer.write) */
  sql?: string
  q?: number
  params: unknown[]
  /** 'one': it must change exactly one row, else the change set fails with a version conflict on (kind, id); 'seq': report its rowid (an event's seq) */
  check?: 'one' | 'seq'
  kind?: string
  id?: string
  /** parameters (JSON text) to store packed (codec.ts), by index */
  pack?: number[]
}

export type ChangeResult = {ok: true; seq: number | null} | {ok: false; error: {name: string; message: string; code?: string; kind?: string; id?: string}}

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
// statements by number: an op carries its SQL the first time the number is used, and a batch's
// new statements are prepared before any of it runs (a change set that fails part-way may hold
// the text of a statement that later ones use by number)
const stmts = []
const define = (batch) => {
  for (const ops of batch) for (const op of ops) if (op.sql !== undefined && stmts[op.q] === undefined) stmts[op.q] = db.prepare(op.sql)
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
  let seq = null
  for (const op of ops) {
    // packed once: a batch written again reuses the packed values
    if (op.pack) {
      for (const i of op.pack) op.params[i] = pack(op.params[i])
      op.pack = undefined
    }
    const r = stmts[op.q].run(op.params)
    if (op.check === 'one' && r.changes !== 1) throw new Conflict(op.kind, op.id)
    if (op.check === 'seq') seq = Number(r.lastInsertRowid)
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
        results[i] = {ok: true, seq: runOps(batch[i])}
      } catch (e) {
        failed = i
        results[i] = {ok: false, error: errorOf(e)}
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
  const batch = msgs.length === 1 ? m.batch : msgs.flatMap((x) => x.batch)
  let results
  try {
    define(batch)
    results = write(batch)
  } catch (e) {
    if (db.inTransaction) rollback.run()
    const error = {name: e.name, message: e.message, code: e.code}
    results = batch.map(() => ({ok: false, error}))
  }
  let at = 0
  parentPort.postMessage(msgs.map((x) => ({id: x.id, results: results.slice(at, (at += x.batch.length))})))
  if (closing) close()
})
`

/** The writer thread of one database file. */
export class Writer {
  private readonly worker: Worker
  private next = 0
  private readonly waiting = new Map<number, (r: ChangeResult[]) => void>()
  private failed: Error | undefined
  private readonly statements = new Map<string, number>()
  /** transactions written (each holds one or more batches) */
  transactions = 0

  constructor(path: string, durability: 'full' | 'normal') {
    const require = createRequire(import.meta.url)
    const module = require.resolve('better-sqlite3')
    const codec = {version: CURRENT, min: PACK_MIN, module: require.resolve('zstd-napi'), parameters: ZSTD_PARAMETERS, dictionary: new Uint8Array(DICTIONARIES[CURRENT]!)}
    this.worker = new Worker(SOURCE, {eval: true, workerData: {path, durability, module, codec}})
    this.worker.on('message', (ms: {id: number; results: ChangeResult[]}[]) => {
      this.transactions++
      for (const m of ms) {
        const done = this.waiting.get(m.id)
        this.waiting.delete(m.id)
        done?.(m.results)
      }
    })
    this.worker.on('error', (e) => this.fail(e))
    this.worker.on('exit', (code) => code !== 0 && this.fail(new Error(`the SQLite writer thread exited with code ${code}`)))
  }

  private fail(e: Error): void {
    this.failed = e
    for (const [id, done] of this.waiting) {
      this.waiting.delete(id)
      done([{ok: false, error: {name: 'Error', message: `SQLite writer: ${e.message}`}}])
    }
  }

  /** Writes a batch of change sets (each a list of statements) in one durable transaction. */
  write(batch: Op[][]): Promise<ChangeResult[]> {
    if (this.failed) return Promise.resolve(batch.map(() => ({ok: false, error: {name: 'Error', message: `SQLite writer: ${this.failed!.message}`}})))
    // each statement's text crosses to the thread once; after that only its number
    for (const ops of batch)
      for (const op of ops) {
        if (op.q !== undefined) continue
        const q = this.statements.get(op.sql!)
        if (q === undefined) this.statements.set(op.sql!, (op.q = this.statements.size))
        else {
          op.q = q
          op.sql = undefined
        }
      }
    const id = this.next++
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      this.worker.postMessage({id, batch})
    })
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()))
    this.worker.postMessage('close')
    await exited
  }
}
