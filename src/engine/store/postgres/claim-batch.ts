// Idempotency claims of an instance's units of work, batched on one connection of their own
// (docs/api.md#several-instances-on-postgresql). A claim was a round trip on the unit's own
// connection (a transaction's try-lock, ended by its ROLLBACK); a payment took that connection
// for nothing else. Here every claim asked while the previous batch is out goes in the next one:
// one round trip, `gw_claim_idempotency_batch` (schema.ts, migration 7), takes session-level
// try-locks on the same keys as gw_claim_idempotency's (so the two exclude each other across
// instances of different versions) and reads each record after its lock.
//
// - A session lock is re-entrant: a key this connection holds for a unit here is not locked again
//   for another; that claim only reads the record (a replay, else in flight), as any other
//   instance's would.
// - A unit's claim is released when it ends. Its record committed, the unlock rides on the next
//   batch (or goes after RELEASE_MS with nobody claiming): meanwhile the key's record is durable,
//   so a retry anywhere replays it, and a claim here of that key takes the lock over. Without a
//   record it is released at once (a batch of its own if none is due), as a ROLLBACK did.
// - The connection lost: its locks are gone with it (as a unit's transaction's were), every claim
//   in flight or not yet sent fails as unavailable, and the next batch opens a new one.
import type pg from 'pg'
import {type IdempotencyClaim, StoreUnavailableError} from '../../ports/store.js'
import {connectClient, isoOf, isUnavailable, type PgConfig, pgText, query, wrap} from './sql.js'

/** How long a released claim whose record is committed waits for a batch to ride on. */
export const RELEASE_MS = 200

interface Ask {
  /** the scope and key as the unit gave them */
  given: {scope: string; key: string}
  account: string
  scope: string
  key: string
  lockKey: string
  /** false: this connection holds the key for another unit here (re-entrant), only read the record */
  lock: boolean
  now: string
  resolve: (r: {claim: IdempotencyClaim; held?: ClaimHold}) => void
  reject: (e: unknown) => void
}

/** A claim a unit holds: released by `ClaimBatch.release`. */
export interface ClaimHold {
  readonly lockKey: string
  readonly generation: number
}

type Row = {n: number; got: boolean; request_hash: string | null; status: number | null; body: string | null; created_at: string | null; expires_at: string | null}

export class ClaimBatch {
  private client: pg.Client | undefined
  private connecting: Promise<pg.Client> | undefined
  /** bumped when the connection is lost: holds of an older one are gone with it */
  private generation = 0
  /** keys this connection holds: by a unit (true), or released and waiting for their unlock to be sent (false) */
  private readonly held = new Map<string, boolean>()
  private asks: Ask[] = []
  private unlocks: string[] = []
  /** units waiting for their unlock to be sent (release without a record) */
  private unlocked: (() => void)[] = []
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined

  constructor(
    private readonly config: PgConfig,
    private readonly closed: () => boolean,
  ) {}

  /** Claims (scope, key) of `account` for a unit (Store's IdempotencyClaim), with what it then holds. */
  claim(account: string, scope: string, key: string, now: string): Promise<{claim: IdempotencyClaim; held?: ClaimHold}> {
    if (this.closed()) return Promise.reject(new Error('store is closed'))
    const a = pgText(account)
    const s = pgText(scope)
    const k = pgText(key)
    const lockKey = `i:${a}\n${s}\n${k}`
    return new Promise((resolve, reject) => {
      const ask = {given: {scope, key}, account: a, scope: s, key: k, lockKey, now, reject}
      const state = this.held.get(lockKey)
      if (state === false) {
        // released, its unlock not sent yet: this unit takes the lock over (and reads the record)
        this.unlocks.splice(this.unlocks.indexOf(lockKey), 1)
        this.held.set(lockKey, true)
        const held = {lockKey, generation: this.generation}
        this.asks.push({...ask, lock: false, resolve: (r) => resolve({claim: r.claim.state === 'in_flight' ? {state: 'claimed'} : r.claim, held})})
      } else {
        // held for another unit here: only the record is read
        if (state === undefined) this.held.set(lockKey, true)
        this.asks.push({...ask, lock: state === undefined, resolve})
      }
      this.schedule()
    })
  }

