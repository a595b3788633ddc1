// One account's settings and provider statistics in the SQLite adapter.
import type {StatIncrement} from '../../ports/store.js'
import type {SqliteStore} from './sqlite-store.js'
import {transact} from './units.js'

export function statsSince(s: SqliteStore, account: string, day: string): StatIncrement[] {
  return s.stmt('SELECT provider, day, approved, total FROM provider_stats WHERE account = ? AND day >= ? ORDER BY provider, day').all(s.no(account), day) as StatIncrement[]
}

export function getSetting(s: SqliteStore, account: string, key: string): string | undefined {
  const r = s.stmt('SELECT value FROM settings WHERE account = ? AND key = ?').get(s.no(account), key) as {value: string} | undefined
  return r?.value
}

/** Adds to a numeric setting in a unit of work of its own (the setting's lock); the new value. */
export function addToSetting(s: SqliteStore, account: string, key: string, delta: number): Promise<number> {
  return transact(s, account, async (tx) => {
    await tx.lock(`setting:${key}`)
    const next = Number(getSetting(s, account, key) ?? '0') + delta
    tx.commit({settings: {[key]: String(next)}})
    return next
  })
}
