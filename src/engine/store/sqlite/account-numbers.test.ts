// Rows carry their account as a number this process gives (account_numbers): what is written
// under a number must be found under the same account after a restart, whatever failed before.
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {describe, expect, it} from 'vitest'
import {tempDirs} from '../../test-support/tmp.js'
import {SqliteStore} from './sqlite-store.js'
import {PLATFORM_ACCOUNT, VersionConflictError} from '../../ports/store.js'

const dir = tempDirs('gw-acctno-')
const at = '2030-01-01T00:00:00.000Z'
const customer = (id: string) => ({kind: 'customer' as const, obj: {id, created_at: at, email: `${id}@example.com`}})

describe('SqliteStore account numbers', () => {
  it('numbers accounts as they first write; after a restart each account finds its rows and a new account gets a number of its own', async () => {
    const path = join(dir(), 'gw.db')
    let store = new SqliteStore({path, durability: 'normal'})
    await store.account('acct_a').commit({puts: [customer('cus_1')], addJobs: [{id: 'job_a', kind: 'k', ref: 'r', due_at: at}]})
    await store.account('acct_b').commit({puts: [customer('cus_1')]})
    await store.close()

    store = new SqliteStore({path, durability: 'normal'})
    await store.account('acct_c').commit({puts: [customer('cus_1')]})
    for (const a of ['acct_a', 'acct_b', 'acct_c']) expect((await store.account(a).all<{id: string; created_at: string; email: string}>('customer')).map((c) => c.email)).toEqual(['cus_1@example.com'])
    expect(await store.account('acct_never').all('customer')).toEqual([])
    expect((await store.nextJobs()).map((j) => j.account)).toEqual(['acct_a'])
    expect((await store.locate('customer', 'id', 'cus_1'))?.account).toMatch(/^acct_[abc]$/)
    await store.close()

    const db = new Database(path, {readonly: true})
    const numbers = db.prepare('SELECT n, id FROM account_numbers ORDER BY n').all() as {n: number; id: string}[]
    db.close()
    expect(numbers.map((r) => r.id)).toEqual([PLATFORM_ACCOUNT, 'acct_a', 'acct_b', 'acct_c'])
    expect(new Set(numbers.map((r) => r.n)).size).toBe(4)
  })

  it("an account whose first change set failed is numbered by its next one: nothing written under a number that was never recorded", async () => {
    const path = join(dir(), 'gw.db')
    let store = new SqliteStore({path, durability: 'normal'})
    // an update of a customer that is not there: the change set fails, and with it the number's record
    await expect(store.account('acct_x').commit({puts: [{...customer('cus_9'), expectVersion: 1}]})).rejects.toBeInstanceOf(VersionConflictError)
    await store.account('acct_x').commit({puts: [customer('cus_9')]})
    await store.close()
    store = new SqliteStore({path, durability: 'normal'})
    expect((await store.account('acct_x').get('customer', 'cus_9'))?.version).toBe(1)
    await store.close()
  })

  it('a purged account keeps its number (never given again); a new account is not handed its rows', async () => {
    const path = join(dir(), 'gw.db')
    let store = new SqliteStore({path, durability: 'normal'})
    await store.account('acct_p').commit({puts: [customer('cus_p')]})
    await store.account(PLATFORM_ACCOUNT).commit({purgeAccount: 'acct_p'})
    await store.close()
    store = new SqliteStore({path, durability: 'normal'})
    await store.account('acct_q').commit({puts: [customer('cus_q')]})
    expect(await store.account('acct_q').all('customer')).toHaveLength(1)
    expect(await store.account('acct_p').all('customer')).toEqual([])
    await store.close()
  })
})