  /**
   * Ends a unit's claim: without a committed record at once (the promise: once the database has
   * released it), else with the next batch (RELEASE_MS at most).
   */
  release(h: ClaimHold, recorded: boolean): Promise<void> | undefined {
    if (h.generation !== this.generation || this.held.get(h.lockKey) !== true) return undefined
    this.held.set(h.lockKey, false)
    this.unlocks.push(h.lockKey)
    if (!recorded)
      return new Promise<void>((resolve) => {
        this.unlocked.push(resolve)
        this.schedule()
      })
    this.timer ??= setTimeout(() => {
      this.timer = undefined
      this.schedule()
    }, RELEASE_MS)
    return undefined
  }

  private schedule(): void {
    this.running ??= new Promise<void>((r) => setImmediate(r)).then(() => this.loop())
  }

  private async loop(): Promise<void> {
    try {
      while ((this.asks.length || this.unlocks.length) && !this.closed()) await this.send()
    } finally {
      this.running = undefined
      if ((this.asks.length || this.unlocks.length) && !this.closed()) this.schedule()
    }
  }

  private async send(): Promise<void> {
    const asks = this.asks
    const unlocks = this.unlocks
    const unlocked = this.unlocked
    this.asks = []
    this.unlocks = []
    this.unlocked = []
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    for (const u of unlocks) this.held.delete(u)
    const generation = this.generation
    let got: Row[]
    try {
      const c = await this.connection()
      got = (
        await query<Row>(c, 'SELECT n, got, request_hash, status, body, created_at::text AS created_at, expires_at::text AS expires_at FROM gw_claim_idempotency_batch($1, $2, $3, $4, $5)', [
          unlocks,
          asks.map((x) => x.account),
          asks.map((x) => x.scope),
          asks.map((x) => x.key),
          asks.map((x) => x.lock),
        ])
      ).rows
    } catch (e) {
      // what this connection held is unknown now: it is ended, and with it every lock it held
      this.lose(generation)
      for (const x of asks) x.reject(isUnavailable(e) ? wrap(e) : e)
      return
    } finally {
      for (const r of unlocked) r()
    }
    const byN = new Map(got.map((r) => [r.n, r]))
    asks.forEach((x, i) => {
      const r = byN.get(i + 1)
      if (!r) return x.reject(new Error('the idempotency claim returned no row'))
      if (x.lock && !r.got && this.generation === generation) this.held.delete(x.lockKey)
      const held = r.got ? {lockKey: x.lockKey, generation} : undefined
      if (r.request_hash !== null) {
        const expires = isoOf(r.expires_at!)
        if (expires > x.now) return x.resolve({claim: {state: 'recorded', record: {...x.given, request_hash: r.request_hash, status: Number(r.status), body: r.body!, created_at: isoOf(r.created_at!), expires_at: expires}}, held})
      }
      x.resolve({claim: r.got ? {state: 'claimed'} : {state: 'in_flight'}, held})
    })
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client)
    return (this.connecting ??= connectClient(this.config, (c) => {
      if (this.client === c) this.lose(this.generation)
    }).then(
      (c) => {
        this.connecting = undefined
        this.client = c
        return c
      },
      (e) => {
        this.connecting = undefined
        throw e
      },
    ))
  }

  /**
   * The connection's locks are gone (or unknown): it is ended and forgotten, and the claims not
   * sent yet fail too (some were answered from what it held: another unit's claim, a lock to take over).
   */
  private lose(generation: number): void {
    if (generation !== this.generation) return
    this.generation++
    this.held.clear()
    this.unlocks = []
    for (const r of this.unlocked.splice(0)) r()
    for (const x of this.asks.splice(0)) x.reject(new StoreUnavailableError('PostgreSQL is not reachable: the claims connection was lost'))
    const c = this.client
    this.client = undefined
    void c?.end().catch(() => {})
  }

  /** Ends the connection (the store closing): its claims go with it. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    for (const x of this.asks.splice(0)) x.reject(new Error('store is closed'))
    for (const r of this.unlocked.splice(0)) r()
    await this.running?.catch(() => {})
    const c = this.client
    this.client = undefined
    this.generation++
    this.held.clear()
    await c?.end().catch(() => {})
  }
}
