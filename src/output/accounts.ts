// How accounts and API keys are shown (issue 24).
import type {Account, ApiKey} from '../api/types.js'
import type {Painter} from './color.js'
import {renderFields} from './detail.js'
import type {Columns} from './table.js'

const date = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : '')
const metadata = (m: Record<string, string>) => (Object.keys(m).length ? Object.entries(m).map(([k, v]) => `${k}=${v}`).join(', ') : undefined)

export const accountColumns: Columns<Account> = {
  head: ['ID', 'NAME', 'METADATA', 'CREATED'],
  row: (a) => [a.id, a.name ?? '', metadata(a.metadata) ?? '', date(a.created_at)],
  fit: {drop: ['METADATA']},
}

export function renderAccount(a: Account, p: Painter): string {
  return renderFields(
    p.bold(a.id),
    [
      ['Name', a.name],
      ['Metadata', metadata(a.metadata)],
      ['Mode', a.livemode ? 'live' : 'test'],
      ['Created', a.created_at],
      ['Secret key', a.secret_key],
      ['Publishable key', a.publishable_key],
    ],
    p,
  )
}

/** A key's state as people read it: revoked, expired, expiring at..., or active. */
export function keyState(k: ApiKey, now = Date.now()): string {
  if (k.status === 'revoked') return 'revoked'
  if (k.expires_at !== null) return Date.parse(k.expires_at) <= now ? 'expired' : `expires ${date(k.expires_at)}`
  return 'active'
}

export const keyColumns = (inUse?: string): Columns<ApiKey> => ({
  head: ['ID', 'KEY', 'TYPE', 'NAME', 'PERMISSIONS', 'STATE', 'LAST USED'],
  row: (k, p) => [k.id === inUse ? `${k.id} ${p.green('(in use)')}` : k.id, k.redacted, k.type, k.name ?? '', k.permissions?.join(',') ?? (k.type === 'secret' ? 'all' : 'browser only'), keyState(k), date(k.last_used_at) || 'never'],
  fit: {drop: ['PERMISSIONS', 'LAST USED']},
})

export function renderKey(k: ApiKey, p: Painter): string {
  return renderFields(
    p.bold(k.id),
    [
      ['Key', k.secret ?? k.redacted],
      ['Type', k.type],
      ['Name', k.name],
      ['Permissions', k.permissions?.join(', ') ?? (k.type === 'secret' ? 'everything the account may do' : 'hosted checkout and card fields only (a browser)')],
      ['State', keyState(k)],
      ['Last used', k.last_used_at ?? 'never'],
      ['Created', k.created_at],
    ],
    p,
  )
}
