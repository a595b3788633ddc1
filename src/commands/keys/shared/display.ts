// How API keys are shown (docs/decisions.md#api-keys): the list (the one in use marked), one key's view, its state.
import type {ApiKey, ApiKeyWithSecret} from '../../../api/types.js'
import type {Painter} from '../../../output/color.js'
import {compactTime as date, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'

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

/** A key; just made or rolled, with its secret. */
export function renderKey(k: ApiKey & Partial<ApiKeyWithSecret>, p: Painter): string {
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
