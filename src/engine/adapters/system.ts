import {randomBytes} from 'node:crypto'
import type {Clock} from '../ports/clock.js'
import type {Ids} from '../ports/ids.js'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** Random ids: prefix + '_' + 24 base62 characters (~143 bits). Draws from a refilled pool. */
export class RandomIds implements Ids {
  private pool = Buffer.alloc(0)
  private pos = 0
  next(prefix: string): string {
    if (this.pos + 24 > this.pool.length) {
      this.pool = randomBytes(24 * 256)
      this.pos = 0
    }
    let s = `${prefix}_`
    for (let i = 0; i < 24; i++) s += ALPHABET[this.pool[this.pos++]! % 62]
    return s
  }
}

/**
 * The engine clock: real time plus an offset that test helpers advance (decisions.md).
 * The offset is persisted by the engine so a restart keeps simulated time.
 */
export class OffsetClock implements Clock {
  constructor(public offsetMs = 0) {}
  now(): Date {
    return new Date(Date.now() + this.offsetMs)
  }
}

/** Serialises async work per key (one payment, one dispute) inside this process. */
export class KeyedLock {
  private tails = new Map<string, Promise<unknown>>()
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve()
    let release!: () => void
    const mine = new Promise<void>((r) => (release = r))
    const tail = prev.then(() => mine)
    this.tails.set(key, tail)
    await prev
    try {
      return await fn()
    } finally {
      release()
      if (this.tails.get(key) === tail) this.tails.delete(key)
    }
  }
}
