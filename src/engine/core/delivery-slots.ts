// The delivery worker's concurrency parts (delivery-worker.ts): a FIFO semaphore of HTTP requests
// in flight per endpoint, and the light abort signal of one attempt.
/** HTTP requests in flight per endpoint: a FIFO semaphore per key. */
export class Slots {
  private active = new Map<string, number>()
  private waiting = new Map<string, (() => void)[]>()
  constructor(private readonly limit: number) {}

  async acquire(key: string): Promise<void> {
    const n = this.active.get(key) ?? 0
    if (n < this.limit) return void this.active.set(key, n + 1)
    await new Promise<void>((resolve) => {
      const q = this.waiting.get(key)
      if (q) q.push(resolve)
      else this.waiting.set(key, [resolve])
    })
  }

  release(key: string): void {
    const q = this.waiting.get(key)
    const next = q?.shift()
    if (q && q.length === 0) this.waiting.delete(key)
    if (next) return next() // the slot passes to the next waiter
    const n = (this.active.get(key) ?? 1) - 1
    if (n <= 0) this.active.delete(key)
    else this.active.set(key, n)
  }
}

/**
 * What aborts one attempt (shutdown or its timeout): the part of an AbortSignal undici uses
 * (`aborted`, `reason`, one 'abort' listener), without an EventTarget per attempt.
 */
export class AttemptSignal {
  aborted = false
  reason: unknown = undefined
  private listener: (() => void) | null = null

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listener = listener
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === listener) this.listener = null
  }

  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return
    this.aborted = true
    this.reason = reason
    const l = this.listener
    this.listener = null
    l?.()
  }
}
