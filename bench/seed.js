// Seeds a fresh engine data dir with N payments straight into SQLite, before the engine
// starts on it. Every row is a copy of the rows one real POST /payments wrote (the payment,
// its events, its idempotency record, and any other row that names the payment, e.g. ledger
// entries), with fresh ids from the engine's own generator, unique references and
// timestamps spread over the last hours (inside the event-retention and idempotency windows, so housekeeping has nothing
// to purge during the measurement).
import {mkdirSync} from 'node:fs'
import Database from 'better-sqlite3'
import {localEnginePaths} from '../dist/local-engine.js'
import {RandomIds} from '../dist/engine/adapters/ids.js'
import {SqliteStore} from '../dist/engine/store/sqlite/sqlite-store.js'
import {TABLE} from '../dist/engine/store/sqlite/schema.js'
import {pack, unpack} from '../dist/engine/store/sqlite/codec.js'

const ID_RE = /\b[a-z]{2,6}_[0-9A-Za-z]{24}\b/g
const ISO_RE = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\b/g
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Reads every row one created payment left in a (running) engine's database: the template —
 * each row that names the payment (its events, ledger entries, ...) and each that names one of
 * its events (the idempotency record keeps its response as a reference to the event). Packed
 * values (codec.ts) are unpacked; the seeder packs them again. `reference` and `idemKey` are
 * the values that request used; they become per-row slots.
 */
export function extractTemplate(dbPath, paymentId, {reference, idemKey}) {
  const db = new Database(dbPath, {readonly: true, fileMustExist: true})
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'").all().map((t) => t.name)
    const all = []
    for (const table of tables)
      for (const r of db.prepare(`SELECT * FROM ${table}`).all()) {
        const packed = []
        for (const [c, v] of Object.entries(r))
          if (Buffer.isBuffer(v)) {
            r[c] = unpack(v)
            packed.push(c)
          }
        delete r.seq
        all.push({table, row: r, packed})
      }
    const names = (x, id) => Object.values(x.row).some((v) => typeof v === 'string' && v.includes(id))
    const rows = all.filter((x) => names(x, paymentId))
    const eventIds = rows.filter((x) => x.table === 'events').map((x) => x.row.id)
    for (const x of all) if (!rows.includes(x) && eventIds.some((id) => names(x, id))) rows.push(x)
    const created = rows.find((r) => r.table === 'payments')?.row.created_at
    if (!created) throw new Error(`payment ${paymentId} not found in ${dbPath}`)
    return {rows, paymentId, reference, idemKey, createdAt: created}
  } finally {
    db.close()
  }
}

/** Splits a string at the slots once; render(values) is then plain concatenation. */
function compile(str, slotIndex, re) {
  if (typeof str !== 'string' || !re) return () => str
  const parts = str.split(re)
  if (parts.length === 1) return () => str
  const lits = []
  const slots = []
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) lits.push(parts[i])
    else slots.push(slotIndex.get(parts[i]))
  }
  return (vals) => {
    let s = lits[0]
    for (let k = 0; k < slots.length; k++) s += vals[slots[k]] + lits[k + 1]
    return s
  }
}

/**
 * Creates the schema (the engine's own migrations) in dataDir and inserts n copies of the
 * template with big transactions. Resolves with {ms, payments, rows}.
 */
export async function seed(dataDir, template, n, {spanMs = 6 * 3600_000, batch = 50_000} = {}) {
  const t0 = performance.now()
  mkdirSync(dataDir, {recursive: true, mode: 0o700})
  const dbPath = localEnginePaths(dataDir).database
  // the engine's migrations create the schema
  const store = new SqliteStore({path: dbPath, durability: 'normal'})
  store.db.pragma('wal_checkpoint(TRUNCATE)')
  // the whole store, its writer and checkpointer threads too (they would keep the bench alive)
  await store.close()

  // the slots: every id, timestamp, the reference and the idempotency key found in the template
  const ids = new Set()
  const isos = new Set()
  for (const {row} of template.rows) {
    for (const v of Object.values(row)) {
      if (typeof v !== 'string') continue
      for (const m of v.matchAll(ID_RE)) ids.add(m[0])
      for (const m of v.matchAll(ISO_RE)) isos.add(m[0])
    }
  }
  const slotNames = [...ids, ...isos, template.reference, template.idemKey].filter((s) => s !== undefined)
  const slotIndex = new Map(slotNames.map((s, i) => [s, i]))
  const re = new RegExp(`(${[...slotNames].sort((a, b) => b.length - a.length).map(escapeRe).join('|')})`)
  const idSlots = [...ids].map((s) => ({i: slotIndex.get(s), prefix: s.slice(0, s.indexOf('_'))}))
  const isoSlots = [...isos].map((s) => ({i: slotIndex.get(s), delta: Date.parse(s) - Date.parse(template.createdAt)}))
  const refSlot = slotIndex.get(template.reference)
  const keySlot = slotIndex.get(template.idemKey)

  const db = new Database(dbPath)
  db.pragma('journal_mode = OFF')
  db.pragma('synchronous = OFF')
  db.pragma('locking_mode = EXCLUSIVE')
  db.pragma('cache_size = -1000000')
  db.pragma('temp_store = MEMORY')
  // bulk load: drop the secondary indexes of the seeded tables, insert, then rebuild them
  // (one sort each instead of a million random B-tree inserts); the unique ones stay
  const tables = [...new Set(template.rows.map((r) => r.table))]
  const indexes = tables.flatMap(
    (t) => db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(t),
  )
  for (const ix of indexes) db.exec(`DROP INDEX ${ix.name}`)
  const inserts = template.rows.map(({table, row, packed}) => {
    const cols = Object.keys(row)
    const stmt = db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
    const renders = cols.map((c) => {
      const render = compile(row[c], slotIndex, re)
      // stored packed as the engine stores it
      return packed.includes(c) ? (vals) => pack(render(vals)) : render
    })
    return {stmt, renders}
  })
  const idGen = new RandomIds()
  const base = Date.now() - spanMs
  const step = spanMs / n
  const vals = new Array(slotNames.length)
  const args = []
  let rows = 0
  const run = db.transaction((from, to) => {
    for (let k = from; k < to; k++) {
      const at = Math.floor(base + k * step)
      // the engine's own id generator, at the row's creation time
      for (const s of idSlots) vals[s.i] = idGen.next(s.prefix, at)
      for (const s of isoSlots) vals[s.i] = new Date(at + s.delta).toISOString()
      if (refSlot !== undefined) vals[refSlot] = `order-${String(k).padStart(9, '0')}`
      if (keySlot !== undefined) vals[keySlot] = `seed-${k}-${vals[idSlots[0].i]}`
      for (const ins of inserts) {
        args.length = ins.renders.length
        for (let c = 0; c < ins.renders.length; c++) args[c] = ins.renders[c](vals)
        ins.stmt.run(args)
        rows++
      }
    }
  })
  for (let from = 0; from < n; from += batch) run(from, Math.min(n, from + batch))
  for (const ix of indexes) db.exec(ix.sql)
  // back to the engine's journal mode; no ANALYZE (the engine never runs it, so plans stay as in production)
  db.pragma('journal_mode = WAL')
  db.close()
  return {ms: performance.now() - t0, payments: n, rows}
}
