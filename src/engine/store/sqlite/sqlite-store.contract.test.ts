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
    return {
      a: store,
      b: store,
      async close() {
        await store.close()
        rmSync(dir, {recursive: true, force: true})
      },
    }
  })
}
