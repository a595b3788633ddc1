// The connections of units of work (units.ts): handed out strictly in the order asked for, and
// handed back without a round trip of their own where that is safe.
//
// A unit's transaction wrote nothing (its change set is committed by the committer); ending it
// (ROLLBACK) releases its locks and its idempotency claim. That was a round trip per unit. Now:
// - when another unit is waiting for a connection, the ended unit's connection goes to it with the
//   transaction open, and that unit's first statement starts with the ROLLBACK (sent in the same
//   turn: its claim, or before its first lock waits its turn here);
// - a unit that committed its idempotency record and took no lock leaves its connection parked,
//   transaction open, for at most PARK_MS: the next unit of this instance takes it (ROLLBACK in
//   its first statement), else it is ended then. What lingers meanwhile is only the claim of a key
//   whose record is committed: a retry of that key anywhere finds the record and replays it.
// Anything else (a lock taken, no record, a failed statement, nobody coming) is ended at once.
import type pg from 'pg'

/**
 * How long a parked connection keeps its ended unit's transaction open for the next unit. Each
 * instance of a fleet gets a share of the load, so the next unit comes later than it would to
 * one process: parked for 5 ms, three instances at ~40 payments a second each sent the ROLLBACK
 * alone for most units (2.1–2.2 round trips a payment against 1.2–1.3 for one instance); for
 * 50 ms 1.75, for 200 ms 1.49, for 1 s 1.38 (bench/pg-fleet.js, a loaded 2-core machine). What is
 * held meanwhile is only a try-lock on a key whose record is committed, and a connection that
 * the next unit takes first.
 */
export const PARK_MS = 200

export class UnitConnections {
  private tail: Promise<unknown> = Promise.resolve()
  /** units waiting for a connection (in `tail`) */
  private asking = 0
  private readonly parked: {c: pg.PoolClient; timer: NodeJS.Timeout}[] = []
  /** connections whose previous unit's transaction is still open: the next statement on one starts with ROLLBACK */
  private readonly unended = new WeakSet<pg.PoolClient>()

  constructor(
    private readonly pool: pg.Pool,
    private readonly closed: () => boolean,
  ) {}

  /**
   * A connection for a unit: a parked one when nobody is waiting, else the pool's, strictly in
   * the order asked for (the pool alone may hand a newly opened connection to a later asker), so
   * that units that take their locks in order keep that order.
   */
  connect(): Promise<pg.PoolClient> {
    if (this.asking === 0) {
      const c = this.takeParked()
      if (c) return Promise.resolve(c)
    }
    this.asking++
    const got = this.tail.then(() => this.takeParked() ?? this.pool.connect())
    this.tail = got.catch(() => {})
    void got.then(
      () => this.asking--,
      () => this.asking--,
    )
    return got
  }

  /**
   * The connection parked longest: each parked one is taken before its PARK_MS run out as long as
   * units come at least as often as connections are parked (its ROLLBACK then rides on the next
   * unit's first statement), and the longest-held claim ends first. Taking the newest left the
   * older ones to run out and send their ROLLBACKs alone whenever fewer units were in flight than
   * a moment before — at an instance's share of a fleet's load, most of the time.
   */
  private takeParked(): pg.PoolClient | undefined {
    const p = this.parked.shift()
    if (p) clearTimeout(p.timer)
    return p?.c
  }

  /** Whether `c`'s previous unit's transaction is still open (and forgets it: the caller ends it now). */
  takeUnended(c: pg.PoolClient): boolean {
    return this.unended.delete(c)
  }

  /**
   * Gives back an ended unit's connection without its ROLLBACK where the file's comment allows:
   * `parkable` (the unit committed its record and took no lock). False: the caller ends it.
   */
  giveBack(c: pg.PoolClient, parkable: boolean): boolean {
    if (this.closed()) return false
    if (this.pool.waitingCount > 0) {
      // the pool gives it to the unit waiting there, at once
      this.unended.add(c)
      c.release()
      return true
    }
    if (!parkable) return false
    this.unended.add(c)
    const entry = {c, timer: setTimeout(() => this.unpark(entry), PARK_MS)}
    this.parked.push(entry)
    return true
  }

  private unpark(entry: {c: pg.PoolClient; timer: NodeJS.Timeout}): void {
    const i = this.parked.indexOf(entry)
    if (i < 0) return
    this.parked.splice(i, 1)
    this.end(entry.c)
  }

  /** Ends `c`'s transaction if it is open, and gives it back to the pool. */
  end(c: pg.PoolClient): Promise<void> {
    this.unended.delete(c)
    return c.query('ROLLBACK').then(
      () => c.release(),
      (e: Error) => c.release(e),
    )
  }

  /** Ends every parked connection (the store closing). */
  async close(): Promise<void> {
    const all = this.parked.splice(0)
    for (const p of all) clearTimeout(p.timer)
    await Promise.all(all.map((p) => this.end(p.c).catch(() => {})))
  }
}
