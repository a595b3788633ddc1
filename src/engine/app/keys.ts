// API keys (docs/decisions.md#api-keys): create, list, roll, revoke; and authentication of a presented key, which
// the HTTP pipeline asks for every request. Keys are kept as SHA-256 hashes; a presented key is
// hashed and looked up by its hash, whatever account holds it (one indexed read, then cached
// until the store's change feed says a key of that account changed, on any instance).
// Key times (creation, expiry, last use) are wall-clock times, never the test clock: a rolled
// key's old secret must stop working when the person rolling it expects, whatever a test run
// does to its account's clock.
import * as crypto from 'node:crypto'
import type {ApiKey} from '../../api/types.js'
import {badState, DomainError, invalid, notFound} from '../domain/errors.js'
import {listPage, type PageQuery} from '../core/lists.js'
import {DEFAULT_ROLL_EXPIRY_S, keyTypeOf, MAX_ROLL_EXPIRY_S, parsePermissions, PREFIX, type KeyType} from '../domain/keys.js'
import {redactSecret} from '../../api/keys.js'
import {PLATFORM_ACCOUNT, type ListPage, type Store} from '../ports/store.js'
import type {Core} from '../core/core.js'
import type {Unit} from '../core/unit.js'
import type {Body} from '../../api/types.js'

export type KeyRecord = ApiKey & {_x: {secret_hash: string; /** set on a key the engine was started with: the data dir or instance that registered it */ engine_source?: string}}

/** At most this many keys that are not revoked per account. */
export const MAX_ACTIVE_KEYS = 100

// one-shot hashing, no Hash object per call (crypto.hash: node >= 20.12)
const oneShotHash = (crypto as unknown as {hash(algorithm: string, data: string, encoding: 'hex'): string}).hash
/** The stored form of a key: the hex SHA-256 of the whole key (keys are ~190 random bits: no slow hash is needed). */
export const hashKey = (key: string): string => oneShotHash('sha256', key, 'hex')

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A new key: the prefix of its type and 32 random base62 characters (~190 bits). */
function newSecret(type: KeyType): string {
  let s = PREFIX[type]
  // 248 = 4 x 62: bytes at or above it are dropped, so every character is equally likely
  while (s.length < PREFIX[type].length + 32) for (const b of crypto.randomBytes(48)) if (b < 248 && s.length < PREFIX[type].length + 32) s += ALPHABET[b % 62]
  return s
}

const wallNow = () => new Date()

/** A new key object and its secret (returned once). */
export function makeKey(core: Pick<Core, 'ids' | 'livemode'>, type: KeyType, opts: {name?: string | null; permissions?: string[] | null; engineSource?: string; secret?: string}): {key: KeyRecord; secret: string} {
  const secret = opts.secret ?? newSecret(type)
  const key: KeyRecord = {
    id: core.ids.next('key'),
    object: 'api_key',
    type,
    name: opts.name ?? null,
    redacted: redactSecret(secret),
    permissions: type === 'restricted' ? (opts.permissions ?? []) : null,
    status: 'active',
    expires_at: null,
    last_used_at: null,
    revoked_at: null,
    livemode: core.livemode,
    created_at: wallNow().toISOString(),
    _x: {secret_hash: hashKey(secret), ...(opts.engineSource !== undefined ? {engine_source: opts.engineSource} : {})},
  }
  return {key, secret}
}

/** The key as the API shows it, with its secret when it was just made. */
const withSecret = (key: KeyRecord, secret: string): KeyRecord & {secret: string} => ({...key, secret})

/** POST /api_keys: the body as the document defines it. */
export type CreateKey = Body<'createApiKey'>

/** POST /api_keys: a restricted key by default (permissions required), or a secret or publishable key. */
export async function createKey(u: Unit, b: CreateKey): Promise<KeyRecord & {secret: string}> {
  const type = b.type ?? 'restricted'
  const platform = u.core.account === PLATFORM_ACCOUNT
  let permissions: string[] | null = null
  if (type === 'restricted') permissions = parsePermissions(b.permissions, {platform})
  else if (b.permissions !== undefined) throw invalid('permissions', `A ${type} key has no permissions of its own (${type === 'secret' ? 'it may do everything the account may' : 'it works only where a browser may call'}); use type restricted to choose them.`)
  await u.lock('api_keys')
  const active = await u.all<KeyRecord, 'api_key'>('api_key')
  if (active.filter((k) => k.status === 'active').length >= MAX_ACTIVE_KEYS)
    throw badState('api_key_limit', `An account has at most ${MAX_ACTIVE_KEYS} keys that are not revoked. Revoke keys you no longer use (gw keys revoke ID).`)
  const {key, secret} = makeKey(u.core, type, {name: b.name ?? null, permissions})
  u.put('api_key', key)
  return withSecret(key, secret)
}

