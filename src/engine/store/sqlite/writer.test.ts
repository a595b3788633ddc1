// The writer thread's side of a batch: statements by number, checks, event seqs, one result per
// change set whatever fails (a statement, the whole batch, the thread).
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {describe, expect, it} from 'vitest'
import {tempDirs} from '../../test-support/tmp.js'
import {encode, Writer, type Op} from './writer.js'

const dir = tempDirs('gw-writer-')
const database = () => {
  const path = join(dir(), 'w.db')
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.exec('CREATE TABLE t (seq INTEGER PRIMARY KEY, id TEXT UNIQUE, v TEXT, n INTEGER)')
  return {path, db}
}
const insert = (id: string, v: unknown = 'x', n = 0): Op => ({sql: 'INSERT INTO t (id, v, n) VALUES (?, ?, ?)', params: [id, v, n], check: 'seq'})
const bump = (id: string, n: number): Op => ({sql: 'UPDATE t SET n = n + 1 WHERE id = ? AND n = ?', params: [id, n], check: 'one', kind: 'thing', id})

/** The b-trees whose pages the WAL holds (frames since its last reset), by name, with their number of frames. */
function walFrames(db: Database.Database, path: string): Record<string, number> {
  const wal = readFileSync(`${path}-wal`)
  const size = wal.readUInt32BE(8)
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)]
  const owner = new Map((db.prepare('SELECT pageno, name FROM dbstat').all() as {pageno: number; name: string}[]).map((r) => [r.pageno, r.name]))
  const out: Record<string, number> = {}
  for (let o = 32; o + 24 + size <= wal.length && wal.readUInt32BE(o + 8) === salts[0] && wal.readUInt32BE(o + 12) === salts[1]; o += 24 + size) {
    const name = owner.get(wal.readUInt32BE(o)) ?? '?'
    out[name] = (out[name] ?? 0) + 1
  }
  return out
}

