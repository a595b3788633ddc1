// Rows staged for an account on PostgreSQL (a large snapshot loaded in parts, docs/decisions.md#large-snapshots: see
// StagedRows in the port). Each part is a short transaction of its own, on a pooled connection
// beside the committer, under an owner that is no account (`~staged~<ms>~<account>~<token>`: it
// sorts after every account id, and every query across accounts stops before it). The commit
// that takes them (ChangeSet.restoreStaged) deletes the account's rows and gives the staged ones
// its id, in the committer's code but on a connection of its own (committer.ts), so that other
// accounts' commits go on meanwhile. Staged rows given up are deleted; those an instance that
// stopped mid-load left behind are deleted by the next instance to start, once an hour old (an
// instance never deletes a load another may still be running).
import {randomBytes} from 'node:crypto'
import type pg from 'pg'
import {type AccountRows, STAGED_ACCOUNT_MARK, type StagedRows, UNSNAPSHOTTED, RESTORED_SETTINGS_SQL, KINDS, type Kind} from '../../ports/store.js'
import {emptyNotice, type Notice} from './feed.js'
import {TABLE} from './schema.js'
import {query, rows} from './sql.js'

type Q = (text: string, params?: unknown[]) => Promise<pg.QueryResult>

/** Every table with an account's rows (what replacing or deleting an account empties). */
export const ACCOUNT_TABLES = [...Object.values(TABLE), 'events', 'jobs', 'idempotency_keys', 'provider_stats', 'settings']
/** ... but the account's keys and the accounts it holds, which no snapshot replaces. */
const REPLACED_TABLES = ACCOUNT_TABLES.filter((t) => ![...UNSNAPSHOTTED].some((k) => TABLE[k] === t))

const PREFIX = `${STAGED_ACCOUNT_MARK}staged~`
/** Staged rows this old were left by an instance that stopped: deleted when an instance starts. */
export const STALE_STAGED_MS = 3_600_000

/** What the store does for its staged rows. */
export interface PgStagingHost {
  /** a connection of the load's own (its parts need no fsync of their own: the swap's commit makes them durable), ended by `release` */
  connect(): Promise<pg.Client>
  release(c: pg.Client): void
  /** inserts an account's rows as they are (committer.ts) */
  insert(q: Q, owner: string, rows: Partial<AccountRows>, n: Notice): Promise<void>
}

export class PgStaged implements StagedRows {
  readonly owner: string
  state: 'open' | 'swapped' | 'discarded' = 'open'
  readonly notice: Notice

  constructor(
    private readonly host: PgStagingHost,
    readonly account: string,
  ) {
    this.owner = `${PREFIX}${Date.now()}~${account}~${randomBytes(9).toString('base64url')}`
    this.notice = emptyNotice(account)
  }

  /** the load's own connection: the parts are written beside the pools other requests read and write through */
  private conn: Promise<pg.Client> | undefined

  async add(part: Partial<AccountRows>): Promise<void> {
    if (this.state !== 'open') throw new Error(`rows staged for ${this.account} were ${this.state} already`)
    await this.inTx((q) => this.host.insert(q, this.owner, part, this.notice))
  }

  private async inTx(fn: (q: Q) => Promise<void>): Promise<void> {
    const c = await (this.conn ??= this.host.connect())
    const q: Q = (text, params) => query(c, text, params)
    await q('BEGIN')
    try {
      await fn(q)
      await q('COMMIT')
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {})
      throw e
    }
  }

  async discard(): Promise<void> {
    if (this.state !== 'open') return
    this.state = 'discarded'
    try {
      await this.inTx(async (q) => {
        for (const t of ACCOUNT_TABLES) await q(`DELETE FROM ${t} WHERE account = $1`, [this.owner])
      })
    } finally {
      this.release()
    }
  }

  /** Ends the load's connection (the rows were swapped in or deleted). */
  release(): void {
    const conn = this.conn
    this.conn = undefined
    void conn?.then((c) => this.host.release(c), () => {})
  }
}

/** In the committing transaction: the account's rows (but its keys, the accounts it holds and the engine's settings) replaced by the staged ones. */
export async function swapStaged(q: Q, account: string, staged: PgStaged, n: Notice): Promise<void> {
  if (staged.state !== 'open' || staged.account !== account) throw new Error('these staged rows are not open rows of this account')
  for (const t of REPLACED_TABLES) await q(`DELETE FROM ${t} WHERE account = $1${t === 'settings' ? ` AND ${RESTORED_SETTINGS_SQL}` : ''}`, [account])
  for (const t of REPLACED_TABLES) await q(`UPDATE ${t} SET account = $1 WHERE account = $2`, [account, staged.owner])
  for (const k of Object.keys(KINDS) as Kind[]) if (!UNSNAPSHOTTED.has(k)) n.kinds.add(k)
  n.settings.push(...staged.notice.settings)
  n.dueBy = staged.notice.dueBy
  n.restored = true
}

/** Deletes staged rows an instance that stopped left behind (older than STALE_STAGED_MS). */
export async function purgeStale(on: pg.Pool): Promise<number> {
  const owners = new Set<string>()
  for (const t of ACCOUNT_TABLES) for (const r of await rows<{account: string}>(on, `SELECT DISTINCT account FROM ${t} WHERE account >= $1 AND account < $2`, [PREFIX, `${PREFIX}\u007f`])) owners.add(r.account)
  let gone = 0
  for (const owner of owners) {
    const at = Number(owner.slice(PREFIX.length).split('~')[0])
    if (!(Date.now() - at > STALE_STAGED_MS)) continue
    for (const t of ACCOUNT_TABLES) await query(on, `DELETE FROM ${t} WHERE account = $1`, [owner])
    gone++
  }
  return gone
}
