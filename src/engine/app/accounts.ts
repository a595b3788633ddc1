// Accounts (docs/decisions.md#accounts): each a complete, independent gateway sharing the engine, with its own
// objects, events, webhooks, keys, rate limit and test clock. The platform account (the engine's
// own, whose key `gw login --local` saves) creates, lists and deletes them; an account object is
// one of its objects. Creating one is a single unit of work of the platform account that also
// writes, in the new account, its first secret and publishable keys and its settlement schedule.
import type {Account, AccountWithKeys} from '../../api/types.js'
import {badState, notFound} from '../domain/errors.js'
import {listPage, type PageQuery} from '../core/lists.js'
import {PLATFORM_ACCOUNT, type ListPage} from '../ports/store.js'
import type {Core} from '../core/core.js'
import {makeKey} from './keys.js'
import {seedSettlement} from './settlement.js'
import type {Unit} from '../core/unit.js'
import type {Body} from '../../api/types.js'

/** POST /accounts and POST /accounts/{id}: the body as the document defines it. */
export type AccountFields = Body<'updateAccount'>

/** The platform account's own object (made once, at start). */
export async function ensurePlatformAccount(core: Core): Promise<void> {
  if (await core.store.get('account', PLATFORM_ACCOUNT)) return
  await core.run({}, async (u) => {
    await u.lock(PLATFORM_ACCOUNT)
    if (await u.get('account', PLATFORM_ACCOUNT)) return
    const a: Account = {id: PLATFORM_ACCOUNT, object: 'account', name: 'default', metadata: {}, livemode: u.livemode, created_at: new Date().toISOString()}
    u.put('account', a)
  })
}

/** POST /accounts: the account, with its secret and publishable keys (shown once). */
export async function createAccount(u: Unit, b: AccountFields): Promise<AccountWithKeys> {
  const now = new Date()
  const account: Account = {id: u.core.ids.next('acct'), object: 'account', name: b.name ?? null, metadata: b.metadata ?? {}, livemode: u.livemode, created_at: now.toISOString()}
  u.put('account', account)
  const other = u.also(account.id)
  const secret = makeKey(u.core, 'secret', {name: 'default'})
  const publishable = makeKey(u.core, 'publishable', {name: 'default'})
  other.put('api_key', secret.key)
  other.put('api_key', publishable.key)
  // its clock starts at the wall clock's now, whatever this account's test clock says
  seedSettlement(other, now)
  return {...account, secret_key: secret.secret, publishable_key: publishable.secret}
}

async function loadAccount(u: Pick<Unit, 'get'>, id: string) {
  const got = id.startsWith('acct_') ? await u.get<Account>('account', id) : undefined
  if (!got) throw notFound('account', id)
  return got
}

export async function listAccounts(core: Core, q: PageQuery<'listAccounts'>): Promise<ListPage<Account>> {
  return listPage<Account, 'account'>(core, 'account', q, [], 'account')
}

export async function retrieveAccount(core: Core, id: string): Promise<Account> {
  return (await loadAccount(core.store, id)).obj
}

/** GET /account: the account of the key in use (its object is one of the platform account's). */
export async function currentAccount(core: Core): Promise<Account> {
  const got = await core.engineStore.account(PLATFORM_ACCOUNT).get<Account>('account', core.account)
  if (!got) throw notFound('account', core.account)
  return got.obj
}

export async function updateAccount(u: Unit, id: string, b: AccountFields): Promise<Account> {
  await u.lock(id)
  const {obj, version} = await loadAccount(u, id)
  const a: Account = {...obj}
  if (b.name !== undefined) a.name = b.name
  if (b.metadata !== undefined) a.metadata = {...a.metadata, ...b.metadata}
  u.put('account', a, version)
  return a
}

/** DELETE /accounts/{id}: the account and every row of it, in one commit (also the "flush" of a test suite). */
export async function deleteAccount(u: Unit, id: string): Promise<{id: string; object: 'account'; deleted: true}> {
  if (id === PLATFORM_ACCOUNT) throw badState('account_not_deletable', `${PLATFORM_ACCOUNT} is the engine's own account: it cannot be deleted (its data goes with the data dir or database).`)
  await u.lock(id)
  const {obj} = await loadAccount(u, id)
  u.delete('account', obj.id)
  u.purge(obj.id)
  return {id: obj.id, object: 'account', deleted: true}
}
