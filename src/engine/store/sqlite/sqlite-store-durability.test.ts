// 'full' durability: commits resolve only after the WAL has been fdatasync'ed, off the
// event loop, and commits that arrive during a sync share the next one.
import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {SqliteStore} from './sqlite-store.js'

/** counts fdatasync calls; with `hold`, a sync completes only when the test releases it */
const syncs = vi.hoisted(() => ({count: 0, done: 0, hold: false, held: [] as (() => void)[]}))
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  return {
    ...fs,
    fdatasync: (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
      syncs.count++
      const finish = (err: NodeJS.ErrnoException | null) => {
        syncs.done++
        cb(err)
      }
      if (syncs.hold) syncs.held.push(() => fs.fdatasync(fd, finish))
      else fs.fdatasync(fd, finish)
    },
  }
})
/** Lets one held sync run, and waits until its callback and the reactions to it have run (however slow the disk). */
const release = async () => {
  const next = syncs.held.shift()
  if (!next) throw new Error('no sync is waiting')
  const done = syncs.done
  next()
  while (syncs.done === done) await new Promise((r) => setTimeout(r, 1))
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r))
}

const dirs: string[] = []
afterEach(() => {
  // a failed test must not leave syncs held for the next one
  syncs.hold = false
  for (const f of syncs.held.splice(0)) f()
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'gw-store-'))
  dirs.push(d)
  return join(d, 'gw.db')
}
const customer = (i: number) => ({kind: 'customer' as const, obj: {id: `cus_${String(i).padStart(24, '0')}`, created_at: new Date().toISOString(), email: `c${i}@example.com`}})

describe('SqliteStore durability full', () => {
  it('syncs the WAL itself (SQLite runs synchronous=NORMAL), resolves commits once synced, groups commits that arrive during a sync', async () => {
    const path = tmp()
    const store = new SqliteStore({path, durability: 'full'})
    expect(store.db.pragma('synchronous', {simple: true})).toBe(1)
    syncs.count = 0
    syncs.hold = true
    let resolved = 0
    // three waves a loop turn apart: the later two arrive while the first sync is running
    const waves: Promise<void>[] = []
    for (let w = 0; w < 3; w++) {
      for (let i = 0; i < 20; i++) waves.push(store.commit({puts: [customer(w * 100 + i)]}).then(() => void resolved++))
      await new Promise((r) => setImmediate(r))
    }
    // the first wave is written, not acknowledged: its sync is running; the others wait
    expect(await store.all('customer')).toHaveLength(20)
    expect(syncs.count).toBe(1)
    expect(resolved).toBe(0)
    await release()
    // the first wave is acknowledged; the two waves that came meanwhile are written as one
    // transaction, covered by one sync
    expect(resolved).toBe(20)
    expect(await store.all('customer')).toHaveLength(60)
    expect(syncs.count).toBe(2)
    await release()
    await Promise.all(waves)
    expect(resolved).toBe(60)
    syncs.hold = false
    // commits still waiting for their sync when the store closes resolve before it closes
    const late = [store.commit({puts: [customer(1000)]}), store.commit({puts: [customer(1001)]})]
    await store.close()
    await expect(Promise.all(late)).resolves.toEqual([undefined, undefined])
    const again = new SqliteStore({path, durability: 'full'})
    expect(await again.all('customer')).toHaveLength(62)
    await again.close()
  })

  it('a failing change set is rejected without waiting, the others of its batch land', async () => {
    const store = new SqliteStore({path: tmp(), durability: 'full'})
    await store.commit({puts: [customer(1)]})
    const dup = store.commit({puts: [customer(1)]})
    const ok = store.commit({puts: [customer(2)]})
    await expect(dup).rejects.toThrow(/UNIQUE/)
    await expect(ok).resolves.toBeUndefined()
    expect(await store.all('customer')).toHaveLength(2)
    await store.close()
  })

  it('checkpoints on a worker thread: WAL pages reach the database file without this connection checkpointing', async () => {
    const path = tmp()
    const store = new SqliteStore({path, durability: 'full'})
    expect(store.db.pragma('wal_autocheckpoint', {simple: true})).toBe(10000)
    const before = statSync(path).size
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
    for (let w = 0; w < 5; w++) {
      await Promise.all(Array.from({length: 100}, (_, i) => store.commit({puts: [customer(w * 1000 + i)]})))
      await sleep(120)
    }
    for (let i = 0; i < 50 && statSync(path).size <= before; i++) await sleep(20)
    expect(statSync(path).size).toBeGreaterThan(before)
    expect(await store.all('customer')).toHaveLength(500)
    await store.close()
  })

  it("'normal' and ':memory:' stores do not sync", async () => {
    syncs.count = 0
    const normal = new SqliteStore({path: tmp(), durability: 'normal'})
    expect(normal.db.pragma('synchronous', {simple: true})).toBe(1)
    await normal.commit({puts: [customer(1)]})
    await normal.close()
    const mem = new SqliteStore({path: ':memory:'})
    await mem.commit({puts: [customer(1)]})
    expect(await mem.all('customer')).toHaveLength(1)
    await mem.close()
    expect(syncs.count).toBe(0)
  })
})
