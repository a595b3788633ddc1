// Rows staged for an account on SQLite (a large snapshot loaded in parts, docs/decisions.md#large-snapshots: see
// StagedRows in the port). SQLite has one writer: a snapshot written in one transaction holds
// every other account's commits back until it is done. Staged rows are written instead in parts,
// each a short transaction of its own between the others' group commits, under an account number
// of their own that names no account (`~staged~...` in account_numbers). The commit that takes
// them (ChangeSet.restoreStaged, compile.ts) makes that number the account's — its keys, the
// accounts it holds and the engine's settings moved over — in a few statements, however many
// rows were staged; the account's old rows, under a renamed number, are deleted afterwards in
// parts, as are staged rows given up and any a stopped process left behind.
import {randomBytes} from 'node:crypto'
import {type AccountRows, STAGED_ACCOUNT_MARK, type StagedRows} from '../../ports/store.js'
import type {StagedPart} from './compile.js'

/** What the store does for its staged rows. */
export interface StagingHost {
  /** writes a part of them (one short transaction) */
  stage(s: SqliteStaged, rows: Partial<AccountRows>): Promise<void>
  /** deletes every row under a number, in parts, then the number */
  purge(n: number): Promise<void>
}

const token = () => randomBytes(9).toString('base64url')

/** The name of the rows staged for an account, in account_numbers. */
export const stagedName = (account: string) => `${STAGED_ACCOUNT_MARK}staged~${account}~${token()}`
/** The name an account's replaced number takes until its rows are gone. */
export const retiredName = (account: string) => `${STAGED_ACCOUNT_MARK}replaced~${account}~${token()}`

export class SqliteStaged implements StagedRows {
  /** the number its rows carry, given with the first part (or by the swap, when nothing was staged) */
  number: number | undefined
  state: 'open' | 'swapped' | 'discarded' = 'open'
  readonly part: Omit<StagedPart, 'number'> & {settings: string[]} = {dueBy: null, settings: []}
  readonly name: string

  constructor(
    private readonly host: StagingHost,
    readonly account: string,
  ) {
    this.name = stagedName(account)
  }

  async add(rows: Partial<AccountRows>): Promise<void> {
    if (this.state !== 'open') throw new Error(`rows staged for ${this.account} were ${this.state} already`)
    await this.host.stage(this, rows)
  }

  async discard(): Promise<void> {
    if (this.state !== 'open') return
    this.state = 'discarded'
    if (this.number !== undefined) await this.host.purge(this.number)
  }
}
