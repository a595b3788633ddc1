// The connections of units of work (units.ts): handed out strictly in the order asked for, and
// handed back without a round trip of their own where that is safe.
//
// A unit's transaction wrote nothing (its change set is committed by the committer); ending it
// (ROLLBACK) releases its locks. When another unit is waiting for a connection, the ended unit's
// connection goes to it with the transaction open, and that unit sends the ROLLBACK before its
// first lock waits its turn. Otherwise it is ended at once. (Idempotency claims hold no unit
// connection: claim-batch.ts.)
import type pg from 'pg'

export class UnitConnections {
  private tail: Promise<unknown> = Promise.resolve()
  /** connections whose previous unit's transaction is still open: the next statement on one starts with ROLLBACK */
  private readonly unended = new WeakSet<pg.PoolClient>()

  constructor(
    private readonly pool: pg.Pool,
    private readonly closed: () => boolean,
  ) {}

  /**
   * A connection for a unit, strictly in the order asked for (the pool alone may hand a newly
   * opened connection to a later asker), so that units that take their locks in order keep that order.
   */
  connect(): Promise<pg.PoolClient> {
    const got = this.tail.then(() => this.pool.connect())
    this.tail = got.catch(() => {})
    return got
  }

  /** Whether `c`'s previous unit's transaction is still open (and forgets it: the caller ends it now). */
  takeUnended(c: pg.PoolClient): boolean {
    return this.unended.delete(c)
  }

  /** Gives an ended unit's connection to a unit waiting for one, its transaction still open (the file's comment). False: the caller ends it. */
  giveBack(c: pg.PoolClient): boolean {
    if (this.closed() || this.pool.waitingCount === 0) return false
    this.unended.add(c)
    c.release()
    return true
  }

  /** Ends `c`'s transaction if it is open, and gives it back to the pool. */
  end(c: pg.PoolClient): Promise<void> {
    this.unended.delete(c)
    return c.query('ROLLBACK').then(
      () => c.release(),
      (e: Error) => c.release(e),
    )
  }
}
