// The store contract: what every Store adapter must do, written against the port only.
// store/sqlite and store/postgres each run it from a *.test.ts of their own. Its cases are split
// by concern, one file each in this folder; every part runs inside the one describe below, on
// the handles its beforeEach opens.
import {afterEach, beforeEach, describe} from 'vitest'
import type {AccountStore} from '../../ports/store.js'
import {ACCT, type ContractHandles} from './helpers.js'
import {objectsCases} from './objects.js'
import {unitsCases} from './units.js'
import {claimsCases} from './claims.js'
import {feedCases} from './feed.js'
import {sectionsCases} from './sections.js'
import {instanceDeathCases} from './instance-death.js'
import {accountsCases} from './accounts.js'
import {snapshotsCases} from './snapshots.js'
import {sharedStateCases} from './shared-state.js'

export type {ContractHandles} from './helpers.js'

export function storeContract(name: string, open: () => Promise<ContractHandles>): void {
  describe(`Store contract: ${name}`, () => {
    let h: ContractHandles
    /** one account's data through the two handles */
    let a: AccountStore
    let b: AccountStore
    beforeEach(async () => {
      h = await open()
      a = h.a.account(ACCT)
      b = h.b.account(ACCT)
    })
    afterEach(async () => h.close())
    const bound = () => ({h, a, b})

    objectsCases(bound)
    unitsCases(bound)
    claimsCases(bound)
    feedCases(bound)
    sectionsCases(bound)
    instanceDeathCases(bound)
    accountsCases(bound)
    snapshotsCases(bound)
    sharedStateCases(bound)
  })
}
