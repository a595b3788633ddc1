// The SQLite writer thread (writer.ts starts it): one connection that writes, off the event loop.
// A module file of its own, not eval'd source: an eval'd worker inherits the parent's
// --input-type (node --input-type=module -e "...") and then cannot require anything (docs/decisions.md#a-throwaway-engine).
// It needs nothing but better-sqlite3 and zstd-napi, resolved from where this file lies.
import {createRequire} from 'node:module'
import {parentPort, receiveMessageOnPort, workerData} from 'node:worker_threads'

const require = createRequire(import.meta.url)
const {Compressor} = require('zstd-napi')
const Database = require('better-sqlite3')
// One database at a time: this thread may serve several stores in turn (writer-pool.ts). Every
// per-database thing lives in `open` below, made anew for each database: its connection and
// settings, its statements, its compression context; `closeDb` answers 'closed' once all of it
// is gone, and the thread then waits for the next `{open}` (or is ended).
let db, pack, stmts, narrows, begin, commit, rollback, durability
const open = ({path, durability: d, codec}) => {
  // codec.ts's pack (format 2), with its constants: one compression context, its dictionary loaded once
  const compressor = new Compressor()
  compressor.setParameters(codec.parameters)
  compressor.loadDictionary(codec.dictionary)
  pack = (value) => {
    if (typeof value !== 'string' || value.length < codec.min) return value
    const z = compressor.compress(Buffer.from(value, 'utf8'))
    const out = Buffer.allocUnsafe(z.length + 1)
    out[0] = codec.version
    z.copy(out, 1)
    return out
  }
  durability = d
  db = new Database(path, {fileMustExist: true})
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = ' + (durability === 'normal' ? 'NORMAL' : 'FULL'))
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  // a statement journal, when a statement needs one, in memory rather than a temporary file
  db.pragma('temp_store = MEMORY')
  // checkpoints: this connection's automatic one, less often; the store's checkpointer copies pages meanwhile
  db.pragma('wal_autocheckpoint = 10000')
  // what a write replaces or deletes is zeroed in its page where that costs no I/O of its own: a
  // row rewritten without a secret (docs/decisions.md#secrets-at-rest: sealed at start) leaves no copy of it in the page
  db.pragma('secure_delete = FAST')
  // statements by number: an op carries its SQL the first time the number is used, and a batch's
  // new statements are prepared before any of it runs (a change set that fails part-way may hold
  // the text of a statement that later ones use by number)
  stmts = []
  // narrowing updates by statement number (writer.ts, Narrow): the read of a row's typed columns,
  // and an update per set of changed columns, prepared when first needed
  narrows = []
  begin = db.prepare('BEGIN IMMEDIATE')
  commit = db.prepare('COMMIT')
  rollback = db.prepare('ROLLBACK')
}
open(workerData)
const narrowOf = (table, columns) => ({
  columns,
  read: db.prepare(`SELECT seq, ${columns.join(', ')} FROM ${table} WHERE id = ? AND account = ? AND version = ?`).raw(),
  table,
  updates: new Map(),
})
// runs an update of every typed column as one of only those that change; its changes, as run's
const narrowed = (n, params) => {
  const k = n.columns.length
  const row = n.read.get(params[2 + k], params[4 + k], params[3 + k])
  if (row === undefined) return {changes: 0}
  let key = ''
  const values = [params[0], params[1]]
  for (let c = 0; c < k; c++)
    if (row[1 + c] !== params[2 + c]) {
      key += c + ','
      values.push(params[2 + c])
    }
  let st = n.updates.get(key)
  if (st === undefined) {
    const set = key === '' ? [] : key.slice(0, -1).split(',').map((c) => `, ${n.columns[Number(c)]} = ?`)
    st = db.prepare(`UPDATE ${n.table} SET data = ?, internal = ?, version = version + 1${set.join('')} WHERE seq = ? AND version = ?`)
    n.updates.set(key, st)
  }
  values.push(row[0], params[3 + k])
  return st.run(values)
}
// a message: {id, defs: [q, sql, ...], narrows: [q, table, columns, ...], flat} where flat is, per change set, its number of
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
  for (let i = 0; i < (m.narrows?.length ?? 0); i += 3) {
    if (narrows[m.narrows[i]] !== undefined) continue
    try {
      narrows[m.narrows[i]] = narrowOf(m.narrows[i + 1], m.narrows[i + 2])
    } catch (e) {
      stmts[m.narrows[i]] = {run() { throw e }}
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
      ops[k] = {stmt: stmts[q], narrow: narrows[q], check: flags & 3, kind, id, params}
    }
    sets.push(ops)
  }
  return sets
}
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
    const r = op.narrow ? narrowed(op.narrow, op.params) : op.stmt.run(op.params)
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
const close = () => {
  db.close()
  db = pack = stmts = narrows = begin = commit = rollback = durability = undefined
  parentPort.postMessage('closed')
}
parentPort.on('message', (m) => {
  if (m === 'close') return close()
  if (m.open) return open(m.open)
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
    const relaxed = durability !== 'normal' && msgs.every((x) => x.relaxed === true)
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