describe('Writer', () => {
  it('sets only the typed columns an update changes: the index of one it leaves alone is not written again', async () => {
    const path = join(dir(), 'n.db')
    const db = new Database(path)
    db.pragma('journal_mode = WAL')
    db.exec(`CREATE TABLE things (seq INTEGER PRIMARY KEY, account INTEGER NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL, data TEXT NOT NULL, internal TEXT, status TEXT, endpoint TEXT, UNIQUE (id, account));
CREATE INDEX things_status ON things (account, status, seq) WHERE status IS NOT NULL;
CREATE INDEX things_endpoint ON things (account, endpoint, seq);`)
    const add = db.prepare("INSERT INTO things (account, id, version, data, status, endpoint) VALUES (1, ?, 1, '{}', 'pending', ?)")
    // enough rows that each index spans many pages
    db.transaction(() => {
      for (let i = 0; i < 4000; i++) add.run(`t${i}`, `wh_${String(i).padStart(6, '0')}`)
    })()
    const full = 'UPDATE things SET data = ?, internal = ?, version = version + 1, status = ?, endpoint = ? WHERE id = ? AND version = ? AND account = ?'
    const narrow = {table: 'things', columns: ['status', 'endpoint']}
    const attempt = (i: number, version: number, narrowed: boolean, status = 'failed'): Op => ({
      // (a statement's narrowing is fixed by its text: the control is another text)
      sql: narrowed ? full : `${full} -- every column`,
      params: [`{"n":${version}}`, null, status, `wh_${String(i).padStart(6, '0')}`, `t${i}`, version, 1],
      check: 'one',
      kind: 'delivery',
      id: `t${i}`,
      ...(narrowed ? {narrow} : {}),
    })
    const spread = Array.from({length: 20}, (_, k) => k * 200)
    const w = new Writer(path, 'full')
    // the statement as it was: every index on a column it sets is written again, changed or not
    db.pragma('wal_checkpoint(TRUNCATE)')
    expect((await w.write([spread.map((i) => attempt(i, 1, false))]))[0]).toEqual({ok: true, seq: null})
    expect(walFrames(db, path).things_endpoint).toBeGreaterThanOrEqual(10)
    // narrowed: the endpoint is the same, so its index is not touched; the status index is
    db.pragma('wal_checkpoint(TRUNCATE)')
    expect((await w.write([spread.map((i) => attempt(i, 2, true, 'succeeded'))]))[0]).toEqual({ok: true, seq: null})
    const frames = walFrames(db, path)
    expect(frames.things_endpoint).toBeUndefined()
    expect(frames.things_status).toBeGreaterThanOrEqual(1)
    expect(db.prepare("SELECT version, data, status, endpoint FROM things WHERE id = 't200'").get()).toEqual({version: 3, data: '{"n":2}', status: 'succeeded', endpoint: 'wh_000200'})
    // a changed column is set, and an unchanged one keeps its value
    expect((await w.write([[{...attempt(400, 3, true), params: ['{"n":3}', '{"x":1}', 'succeeded', 'wh_other', 't400', 3, 1]}]]))[0]).toEqual({ok: true, seq: null})
    expect(db.prepare("SELECT version, internal, status, endpoint FROM things WHERE id = 't400'").get()).toEqual({version: 4, internal: '{"x":1}', status: 'succeeded', endpoint: 'wh_other'})
    expect(db.prepare("SELECT count(*) AS n FROM things INDEXED BY things_endpoint WHERE account = 1 AND endpoint = 'wh_other'").get()).toEqual({n: 1})
    // a version that is not the row's, or a row of another account: a conflict, nothing written
    const r = await w.write([[attempt(600, 1, true)], [{...attempt(800, 3, true), params: [...attempt(800, 3, true).params.slice(0, 6), 2]}]])
    expect(r.map((x) => x.ok || x.error.name)).toEqual(['VersionConflictError', 'VersionConflictError'])
    expect(db.prepare("SELECT version FROM things WHERE id IN ('t600', 't800') ORDER BY seq").all()).toEqual([{version: 3}, {version: 3}])
    await w.close()
    db.close()
  })

  it('writes each change set, answering its seq or why it failed, and numbers each statement once', async () => {
    const {path, db} = database()
    const w = new Writer(path, 'full')
    const r = await w.write([[insert('a')], [insert('b'), bump('b', 0)], [bump('a', 7)], [insert('a')], [{sql: 'DELETE FROM t WHERE id = ?', params: ['zzz']}]])
    expect(r[0]).toEqual({ok: true, seq: 1})
    expect(r[1]).toEqual({ok: true, seq: 2})
    // a check that found no row: a version conflict named after the op's kind and id
    expect(r[2]).toMatchObject({ok: false, error: {name: 'VersionConflictError', kind: 'thing', id: 'a'}})
    expect(r[3]).toMatchObject({ok: false, error: {code: 'SQLITE_CONSTRAINT_UNIQUE'}})
    expect(r[4]).toEqual({ok: true, seq: null})
    // the failed ones rolled back alone
    expect(db.prepare('SELECT id, n FROM t ORDER BY seq').all()).toEqual([{id: 'a', n: 0}, {id: 'b', n: 1}])
    // a later batch reuses the statements by number
    expect(await w.write([[insert('c')]])).toEqual([{ok: true, seq: 3}])
    expect(w.transactions).toBe(2)
    await w.close()
    db.close()
  })

  it('packs the parameters it is told to, once, however often the batch is written', async () => {
    const {path, db} = database()
    const w = new Writer(path, 'full')
    const long = JSON.stringify({text: 'y'.repeat(2000)})
    // the second change set fails: the batch is written again without it, the first one's value packed once
    const r = await w.write([[{...insert('p', long), pack: [1]}], [bump('nope', 0)], [insert('q', 'short'), {...insert('r', long)}]])
    expect(r.map((x) => x.ok)).toEqual([true, false, true])
    const rows = db.prepare('SELECT id, v FROM t ORDER BY seq').all() as {id: string; v: string | Buffer}[]
    expect(Buffer.isBuffer(rows[0]!.v)).toBe(true)
    expect((rows[0]!.v as Buffer).length).toBeLessThan(200)
    expect(rows.slice(1)).toEqual([{id: 'q', v: 'short'}, {id: 'r', v: long}])
    await w.close()
    db.close()
  })

  it('a statement that cannot be prepared fails the change sets that use it, now and later; the others land', async () => {
    const {path, db} = database()
    const w = new Writer(path, 'full')
    const bad = {sql: 'INSERT INTO missing (x) VALUES (?)', params: [1]}
    const r = await w.write([[insert('a')], [bad], [insert('b')]])
    expect(r[0]).toEqual({ok: true, seq: 1})
    expect(r[1]).toMatchObject({ok: false, error: {message: expect.stringMatching(/no such table: missing/)}})
    expect(r[2]).toEqual({ok: true, seq: 2})
    // by number from now on: still the same answer
    expect((await w.write([[bad], [insert('c')]])).map((x) => x.ok)).toEqual([false, true])
    expect(db.prepare('SELECT id FROM t ORDER BY seq').all()).toEqual([{id: 'a'}, {id: 'b'}, {id: 'c'}])
    await w.close()
    db.close()
  })

  it('once its thread is gone, every change set of a batch fails with the reason', async () => {
    const {path, db} = database()
    const w = new Writer(path, 'full')
    await (w as unknown as {worker: {terminate(): Promise<number>}}).worker.terminate()
    await new Promise((r) => setImmediate(r))
    const r = await w.write([[insert('a')], [insert('b')]])
    expect(r).toHaveLength(2)
    for (const x of r) expect(x).toMatchObject({ok: false, error: {message: expect.stringMatching(/SQLite writer: the SQLite writer thread exited/)}})
    db.close()
  })
})

describe('encode', () => {
  it('lays a batch out flat: statement numbers, flags, parameter counts, pack masks, kind and id only for checks', () => {
    const statements = new Map<string, number>()
    const defined: [number, string][] = []
    const flat = encode([[insert('a'), {...bump('a', 0), pack: [0, 1]}], [insert('b')]], statements, (q, sql) => defined.push([q, sql]))
    expect(defined).toEqual([
      [0, 'INSERT INTO t (id, v, n) VALUES (?, ?, ?)'],
      [1, 'UPDATE t SET n = n + 1 WHERE id = ? AND n = ?'],
    ])
    expect(flat).toEqual([2, 0, 2, 3, 0, 'a', 'x', 0, 1, 1 | 4, 2, 0b11, 'thing', 'a', 'a', 0, 1, 0, 2, 3, 0, 'b', 'x', 0])
  })
})
