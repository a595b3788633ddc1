import type {Clock} from '../ports/clock.js'
import type {AccountStore} from '../ports/store.js'

export const CLOCK_OFFSET_SETTING = 'clock_offset_ms'

/**
 * The engine clock: real time plus an offset that test helpers advance (decisions.md). The
 * offset lives in the store (one clock for every instance); this is a cached reading of it,
 * refreshed by the store's change feed and set at once by an advance made here.
 */
export class EngineClock implements Clock {
  private constructor(
    private offset: number,
    /** called when the clock moves forward (here or, through the change feed, on another instance) */
    private readonly moved: () => void,
  ) {}

  static async load(store: AccountStore, moved: () => void = () => {}): Promise<EngineClock> {
    const clock = new EngineClock(Number((await store.getSetting(CLOCK_OFFSET_SETTING)) ?? '0'), moved)
    store.onChange((n) => {
      // a snapshot loaded (here or on another instance): its clock, even an earlier one
      if (n.restored)
        return void store.getSetting(CLOCK_OFFSET_SETTING).then(
          (v) => clock.reset(Number(v ?? '0')),
          () => {},
        )
      if (n.settings.includes(CLOCK_OFFSET_SETTING))
        void store.getSetting(CLOCK_OFFSET_SETTING).then(
          (v) => clock.observe(Number(v ?? '0')),
          () => {}, // the store is unreachable: the next notice (or the reconnect's) reads it again
        )
    })
    return clock
  }

  now(): Date {
    return new Date(Date.now() + this.offset)
  }

  get offsetMs(): number {
    return this.offset
  }

  /** A snapshot's clock, loaded: the one time the clock may move back. */
  reset(offsetMs: number): void {
    const forward = offsetMs > this.offset
    this.offset = offsetMs
    if (forward) this.moved()
  }

  /** The offset only moves forward: a stale reading arriving late never moves the clock back. */
  observe(offsetMs: number): void {
    if (offsetMs > this.offset) {
      this.offset = offsetMs
      // what became due (webhook retries) is attempted now, not at the next poll
      this.moved()
    }
  }
}
