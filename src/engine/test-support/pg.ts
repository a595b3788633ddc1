// PostgreSQL for tests: fresh databases on the run's throwaway cluster (test-support/pg-global-setup.ts).
import {randomBytes} from 'node:crypto'
import pg from 'pg'
import {inject} from 'vitest'

/** The run's cluster, as a URL of its maintenance database. */
export function clusterUrl(): string {
  const url = inject('pgUrl')
  if (!url) throw new Error('no PostgreSQL cluster: this test needs the vitest globalSetup test-support/pg-global-setup.ts')
  return url
}

/** Creates an empty database on the run's cluster and returns its URL. */
export async function freshDatabase(prefix = 'gw'): Promise<string> {
  const admin = clusterUrl()
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const c = new pg.Client({connectionString: admin})
  await c.connect()
  try {
    await c.query(`CREATE DATABASE ${name}`)
  } finally {
    await c.end()
  }
  const u = new URL(admin)
  u.pathname = `/${name}`
  return u.toString()
}

/** Runs SQL on a database as the cluster's superuser. */
export async function sql<R extends pg.QueryResultRow = any>(url: string, text: string, params?: unknown[]): Promise<R[]> {
  const c = new pg.Client({connectionString: url})
  await c.connect()
  try {
    return (await c.query<R>(text, params)).rows
  } finally {
    await c.end()
  }
}

/** The backends of an instance's claims connection (store/postgres/claim-batch.ts), found by its batch's query; `extra` adds conditions. */
export async function claimsBackends(url: string, instanceId: string, extra = ''): Promise<number[]> {
  return (await sql<{pid: number}>(url, `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE '%gw_claim_idempotency_batch%' ${extra}`, [instanceId])).map((r) => r.pid)
}

/** How many advisory locks a backend holds. */
export async function advisoryLocks(url: string, pid: number): Promise<number> {
  return (await sql<{n: number}>(url, "SELECT count(*)::int AS n FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND granted", [pid]))[0]!.n
}
