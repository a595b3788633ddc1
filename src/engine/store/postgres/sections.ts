// Exclusive sections of the PostgreSQL adapter (Store.exclusive): session advisory locks on one
// connection of this instance, so a section excludes on every instance.
import type pg from 'pg'
import {KeyedLock} from '../keyed-lock.js'
import {connectClient, pgText, rows} from './sql.js'

/** how often a waiting exclusive section asks again (try-locks: the section connection never blocks) */
const SECTION_POLL_MS = 25

export class Sections {
  private readonly locks = new KeyedLock()
  /** this instance's holders and waiters per section: `wait: false` gives up at once while one is here too */
  private readonly busy = new Map<string, number>()
  private client: pg.Client | undefined
  private connecting: Promise<pg.Client> | undefined

  constructor(
    private readonly clientConfig: pg.ClientConfig,
    private readonly closed: () => boolean,
  ) {}

  private readonly forget = (c: pg.Client) => {
    if (this.client === c) this.client = undefined
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client
    this.connecting ??= (async () => {
      const c = await connectClient(this.clientConfig, this.forget)
      this.client = c
      return c
    })().finally(() => (this.connecting = undefined))
    return this.connecting
  }

  /**
   * Sections are session advisory locks on one connection of this instance, several names held
   * at once (one per account's job runs). A waiting section asks with a try-lock every few ms
   * rather than blocking: a blocking lock would hold the connection, and every other section of
   * this instance (other accounts') would wait behind it.
   */
  async exclusive<T>(name: string, fn: () => Promise<T>, opts: {wait?: boolean} = {}): Promise<{ran: true; value: T} | {ran: false}> {
    const wait = opts.wait ?? true
    const busy = this.busy.get(name) ?? 0
    if (!wait && busy > 0) return {ran: false}
    this.busy.set(name, busy + 1)
    const release = await this.locks.acquire(name)
    try {
      const key = `x:${pgText(name)}`
      let c: pg.Client
      for (;;) {
        if (this.closed()) throw new Error('store is closed')
        c = await this.connection()
        if ((await rows<{ok: boolean}>(c, 'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [key]))[0]!.ok) break
        if (!wait) return {ran: false}
        await new Promise((r) => setTimeout(r, SECTION_POLL_MS))
      }
      try {
        return {ran: true, value: await fn()}
      } finally {
        // a connection lost meanwhile took the lock with it
        if (this.client === c) await c.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => {})
      }
    } finally {
      release()
      const left = this.busy.get(name)! - 1
      if (left) this.busy.set(name, left)
      else this.busy.delete(name)
    }
  }

  /** Ends the section connection (closing the store). */
  end(): Promise<void> | undefined {
    return this.client?.end()
  }
}
