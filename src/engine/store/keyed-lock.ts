/**
 * Per-key mutual exclusion inside one process, FIFO per key. Used by the SQLite adapter,
 * whose process is the only one writing its data dir; PostgreSQL uses advisory locks instead.
 */
export class KeyedLock {
  private tails = new Map<string, Promise<void>>()

  /** Resolves once the key is free, with the function that frees it again (call it exactly once). */
  async acquire(key: string): Promise<() => void> {
    const prev = this.tails.get(key)
    let release!: () => void
    const mine = new Promise<void>((r) => (release = r))
    const tail = prev ? prev.then(() => mine) : mine
    this.tails.set(key, tail)
    if (prev) await prev
    let done = false
    return () => {
      if (done) return
      done = true
      release()
      if (this.tails.get(key) === tail) this.tails.delete(key)
    }
  }

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key)
    try {
      return await fn()
    } finally {
      release()
    }
  }
}
