import type {Clock} from '../ports/clock.js'
import type {AccountStore} from '../ports/store.js'

export const CLOCK_OFFSET_SETTING = 'clock_offset_ms'
/** When present (engine-time milliseconds), the clock is frozen there: it moves only when advanced or set. */
export const CLOCK_FROZEN_SETTING = 'clock_frozen_at_ms'

/** The clock's stored state: an offset from real time, and where it is frozen, if it is. */
export interface ClockState {
  offsetMs: number
  frozenAtMs: number | undefined
}

export const clockStateOf = (settings: Record<string, string | undefined>): ClockState => ({
  offsetMs: Number(settings[CLOCK_OFFSET_SETTING] ?? '0'),
  frozenAtMs: settings[CLOCK_FROZEN_SETTING] ? Number(settings[CLOCK_FROZEN_SETTING]) : undefined,
})

/**
 * The engine clock: real time plus an offset that test helpers advance (decisions.md), or a
 * frozen instant (issue 27) so a test's timestamps repeat. The state lives in the store (one
 * clock for every instance); this is a cached reading of it, refreshed by the store's change
 * feed and set at once by a change made here. Engine time never moves back — a stale reading
 * arriving late is ignored — except when a snapshot is loaded.
 */
export class EngineClock implements Clock {
  /** ordering of readings: each feed read and each local change takes the next number */
  private seq = 0
  /** the number of the reading the clock holds: a read begun before it is stale */
  private applied = 0

  private constructor(
    private state: ClockState,
    /** called when the clock moves forward (here or, through the change feed, on another instance) */
    private readonly moved: () => void,
  ) {}

  static async load(store: AccountStore, moved: () => void = () => {}): Promise<EngineClock> {
    const clock = new EngineClock(await readState(store), moved)
    store.onChange((n) => {
      // a snapshot loaded (here or on another instance): its clock, even an earlier one
      const restored = n.restored === true
      if (!restored && !n.settings.includes(CLOCK_OFFSET_SETTING) && !n.settings.includes(CLOCK_FROZEN_SETTING)) return
      const mine = ++clock.seq
      void readState(store).then(
        (s) => clock.fromFeed(mine, s, restored),
        () => {}, // the store is unreachable: the next notice (or the reconnect's) reads it again
      )
    })
    return clock
  }

  now(): Date {
    return new Date(this.state.frozenAtMs ?? Date.now() + this.state.offsetMs)
  }

  get offsetMs(): number {
    return this.state.offsetMs
  }

  get frozen(): boolean {
    return this.state.frozenAtMs !== undefined
  }

  /** A snapshot's clock, loaded: the one time the clock may move back. */
  reset(state: ClockState): void {
    this.applied = ++this.seq
    this.take(state)
  }

  /**
   * A change made here (advance, set, freeze): taken as it is — it was checked against the clock
   * when it was asked for, and a freeze holds the instant the request began, a few ms back.
   * Readings of the store begun before it are stale from now on.
   */
  set(state: ClockState): void {
    this.applied = ++this.seq
    this.take(state)
  }

  /**
   * The result of an advance here (the store's sums): taken unless another instance's advance
   * already carried the clock further (then this one is in it).
   */
  observe(state: ClockState): void {
    if (this.wouldMoveBack(state)) return
    this.applied = ++this.seq
    this.take(state)
  }

  /**
   * A reading through the change feed (begun after the notice, so at least as new as the change
   * it announces). Dropped when a later reading or change is already held; otherwise taken unless
   * it would move a ticking clock back (a torn or late reading); a freeze or unfreeze made on
   * another instance is always taken.
   */
  private fromFeed(seq: number, state: ClockState, restored: boolean): void {
    if (seq < this.applied) return
    if (!restored && this.wouldMoveBack(state)) return
    this.applied = seq
    this.take(state)
  }

  /** Taking `state` would move a ticking clock back (a late or torn reading); a freeze or unfreeze never counts as that. */
  private wouldMoveBack(state: ClockState): boolean {
    const flagChanged = (state.frozenAtMs === undefined) !== (this.state.frozenAtMs === undefined)
    return !flagChanged && timeOf(state) < this.now().getTime() - 1
  }

  private take(state: ClockState): void {
    const forward = timeOf(state) > this.now().getTime()
    this.state = state
    // what became due (webhook retries) is attempted now, not at the next poll
    if (forward) this.moved()
  }
}

const timeOf = (s: ClockState) => s.frozenAtMs ?? Date.now() + s.offsetMs

/** Reads both settings; read again if the frozen one changed in between (a freeze or unfreeze committed meanwhile). */
async function readState(store: AccountStore): Promise<ClockState> {
  for (let i = 0; ; i++) {
    const frozen = await store.getSetting(CLOCK_FROZEN_SETTING)
    const offset = await store.getSetting(CLOCK_OFFSET_SETTING)
    if (i < 3 && (await store.getSetting(CLOCK_FROZEN_SETTING)) !== frozen) continue
    return clockStateOf({[CLOCK_OFFSET_SETTING]: offset, [CLOCK_FROZEN_SETTING]: frozen})
  }
}