async function loadKey(u: Pick<Unit, 'get'>, id: string): Promise<{obj: KeyRecord; version: number}> {
  const got = id.startsWith('key_') ? await u.get<KeyRecord>('api_key', id) : undefined
  if (!got) throw notFound('api key', id)
  return got
}

export async function listKeys(core: Core, q: PageQuery<'listApiKeys'>): Promise<ListPage<KeyRecord>> {
  return listPage<KeyRecord, 'api_key'>(core, 'api_key', q, q.type ? [{field: 'type', op: 'eq', value: q.type}] : [], 'api key')
}

export async function retrieveKey(core: Core, id: string): Promise<KeyRecord> {
  return (await loadKey(core.store, id)).obj
}

/**
 * POST /api_keys/{id}/roll: a new key of the same type, name and permissions; the old one keeps
 * working until `expires_in` seconds from now (wall clock; default 24 h, 0: at once), as Stripe's
 * roll does, so what uses it can be redeployed first.
 */
export async function rollKey(u: Unit, id: string, b: {expires_in?: number}): Promise<KeyRecord & {secret: string}> {
  const expiresIn = b.expires_in ?? DEFAULT_ROLL_EXPIRY_S
  if (!Number.isInteger(expiresIn) || expiresIn < 0 || expiresIn > MAX_ROLL_EXPIRY_S)
    throw invalid('expires_in', `expires_in is the seconds the old key keeps working, 0 (at once) to ${MAX_ROLL_EXPIRY_S} (7 days); got ${JSON.stringify(b.expires_in)}.`)
  await u.lock(id)
  const {obj, version} = await loadKey(u, id)
  if (obj.status === 'revoked') throw badState('api_key_revoked', `Key ${id} is revoked: create a new key instead (gw keys create).`)
  const now = wallNow()
  if (obj.expires_at !== null && obj.expires_at <= now.toISOString()) throw badState('api_key_expired', `Key ${id} expired at ${obj.expires_at}: create a new key instead.`)
  const expires = new Date(now.getTime() + expiresIn * 1000).toISOString()
  // an earlier roll's expiry is never pushed back
  u.put('api_key', {...obj, expires_at: obj.expires_at !== null && obj.expires_at < expires ? obj.expires_at : expires}, version)
  const {key, secret} = makeKey(u.core, obj.type, {name: obj.name, permissions: obj.permissions, engineSource: obj._x.engine_source})
  u.put('api_key', key)
  return withSecret(key, secret)
}

/** POST /api_keys/{id}/revoke: the key stops working at once, on every instance. */
export async function revokeKey(u: Unit, id: string): Promise<KeyRecord> {
  await u.lock(id)
  const {obj, version} = await loadKey(u, id)
  if (obj.status === 'revoked') return obj
  const key: KeyRecord = {...obj, status: 'revoked', revoked_at: wallNow().toISOString()}
  u.put('api_key', key, version)
  return key
}

/**
 * The key a data dir's (or `--api-key`'s) secret names, registered as a secret key of the
 * platform account: a key of this source with another secret is revoked (the operator changed
 * it), a revoked one stays revoked (said in the log), a new one is added. Keys of other sources
 * (other instances of a fleet) stay: each instance's key works on every instance.
 */
