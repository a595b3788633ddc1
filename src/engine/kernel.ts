import type {OffsetClock} from './adapters/system.js'
import {KeyedLock} from './adapters/system.js'
import type {Ids} from './ports/ids.js'
import type {ChangeSet, Job, Store, StoredEvent} from './ports/store.js'

/** Internal fields of a stored object live under `_x`; they never leave the engine. */
export const INTERNAL = '_x'

export function toApi<T>(obj: T): T {
  if (obj && typeof obj === 'object' && INTERNAL in (obj as object)) {
    const {[INTERNAL]: _drop, ...rest} = obj as Record<string, unknown>
    return rest as T
  }
  return obj
}

/** How long a lock waits for its change set to be committed before letting the next writer in. */
export const LOCK_HOLD_MS = 5000

export type JobHandler = (job: Job, at: Date) => Promise<ChangeSet | undefined>
export type CommitEnricher = (cs: ChangeSet) => void
export type CommitListener = (cs: ChangeSet) => void

/** What every engine feature shares: store, clock, ids, locks, commit hooks, events and jobs. */
export class Kernel {
  readonly locks = new KeyedLock()
  private enrichers: CommitEnricher[] = []
  private listeners: CommitListener[] = []
  private jobHandlers = new Map<string, JobHandler>()
  readonly livemode = false

  constructor(
    readonly store: Store,
    readonly clock: OffsetClock,
    readonly ids: Ids,
    readonly urls: {baseUrl: string; checkoutUrl: string},
    readonly log: (line: string) => void,
  ) {}

  /** Enrichers add to a change set before it is written (the webhook outbox). */
  enrich(fn: CommitEnricher): void {
    this.enrichers.push(fn)
  }

  /** Listeners run after a change set is durable (SSE hub, caches, worker wake-ups). */
  onCommit(fn: CommitListener): void {
    this.listeners.push(fn)
  }

  async commit(cs: ChangeSet): Promise<void> {
    try {
      for (const e of this.enrichers) e(cs)
      await this.store.commit(cs)
      for (const l of this.listeners) {
        try {
          l(cs)
        } catch (e) {
          this.log(`commit listener failed: ${(e as Error).stack}`)
        }
      }
    } finally {
      for (const f of cs.settled ?? []) f()
    }
  }

  /**
   * Runs a request handler under the lock of `key` and keeps the lock until the change set
   * it returns (or carries on an error, such as a 402 with the failed payment) has been
   * committed by the request pipeline. The next request for the same key then reads the
   * committed state instead of failing a version check.
   */
  locked<T extends {changes?: ChangeSet}>(key: string, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.locks
        .run(key, async () => {
          let out: T
          let changes: ChangeSet | undefined
          try {
            out = await fn()
            changes = out.changes
          } catch (e) {
            changes = (e as {extra?: {changes?: ChangeSet}}).extra?.changes
            if (!changes) return reject(e)
            await this.holdUntilSettled(changes, () => reject(e))
            return
          }
          if (!changes) return resolve(out)
          await this.holdUntilSettled(changes, () => resolve(out))
        })
        .catch(reject)
    })
  }

  private holdUntilSettled(cs: ChangeSet, hand: () => void): Promise<void> {
    return new Promise<void>((release) => {
      const timer = setTimeout(release, LOCK_HOLD_MS)
      timer.unref()
      ;(cs.settled ??= []).push(() => {
        clearTimeout(timer)
        release()
      })
      hand()
    })
  }

  event(type: string, obj: unknown, at: Date, requestId: string | null): StoredEvent {
    const id = this.ids.next('evt')
    const created_at = at.toISOString()
    const json = JSON.stringify({
      id,
      object: 'event',
      type,
      created_at,
      livemode: this.livemode,
      request_id: requestId,
      data: {object: toApi(obj)},
    })
    return {id, type, created_at, json}
  }

  job(kind: string, ref: string, due: Date, data?: Record<string, unknown>): Job {
    return {id: this.ids.next('job'), kind, ref, due_at: due.toISOString(), data}
  }

  /**
   * A job runs under the lock of its `ref` (a payment id, a dispute id, ...), and its change
   * set is committed together with the job's removal, so a job's effects land exactly once.
   */
  registerJob(kind: string, handler: JobHandler): void {
    this.jobHandlers.set(kind, handler)
  }

  private running: Promise<number> | undefined

  /**
   * Runs every job due at the engine clock's now, strictly in due-time order (ties in the order
   * they were scheduled), until none is due. One job is fetched at a time: a job may schedule a
   * successor due before jobs already due (a settlement run schedules the next day's), or remove
   * one (a deadline unscheduled by evidence), so a batch read ahead would run jobs out of order
   * or run jobs that no longer exist. Each handler gets its job's due time as `at`.
   */
  runDueJobs(): Promise<number> {
    if (!this.running) {
      this.running = this.drain().finally(() => {
        this.running = undefined
      })
    }
    return this.running
  }

  private async drain(): Promise<number> {
    let ran = 0
    for (;;) {
      const now = this.clock.now()
      const [job] = await this.store.dueJobs(now.toISOString(), 1)
      if (!job) return ran
      const handler = this.jobHandlers.get(job.kind)
      try {
        await this.locks.run(job.ref, async () => {
          const cs = handler ? await handler(job, new Date(job.due_at)) : undefined
          await this.commit({...cs, removeJobIds: [...(cs?.removeJobIds ?? []), job.id]})
        })
      } catch (e) {
        this.log(`job ${job.kind} ${job.ref} failed: ${(e as Error).stack}`)
        // retry a failing job a minute later rather than spinning
        await this.commit({removeJobIds: [job.id], addJobs: [{...job, id: this.ids.next('job'), due_at: new Date(now.getTime() + 60_000).toISOString()}]})
      }
      ran++
    }
  }
}
