import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {storeContract} from '../contract/store-contract.js'
import {SqliteStore} from './sqlite-store.js'

// One engine instance owns a SQLite data dir, so both handles are the same store.
for (const durability of ['full', 'normal'] as const) {
  storeContract(`sqlite (${durability})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-store-'))
    const store = new SqliteStore({path: join(dir, 'gw.db'), durability})
    const stores = [store]
    return {
      a: store,
      b: store,
      // the process that owned the data dir is gone: a new one opens it (the dead one's
      // connection is only closed at the end, as the operating system would have)
      async kill() {
        const next = new SqliteStore({path: join(dir, 'gw.db'), durability})
        stores.push(next)
        return next
      },
      async close() {
        for (const s of stores) await s.close()
        rmSync(dir, {recursive: true, force: true})
      },
    }
  })
}
