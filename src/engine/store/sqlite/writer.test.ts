// The writer thread's side of a batch: statements by number, checks, event seqs, one result per
// change set whatever fails (a statement, the whole batch, the thread).
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

describe('Writer', () => {
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
