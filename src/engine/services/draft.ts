import type {ChangeSet, Job, Kind, StatIncrement, StoredEvent, StoredObject} from '../ports/store.js'
import type {Kernel} from '../kernel.js'

/**
 * Collects one unit of work: object writes (with the version they were read at), the
 * events they cause, jobs to add or drop, provider stats. It becomes one ChangeSet, so a
 * state change, its events and (through the kernel's enrichers) its webhook deliveries land
 * in one transaction.
 */
export class Draft {
  private puts = new Map<string, {kind: Kind; obj: StoredObject; expectVersion?: number}>()
  readonly events: StoredEvent[] = []
  readonly addJobs: Job[] = []
  readonly removeJobs: {kind: string; ref: string}[] = []
  readonly stats: StatIncrement[] = []
  readonly settings: Record<string, string> = {}

  constructor(
    readonly k: Kernel,
    readonly requestId: string | null,
  ) {}

  /** Records the object's current state; the last put of an id wins. */
  put(kind: Kind, obj: StoredObject, expectVersion?: number): void {
    const prev = this.puts.get(obj.id)
    this.puts.set(obj.id, {kind, obj, expectVersion: prev ? prev.expectVersion : expectVersion})
  }

  /** Emits an event carrying a snapshot of the object as it is now. */
  emit(type: string, obj: unknown, at: Date): StoredEvent {
    const e = this.k.event(type, obj, at, this.requestId)
    this.events.push(e)
    return e
  }

  schedule(kind: string, ref: string, due: Date, data?: Record<string, unknown>): void {
    this.addJobs.push(this.k.job(kind, ref, due, data))
  }

  unschedule(kind: string, ref: string): void {
    this.removeJobs.push({kind, ref})
  }

  changeSet(): ChangeSet {
    return {
      puts: [...this.puts.values()].map((p) => ({kind: p.kind, obj: p.obj, expectVersion: p.expectVersion})),
      events: this.events,
      addJobs: this.addJobs,
      removeJobs: this.removeJobs,
      stats: this.stats,
      settings: this.settings,
    }
  }
}
