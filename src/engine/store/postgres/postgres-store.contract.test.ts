import {storeContract} from '../contract/store-contract.js'
import {freshDatabase, sql} from '../../test-support/pg.js'
import {PostgresStore} from './postgres-store.js'

// Two Store instances on one database: two engine instances, as `gw serve --store` runs them.
storeContract('postgres (two instances on one database)', async () => {
  const url = await freshDatabase('contract')
  const a = await PostgresStore.open({url, unitConnections: 8, readConnections: 4})
  const b = await PostgresStore.open({url, unitConnections: 8, readConnections: 4})
  return {
    a,
    b,
    // what PostgreSQL sees when an instance's process dies: its connections close
    async kill() {
      await sql(url, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [a.instanceId])
      return b
    },
    async close() {
      await Promise.all([a.close(), b.close()])
    },
  }
})
