// Commits are written by the writer thread, grouped: the change sets staged while it writes go
// into its next transaction, and a commit resolves only once its transaction is committed
// (with synchronous=FULL on that thread for 'full' durability).
import {statSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {describe, expect, it} from 'vitest'
import {tempDirs} from '../../test-support/tmp.js'
import {SqliteStore} from './sqlite-store.js'
import {CHECKPOINTER_START_BYTES} from './checkpointer.js'
import {PLATFORM_ACCOUNT} from '../../ports/store.js'

const dir = tempDirs('gw-store-')
const tmp = () => join(dir(), 'gw.db')
const customer = (i: number) => ({kind: 'customer' as const, obj: {id: `cus_${String(i).padStart(24, '0')}`, created_at: new Date().toISOString(), email: `c${i}@example.com`}})

describe('SqliteStore writer thread', () => {
  it('groups the commits staged while it writes into one transaction; a resolved commit is on disk for any connection', async () => {
    const path = tmp()
    const store = new SqliteStore({path, durability: 'full'})
    const other = new Database(path, {readonly: true})
    const seen: number[] = []
    // 20 commits in one turn, then 40 more in the turns while the first transaction is with the writer
    const first = Array.from({length: 20}, (_, i) => store.account(PLATFORM_ACCOUNT).commit({puts: [customer(i)]}).then(() => seen.push((other.prepare('SELECT COUNT(*) AS n FROM customers').get() as {n: number}).n)))
    await new Promise((r) => setImmediate(r))
    const later: Promise<void>[] = []
    for (let w = 0; w < 4; w++) {
      for (let i = 0; i < 10; i++) later.push(store.account(PLATFORM_ACCOUNT).commit({puts: [customer(100 + w * 10 + i)]}))
      await new Promise((r) => setImmediate(r))
    }
    await Promise.all([...first, ...later])
    // each resolved commit was visible to a separate connection at once
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(20)
    expect(store.stats.changeSets).toBe(60)
    // far fewer transactions than commits: the later ones shared one or two
    expect(store.stats.transactions).toBeLessThanOrEqual(5)
    other.close()
    // commits staged when the store closes land before it closes
    const late = [store.account(PLATFORM_ACCOUNT).commit({puts: [customer(1000)]}), store.account(PLATFORM_ACCOUNT).commit({puts: [customer(1001)]})]
    await store.close()
    await expect(Promise.all(late)).resolves.toEqual([undefined, undefined])
    const again = new SqliteStore({path, durability: 'full'})
    expect(await again.account(PLATFORM_ACCOUNT).all('customer')).toHaveLength(62)
    await again.close()
  })

  it('a failing change set is rejected, the others of its transaction land', async () => {
    const store = new SqliteStore({path: tmp(), durability: 'full'})
    await store.account(PLATFORM_ACCOUNT).commit({puts: [customer(1)]})
    const dup = store.account(PLATFORM_ACCOUNT).commit({puts: [customer(1)]})
    const ok = store.account(PLATFORM_ACCOUNT).commit({puts: [customer(2)]})
    await expect(dup).rejects.toThrow(/UNIQUE/)
    await expect(ok).resolves.toBeUndefined()
    expect(await store.account(PLATFORM_ACCOUNT).all('customer')).toHaveLength(2)
    await store.close()
  })

  it('a change set that fails before its first use of a statement does not keep that statement from the others of its transaction', async () => {
    const store = new SqliteStore({path: tmp(), durability: 'full'})
    await store.account(PLATFORM_ACCOUNT).commit({puts: [customer(1)]})
    const refund = (i: number) => ({kind: 'refund' as const, obj: {id: `re_${String(i).padStart(24, '0')}`, created_at: new Date().toISOString(), payment: 'pay_1', status: 'pending'}})
    // one turn, one transaction: the first change set fails on its customer (a duplicate) before
    // its refund, the first refund insert the writer sees; the second uses that statement
    const failing = store.account(PLATFORM_ACCOUNT).commit({puts: [customer(1), refund(1)]})
    const ok = store.account(PLATFORM_ACCOUNT).commit({puts: [refund(2)]})
    await expect(failing).rejects.toThrow(/UNIQUE/)
    await expect(ok).resolves.toBeUndefined()
    expect((await store.account(PLATFORM_ACCOUNT).all('refund')).map((r) => r.id)).toEqual([refund(2).obj.id])
    await store.close()
  })

  it('checkpoints on a thread of their own once the WAL has grown: WAL pages reach the database file', async () => {
    const path = tmp()
    // (a fresh database's migrations alone write more WAL than this)
    const store = new SqliteStore({path, durability: 'full', checkpointerStartBytes: 64 * 1024})
    const before = statSync(path).size
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
    for (let w = 0; w < 5; w++) {
      await Promise.all(Array.from({length: 100}, (_, i) => store.account(PLATFORM_ACCOUNT).commit({puts: [customer(w * 1000 + i)]})))
      await sleep(120)
    }
    for (let i = 0; i < 100 && statSync(path).size <= before; i++) await sleep(20)
    expect(store.checkpointer!.started).toBe(true)
    expect(statSync(path).size).toBeGreaterThan(before)
    expect(await store.account(PLATFORM_ACCOUNT).all('customer')).toHaveLength(500)
    await store.close()
  })

  it("starts no checkpointer thread while the WAL is below SQLite's default checkpoint size (a store that writes little)", async () => {
    const path = tmp()
    const store = new SqliteStore({path, durability: 'full'})
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
    // commits more than the checkpointer's interval (300 ms) apart: each one looks at the WAL
    for (let i = 0; i < 3; i++) {
      await store.account(PLATFORM_ACCOUNT).commit({puts: [customer(i)]})
      await sleep(320)
    }
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0)
    expect(statSync(`${path}-wal`).size).toBeLessThan(CHECKPOINTER_START_BYTES)
    expect(store.checkpointer!.started).toBe(false)
    expect(await store.account(PLATFORM_ACCOUNT).all('customer')).toHaveLength(3)
    // closing it waits for no thread, and the data is there when it opens again
    await store.close()
    const again = new SqliteStore({path, durability: 'full'})
    expect(await again.account(PLATFORM_ACCOUNT).all('customer')).toHaveLength(3)
    await again.close()
  })

  it("'normal' durability and in-memory stores write the same way", async () => {
    const normal = new SqliteStore({path: tmp(), durability: 'normal'})
    await normal.account(PLATFORM_ACCOUNT).commit({puts: [customer(1)]})
    expect(await normal.account(PLATFORM_ACCOUNT).all('customer')).toHaveLength(1)
    await normal.close()
    const mem = new SqliteStore({path: ':memory:'})
    await Promise.all([mem.account(PLATFORM_ACCOUNT).commit({puts: [customer(1)]}), mem.account(PLATFORM_ACCOUNT).commit({puts: [customer(1)]}).catch((e) => e)])
    expect(await mem.account(PLATFORM_ACCOUNT).all('customer')).toHaveLength(1)
    await mem.close()
  })
})
