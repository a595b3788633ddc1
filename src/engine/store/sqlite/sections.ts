// Exclusive sections of the SQLite adapter (Store.exclusive): one process owns the data dir, so a
// section is an in-process lock.
import {KeyedLock} from '../keyed-lock.js'

export class Sections {
  private readonly locks = new KeyedLock()
  /** holders and waiters per section */
  private readonly busy = new Map<string, number>()

  async exclusive<T>(name: string, fn: () => Promise<T>, opts: {wait?: boolean} = {}): Promise<{ran: true; value: T} | {ran: false}> {
    const busy = this.busy.get(name) ?? 0
    if (opts.wait === false && busy > 0) return {ran: false}
    this.busy.set(name, busy + 1)
    const release = await this.locks.acquire(name)
    try {
      return {ran: true, value: await fn()}
    } finally {
      release()
      const left = this.busy.get(name)! - 1
      if (left) this.busy.set(name, left)
      else this.busy.delete(name)
    }
  }
}
