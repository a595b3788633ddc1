// API keys (docs/decisions.md#api-keys): secret keys (sk_test_: everything the account may do), restricted keys
// (rk_test_: per-resource read or write permissions) and publishable keys (pk_test_: only what a
// browser may call). Keys are stored as SHA-256 hashes of the whole key: a leaked database holds
// no working key. Pure: no store, no clock, no randomness (app/keys.ts makes new keys).
import {invalid} from './errors.js'
import {KEY_RESOURCES} from '../../api/keys.js'

export type KeyType = 'secret' | 'restricted' | 'publishable'

/** What a restricted key can be given, one resource each, `read` or `write` (write includes read): src/api/keys.ts. */
export const RESOURCES = KEY_RESOURCES
export type Resource = (typeof RESOURCES)[number]
export type Level = 'read' | 'write'
/** `payments:read`; `none`: any secret or restricted key (the key's own account, the key itself) */
export type Permission = `${Resource}:${Level}` | 'api_keys:read' | 'api_keys:write' | 'none'

export const PREFIX: Record<KeyType, string> = {secret: 'sk_test_', restricted: 'rk_test_', publishable: 'pk_test_'}

/** The type a presented key claims by its prefix, if any. */
export function keyTypeOf(key: string): KeyType | undefined {
  if (key.startsWith('sk_test_')) return 'secret'
  if (key.startsWith('rk_test_')) return 'restricted'
  if (key.startsWith('pk_test_')) return 'publishable'
  return undefined
}

/**
 * The permissions a restricted key is given, checked and normalized: `resource:read` or
 * `resource:write`, or `*:read` / `*:write` for every resource; a write absorbs the read of its
 * resource; sorted. Key management and accounts are never a restricted key's (but accounts may be
 * given on the platform account).
 */
export function parsePermissions(list: unknown, opts: {platform: boolean}): string[] {
  if (!Array.isArray(list) || list.length === 0)
    throw invalid('permissions', `A restricted key needs permissions, e.g. ["payments:read", "refunds:write"]. Resources: ${RESOURCES.join(', ')}; levels: read, write (write includes read).`)
  const levels = new Map<string, Level>()
  for (const [i, raw] of list.entries()) {
    const m = typeof raw === 'string' ? /^([a-z_*]+):(read|write)$/.exec(raw) : null
    const resource = m?.[1]
    if (!m || !(resource === '*' || (RESOURCES as readonly string[]).includes(resource!))) {
      const hint = typeof raw === 'string' && raw.startsWith('api_keys') ? ' Keys are managed with a secret key only.' : ''
      throw invalid(`permissions[${i}]`, `permissions[${i}] must be resource:read or resource:write with a resource among ${RESOURCES.join(', ')} (or * for all); got ${JSON.stringify(raw)}.${hint}`)
    }
    if (resource === 'accounts' && !opts.platform)
      throw invalid(`permissions[${i}]`, `permissions[${i}]: accounts are managed by the engine's own account only; this account's keys cannot be given accounts:${m[2]}.`)
    const targets = resource === '*' ? RESOURCES.filter((r) => r !== 'accounts' || opts.platform) : [resource!]
    for (const r of targets) if (levels.get(r) !== 'write') levels.set(r, m[2] as Level)
  }
  return [...levels].map(([r, l]) => `${r}:${l}`).sort()
}

/** Whether a key with these permissions (null: a secret key, all of them) may do what `need` names. */
export function allows(type: KeyType, permissions: readonly string[] | null, need: Permission, platform: boolean): boolean {
  if (type === 'publishable') return false
  if (need.startsWith('api_keys:')) return type === 'secret'
  if (need.startsWith('accounts:') && !platform) return false
  if (need === 'none' || type === 'secret') return true
  const [resource, level] = need.split(':') as [string, Level]
  return permissions!.includes(`${resource}:write`) || (level === 'read' && permissions!.includes(`${resource}:read`))
}

/** Bounds of a rolled key's remaining life (seconds): at once, up to 7 days. */
export const MAX_ROLL_EXPIRY_S = 7 * 86_400
export const DEFAULT_ROLL_EXPIRY_S = 86_400