export async function registerEngineKey(core: Core, secret: string, source: string): Promise<void> {
  const hash = hashKey(secret)
  await core.run({}, async (u) => {
    await u.lock('api_keys')
    const keys = await u.all<KeyRecord, 'api_key'>('api_key')
    const mine = keys.find((k) => k._x.secret_hash === hash)
    if (mine?.status === 'revoked') core.log(`keys: the engine key ${mine.redacted} (${mine.id}) was revoked and does not work; start with --api-key sk_test_... or remove the key file to make a new one.`)
    for (const k of keys)
      if (k._x.engine_source === source && k._x.secret_hash !== hash && k.status === 'active') {
        const got = await u.get<KeyRecord>('api_key', k.id)
        u.put('api_key', {...got!.obj, status: 'revoked', revoked_at: wallNow().toISOString()}, got!.version)
      }
    if (!mine) u.put('api_key', makeKey(core, 'secret', {name: 'engine', engineSource: source, secret}).key)
  })
}

/** Who a request is: the account and the key that made it. */
export interface Caller {
  account: string
  livemode: boolean
  key: KeyRecord
}

const LAST_USED_EVERY_MS = 60_000

/**
 * Authentication for every request: a presented key is hashed and looked up by its hash (then
 * cached: the change feed drops an account's cached keys when one of its keys changes, on any
 * instance, so a revocation holds everywhere within the feed's delay; a lookup that was reading
 * when keys changed is not cached).
 */
export class KeyAuthority {
  /** by the key as presented (hashing is the cost of a miss only) */
  private readonly cache = new Map<string, {account: string; key: KeyRecord}>()
  /** moves on every drop: a lookup that read the store before a drop does not cache what it read */
  private generation = 0
  /** when each key's last use was last written (wall ms) */
  private readonly lastUseWritten = new Map<string, number>()
  private readonly unsubscribe: () => void

  constructor(
    private readonly store: Store,
    private readonly core: (account: string) => Promise<Core>,
  ) {
    this.unsubscribe = store.onChange((n) => {
      if (!(n.purged || n.kinds.has('api_key') || n.account === '*')) return
      this.generation++
      for (const [k, e] of this.cache) if (n.account === '*' || e.account === n.account) this.cache.delete(k)
    }, 'shared')
  }

  close(): void {
    this.unsubscribe()
  }

  async authenticate(presented: string): Promise<Caller> {
    let hit = this.cache.get(presented)
    if (!hit) {
      const generation = this.generation
      const found = keyTypeOf(presented) ? await this.store.locate<KeyRecord>('api_key', 'secret_hash', hashKey(presented)) : undefined
      if (!found) throw unknownKey(presented)
      hit = {account: found.account, key: found.obj}
      if (generation === this.generation) this.cache.set(presented, hit)
    }
    const key = hit.key
    if (key.status === 'revoked') throw new DomainError('authentication', 'api_key_revoked', `This API key (${key.redacted}) was revoked at ${key.revoked_at}. Ask for a new key, or create one with a secret key (gw keys create).`)
    const now = Date.now()
    if (key.expires_at !== null && Date.parse(key.expires_at) <= now)
      throw new DomainError('authentication', 'api_key_expired', `This API key (${key.redacted}) expired at ${key.expires_at}: it was rolled. Use the key that replaced it.`)
    if ((this.lastUseWritten.get(key.id) ?? 0) + LAST_USED_EVERY_MS <= now) this.noteUse(hit.account, key.id, now)
    return {account: hit.account, livemode: key.livemode, key}
  }

  /** Writes the key's last use (to the minute) in the background, at most once a minute per key: never on the request's path. */
  private noteUse(account: string, id: string, now: number): void {
    this.lastUseWritten.set(id, now)
    const at = new Date(now - (now % 60_000)).toISOString()
    void this.core(account)
      .then((core) =>
        core.run({}, async (u) => {
          await u.lock(id)
          const got = await u.get<KeyRecord>('api_key', id)
          if (got && (got.obj.last_used_at ?? '') < at) u.put('api_key', {...got.obj, last_used_at: at}, got.version)
        }),
      )
      .catch(() => this.lastUseWritten.delete(id)) // the store unreachable: the next use tries again
  }
}

function unknownKey(key: string): DomainError {
  if (key.startsWith('sk_live_') || key.startsWith('rk_live_') || key.startsWith('pk_live_'))
    return new DomainError('authentication', 'live_mode_unavailable', "Live mode needs real provider connections, and this local engine runs test mode only (simulated providers). Use the engine's sk_test_ key.")
  return new DomainError('authentication', 'api_key_invalid', `Invalid API key provided: ${redactSecret(key)}.`)
}
