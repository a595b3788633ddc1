// What `gw listen` keeps between runs, per profile: its signing secret (in the profile, in
// config.json, created once) and its cursor, the last event forwarded (in
// $XDG_CONFIG_HOME/gw/listen/<profile>.json), so a restart backfills what it missed.
import {randomBytes} from 'node:crypto'
import {mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {configDir} from '../../../config/paths.js'
import type {ConfigStore} from '../../../config/store.js'

export function newListenSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`
}

/** The profile's listen secret, created and saved on first use. */
export function listenSecret(store: ConfigStore, profile: string): {secret: string; created: boolean} {
  const existing = store.profile(profile)?.listen_secret
  if (existing) return {secret: existing, created: false}
  const secret = newListenSecret()
  store.updateProfile(profile, {listen_secret: secret})
  return {secret, created: true}
}

export interface ListenCursor {
  /** every event up to this one (in the log's order) was forwarded or given up on; null: the log was empty */
  last_event_id: string | null
  /** the API it belongs to */
  base_url?: string
  updated_at: string
}

export function cursorFile(profile: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'listen', `${profile.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`)
}

export function readCursor(profile: string, env?: NodeJS.ProcessEnv): ListenCursor | undefined {
  try {
    const c = JSON.parse(readFileSync(cursorFile(profile, env), 'utf8')) as ListenCursor
    if (c.last_event_id === null) return c
    return typeof c.last_event_id === 'string' && c.last_event_id.startsWith('evt_') ? c : undefined
  } catch {
    return undefined
  }
}

export function writeCursor(profile: string, cursor: ListenCursor, env?: NodeJS.ProcessEnv): void {
  const file = cursorFile(profile, env)
  mkdirSync(join(file, '..'), {recursive: true, mode: 0o700})
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(cursor) + '\n', {mode: 0o600})
  renameSync(tmp, file)
}
