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
      // the pids first, then the terminations: in one WHERE, PostgreSQL may call pg_terminate_backend before it checks the name (and end this very connection)
      const pids = (await sql<{pid: number}>(url, 'SELECT pid FROM pg_stat_activity WHERE application_name = $1', [a.instanceId])).map((r) => r.pid)
      await sql(url, 'SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids])
      // the backends end (and release what they held) a moment after they are told to
      while ((await sql<{n: number}>(url, 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1::int[])', [pids]))[0]!.n > 0) await new Promise((r) => setTimeout(r, 10))
      return b
    },
    async close() {
      await Promise.all([a.close(), b.close()])
    },
  }
})
