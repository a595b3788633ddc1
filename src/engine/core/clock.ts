import type {Clock} from '../ports/clock.js'
import type {AccountStore} from '../ports/store.js'

export const CLOCK_OFFSET_SETTING = 'clock_offset_ms'
/** When present (engine-time milliseconds), the clock is frozen there: it moves only when advanced or set. */
export const CLOCK_FROZEN_SETTING = 'clock_frozen_at_ms'

/**
 * The engine clock stays between these instants (docs/decisions.md#clock-jumps-are-bounded): every timestamp it makes is an ISO
 * 8601 date-time with a four-digit year, which the store compares as text. A stored setting that
 * would put it outside (or is no number at all) is refused by a snapshot load and, read back from
 * a store that holds it anyway, replaced by a sane value.
 */
export const MIN_ENGINE_TIME_MS = Date.UTC(2000, 0, 1)
export const MAX_ENGINE_TIME_MS = Date.UTC(9999, 0, 1)

/** The clock's stored state: an offset from real time, and where it is frozen, if it is. */
export interface ClockState {
  offsetMs: number
  frozenAtMs: number | undefined
}

/**
 * What is wrong with the stored value of a clock setting (undefined: nothing), by the rules the
 * API writes it by: the offset is a whole number of milliseconds, 0 or more (the clock never runs
 * behind real time when set or advanced), and the frozen instant is empty (ticking) or a whole
 * number of milliseconds; either way the engine time stays between MIN_ENGINE_TIME_MS and
 * MAX_ENGINE_TIME_MS.
 */
export function clockSettingProblem(key: string, value: string | undefined, realNow = Date.now()): string | undefined {
  if (value === undefined) return undefined
  const range = `${new Date(MIN_ENGINE_TIME_MS).toISOString()} to ${new Date(MAX_ENGINE_TIME_MS).toISOString()}`
  if (key === CLOCK_OFFSET_SETTING) {
    if (!/^\d{1,16}$/.test(value)) return `${key} must be a whole number of milliseconds, 0 or more (the engine clock never runs behind real time); got '${value.slice(0, 40)}'.`
    if (realNow + Number(value) > MAX_ENGINE_TIME_MS) return `${key} puts the engine clock past ${new Date(MAX_ENGINE_TIME_MS).toISOString()}; the clock stays within ${range}.`
  }
  if (key === CLOCK_FROZEN_SETTING && value !== '') {
    if (!/^\d{1,16}$/.test(value)) return `${key} must be empty (a ticking clock) or the frozen instant in milliseconds since 1970; got '${value.slice(0, 40)}'.`
    const t = Number(value)
    if (t < MIN_ENGINE_TIME_MS || t > MAX_ENGINE_TIME_MS) return `${key} must be an instant within ${range}; got ${t}.`
  }
  return undefined
}

/**
 * The clock's state from its settings. A value that breaks the rules (a store written around the
 * API) is not taken: the offset falls back to 0 (real time), the frozen instant to a ticking
 * clock, and `bad` hears of each (a poisoned setting costs one log line, not the account: docs/decisions.md#failures-are-contained).
 */
export function clockStateOf(settings: Record<string, string | undefined>, bad?: (key: string, problem: string) => void): ClockState {
  const offset = settings[CLOCK_OFFSET_SETTING]
  const frozen = settings[CLOCK_FROZEN_SETTING]
  const offsetProblem = clockSettingProblem(CLOCK_OFFSET_SETTING, offset)
  const frozenProblem = clockSettingProblem(CLOCK_FROZEN_SETTING, frozen)
  if (offsetProblem) bad?.(CLOCK_OFFSET_SETTING, offsetProblem)
  if (frozenProblem) bad?.(CLOCK_FROZEN_SETTING, frozenProblem)
  return {
    offsetMs: offsetProblem ? 0 : Number(offset ?? '0'),
    frozenAtMs: frozenProblem || !frozen ? undefined : Number(frozen),
  }
}

/**
 * The engine clock: real time plus an offset that test helpers advance (docs/decisions.md#the-engine-clock), or a
 * frozen instant so a test's timestamps repeat. The state lives in the store (one
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

  /**
   * The account's clock, read from its settings. `bad` hears of a stored value that breaks the
   * rules (clockSettingProblem): the clock runs on a sane value instead, which is written back so
   * that advancing and setting the clock work again.
   */
  static async load(store: AccountStore, moved: () => void = () => {}, bad?: (problem: string) => void): Promise<EngineClock> {
    const read = () => readState(store, bad)
    const clock = new EngineClock(await read(), moved)
    store.onChange((n) => {
      // a snapshot loaded (here or on another instance): its clock, even an earlier one
      const restored = n.restored === true
      if (!restored && !n.settings.includes(CLOCK_OFFSET_SETTING) && !n.settings.includes(CLOCK_FROZEN_SETTING)) return
      const mine = ++clock.seq
      void read().then(
        (s) => clock.fromFeed(mine, s, restored),
        () => {}, // the store is unreachable: the next notice (or the reconnect's) reads it again
      )
    }, 'shared')
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

/**
 * Reads both settings; read again if the frozen one changed in between (a freeze or unfreeze
 * committed meanwhile). A value that breaks the rules is reported and replaced in the store by
 * the sane one the clock runs on.
 */
async function readState(store: AccountStore, bad?: (problem: string) => void): Promise<ClockState> {
  for (let i = 0; ; i++) {
    const frozen = await store.getSetting(CLOCK_FROZEN_SETTING)
    const offset = await store.getSetting(CLOCK_OFFSET_SETTING)
    if (i < 3 && (await store.getSetting(CLOCK_FROZEN_SETTING)) !== frozen) continue
    const fixed: Record<string, string> = {}
    const state = clockStateOf({[CLOCK_OFFSET_SETTING]: offset, [CLOCK_FROZEN_SETTING]: frozen}, (key, problem) => {
      bad?.(`${problem} The clock runs on ${key === CLOCK_OFFSET_SETTING ? 'real time (offset 0)' : 'unfrozen'} instead, and the setting is replaced.`)
      fixed[key] = key === CLOCK_OFFSET_SETTING ? '0' : ''
    })
    if (Object.keys(fixed).length) await store.commit({settings: fixed}).catch(() => {}) // unreachable: the next reading repairs it
    return state
  }
}
