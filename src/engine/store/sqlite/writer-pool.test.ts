// Writer threads reused within a process: a store that closes cleanly gives its thread back
// (writer-pool.ts), and the next store opens its database on it. Nothing of the first database
// reaches the next; a thread that failed or was ended is never reused.
import {join} from 'node:path'
import type {Worker} from 'node:worker_threads'
import Database from 'better-sqlite3'
import {afterEach, describe, expect, it} from 'vitest'
import {PLATFORM_ACCOUNT} from '../../ports/store.js'
import {tempDirs} from '../../test-support/tmp.js'
import {SqliteStore} from './sqlite-store.js'
import {type Op, Writer} from './writer.js'
import {IDLE_MS, idleWriterThreads, POOL_SIZE, writerThreads} from './writer-pool.js'

const dir = tempDirs('gw-writer-pool-')
const database = (table: string) => {
  const path = join(dir(), 'w.db')
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.exec(`CREATE TABLE ${table} (seq INTEGER PRIMARY KEY, id TEXT UNIQUE, v TEXT)`)
  return {path, db}
}
const insert = (table: string, id: string): Op => ({sql: `INSERT INTO ${table} (id, v) VALUES (?, 'x')`, params: [id], check: 'seq'})
/** Threads started in this process while `fn` runs (node announces each: process 'worker'). */
async function threadsStartedBy(fn: () => Promise<void>): Promise<number> {
  let n = 0
  const count = () => n++
  process.on('worker', count)
  try {
    await fn()
  } finally {
    process.off('worker', count)
  }
  return n
}
const threadOf = (w: Writer) => (w as unknown as {worker: Worker}).worker
const customer = (i: number) => ({kind: 'customer' as const, obj: {id: `cus_${String(i).padStart(24, '0')}`, created_at: new Date().toISOString(), email: `c${i}@example.com`}})
const opened: Database.Database[] = []
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
})

describe('writer thread pool', () => {
  it('two stores opened one after the other in one process start one writer thread', async () => {
    const before = {...writerThreads}
    const started = await threadsStartedBy(async () => {
      for (let i = 0; i < 2; i++) {
        const store = new SqliteStore({path: join(dir(), 'gw.db'), durability: 'full'})
        await store.account(PLATFORM_ACCOUNT).commit({puts: [customer(i)]})
        expect(await store.account(PLATFORM_ACCOUNT).all('customer')).toHaveLength(1)
        await store.close()
      }
    })
    // (a thread may wait in the pool from an earlier test: then none starts)
    expect(started).toBeLessThanOrEqual(1)
    expect(writerThreads.started + writerThreads.reused - before.started - before.reused).toBe(2)
    expect(writerThreads.reused - before.reused).toBeGreaterThanOrEqual(1)
    expect(idleWriterThreads()).toBeGreaterThanOrEqual(1)
  })

  it('a reused thread is a fresh writer: its statements, numbers and settings are the new database’s', async () => {
    const a = database('a')
    opened.push(a.db)
    const first = new Writer(a.path, 'normal')
    expect(await first.write([[insert('a', 'x1')], [insert('a', 'x2')]])).toEqual([
      {ok: true, seq: 1},
      {ok: true, seq: 2},
    ])
    const thread = threadOf(first)
    await first.close()
    // a write after close never reaches the thread (it may be another store's by then)
    expect(await first.write([[insert('a', 'late')]])).toEqual([{ok: false, error: {name: 'Error', message: 'SQLite writer: the store is closed'}}])
    const b = database('b')
    opened.push(b.db)
    const second = new Writer(b.path, 'full')
    expect(threadOf(second)).toBe(thread)
    // statement 0 of this writer is another text: had the first database's statement 0 survived, it would run instead
    expect(await second.write([[insert('b', 'y1')]])).toEqual([{ok: true, seq: 1}])
    expect(b.db.prepare('SELECT id FROM b').all()).toEqual([{id: 'y1'}])
    expect(a.db.prepare('SELECT id FROM a ORDER BY seq').all()).toEqual([{id: 'x1'}, {id: 'x2'}])
    // the thread holds no connection to the first file: it can be removed and its WAL checkpointed away
    expect(a.db.pragma('wal_checkpoint(TRUNCATE)', {simple: true})).toBe(0)
    // a failing change set and a packed value, as on a fresh thread
    const long = JSON.stringify({text: 'z'.repeat(2000)})
    const r = await second.write([[insert('b', 'y1')], [{sql: 'INSERT INTO b (id, v) VALUES (?, ?)', params: ['y2', long], pack: [1]}]])
    expect(r.map((x) => x.ok)).toEqual([false, true])
    expect(Buffer.isBuffer((b.db.prepare("SELECT v FROM b WHERE id = 'y2'").get() as {v: unknown}).v)).toBe(true)
    expect(second.transactions).toBe(2)
    await second.close()
  })

  it("a reused thread syncs as its own store's durability says, not the last one's", async () => {
    // 'normal' then 'full' on one thread: each connection is opened with its own setting
    for (const durability of ['normal', 'full', 'normal'] as const) {
      const {path, db} = database('t')
      opened.push(db)
      const w = new Writer(path, durability)
      expect(await w.write([[insert('t', durability)]])).toEqual([{ok: true, seq: 1}])
      // what the writer's connection runs with, read through the writer itself
      const r = await w.write([[{sql: `INSERT INTO t (id, v) SELECT 'sync', (SELECT synchronous FROM pragma_synchronous)`, params: []}]])
      expect(r).toEqual([{ok: true, seq: null}])
      expect(db.prepare("SELECT v FROM t WHERE id = 'sync'").get()).toEqual({v: durability === 'full' ? '2' : '1'})
      await w.close()
    }
  })

  it('a thread that was terminated, or that failed, is never reused; a crashed store starts a new one', async () => {
    const {path, db} = database('t')
    opened.push(db)
    const w = new Writer(path, 'full')
    const killed = threadOf(w)
    await killed.terminate()
    await new Promise((r) => setImmediate(r))
    expect((await w.write([[insert('t', 'a')]]))[0]).toMatchObject({ok: false})
    await w.close()
    // a database that cannot be opened: the thread throws and exits
    const missing = new Writer(join(dir(), 'missing.db'), 'full')
    const failed = threadOf(missing)
    await new Promise((r) => failed.once('exit', r))
    expect((await missing.write([[insert('t', 'a')]]))[0]).toMatchObject({ok: false, error: {message: expect.stringMatching(/SQLite writer/)}})
    await missing.close()
    const next = new Writer(path, 'full')
    expect(threadOf(next)).not.toBe(killed)
    expect(threadOf(next)).not.toBe(failed)
    expect(await next.write([[insert('t', 'b')]])).toEqual([{ok: true, seq: 1}])
    await next.close()
  })

  it('keeps at most POOL_SIZE threads, each ended after IDLE_MS without a taker', async () => {
    const writers = Array.from({length: POOL_SIZE + 2}, () => {
      const {path, db} = database('t')
      opened.push(db)
      return new Writer(path, 'full')
    })
    const threads = writers.map(threadOf)
    await Promise.all(writers.map((w) => w.close()))
    expect(idleWriterThreads()).toBe(POOL_SIZE)
    // (a thread's id is -1 once it has exited)
    await new Promise((r) => setTimeout(r, 100))
    expect(threads.filter((t) => t.threadId !== -1)).toHaveLength(POOL_SIZE)
    await new Promise((r) => setTimeout(r, IDLE_MS + 500))
    expect(idleWriterThreads()).toBe(0)
    expect(threads.filter((t) => t.threadId !== -1)).toHaveLength(0)
  })
})
