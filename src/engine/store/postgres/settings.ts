// One account's settings and provider statistics in the PostgreSQL adapter.
import type {StatIncrement} from '../../ports/store.js'
import {emptyNotice, type Notice, notify} from './feed.js'
import type {PostgresStore} from './postgres-store.js'
import {query, rows} from './sql.js'

export function statsSince(s: PostgresStore, account: string, day: string): Promise<StatIncrement[]> {
  return rows<StatIncrement>(s.readPool, 'SELECT provider, day, approved, total FROM provider_stats WHERE account = $1 AND day >= $2 ORDER BY provider, day', [account, day])
}

export async function getSetting(s: PostgresStore, account: string, key: string): Promise<string | undefined> {
  return (await rows<{value: string}>(s.readPool, 'SELECT value FROM settings WHERE account = $1 AND key = $2', [account, key]))[0]?.value
}

export async function addToSetting(s: PostgresStore, account: string, key: string, delta: number): Promise<number> {
  const n: Notice = {...emptyNotice(account), settings: [key]}
  const next = await s.inTx(async (c) => {
    await query(c, 'SET LOCAL synchronous_commit = on')
    const v = Number(
      (
        await rows<{value: string}>(
          c,
          `INSERT INTO settings AS s (account, key, value) VALUES ($1, $2, $3::bigint::text)
           ON CONFLICT (account, key) DO UPDATE SET value = (s.value::bigint + $3::bigint)::text RETURNING value`,
          [account, key, delta],
        )
      )[0]!.value,
    )
    await notify(c, s.instanceId, [n])
    return v
  })
  s.notifyLocal([n])
  return next
}
