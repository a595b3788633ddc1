// Timeline jobs: timers on the engine clock (authorization expiry, refund rail answers,
// dispute deadlines, settlement runs, payouts, KYB reviews). They run in strict due order, one
// at a time, each in its own unit of work under the lock of the object it acts on, with the
// unit's clock at the job's due time: a job's events carry the time it was due, and a job that
// schedules a successor due earlier than the rest of a claimed batch runs before them.
import type {ClaimedJob} from '../ports/store.js'
import type {Core} from './core.js'
import type {Unit} from './unit.js'

export type JobHandler = (u: Unit, job: ClaimedJob) => Promise<void>

const BATCH = 100
/** A claim lasts this long (real time) unless completed; a crashed runner's jobs are taken up again after it. */
export const JOB_LEASE_MS = 60_000
/** A job whose handler fails is tried again this much later on the engine clock, rather than spinning. */
const RETRY_AFTER_MS = 60_000

/** What a run did: how many jobs of each kind ran and events of each type they emitted. */
export interface RunSummary {
  jobs: Record<string, number>
  events: Record<string, number>
}

export class JobRunner {
  private handlers = new Map<string, JobHandler>()
  private chain: Promise<unknown> = Promise.resolve()
  private stopped = false

  constructor(private readonly core: Core) {}

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler)
  }

  /** Stops taking jobs (shutdown); a run in progress ends after its current job. */
  stop(): void {
    this.stopped = true
  }

  /**
   * Runs every job due at or before `until` (default: the engine clock's now, read when the run
   * starts), in due order, until none is due. Runs of this instance queue behind each other.
   */
  runDue(until?: () => Date): Promise<RunSummary> {
    const run = this.chain.then(() => this.drain((until ?? (() => this.core.clock.now()))()))
    this.chain = run.catch(() => {})
    return run
  }

  private async drain(until: Date): Promise<RunSummary> {
    const summary: RunSummary = {jobs: {}, events: {}}
    const untilIso = until.toISOString()
    while (!this.stopped) {
      const batch = await this.core.store.claimJobs(untilIso, BATCH, JOB_LEASE_MS)
      if (batch.length === 0) break
      for (let i = 0; i < batch.length; i++) {
        if (this.stopped) {
          await this.core.store.releaseJobs(batch.slice(i))
          return summary
        }
        const job = batch[i]!
        const added = await this.runOne(job, summary)
        const next = batch[i + 1]
        // a successor due before the next claimed job (and within the run) goes first: claim again
        if (next && added.some((due) => due <= untilIso && due < next.due_at)) {
          await this.core.store.releaseJobs(batch.slice(i + 1))
          break
        }
      }
    }
    return summary
  }

  /** Runs one job; returns the due times of the jobs it scheduled. */
  private async runOne(job: ClaimedJob, summary: RunSummary): Promise<string[]> {
    const handler = this.handlers.get(job.kind)
    const at = new Date(job.due_at)
    try {
      const done = await this.core.run({at}, async (u) => {
        await u.lock(job.ref)
        if (handler) await handler(u, job)
        else this.core.log(`jobs: no handler for ${job.kind}; dropping job ${job.id}`)
        u.complete(job)
        return {added: u.jobsAdded.map((j) => j.due_at), events: u.eventsEmitted.map((e) => e.type)}
      })
      summary.jobs[job.kind] = (summary.jobs[job.kind] ?? 0) + 1
      for (const t of done.events) summary.events[t] = (summary.events[t] ?? 0) + 1
      return done.added
    } catch (e) {
      this.core.log(`jobs: ${job.kind} ${job.ref} failed: ${(e as Error).stack}`)
      await this.core
        .run({at}, async (u) => {
          u.complete(job)
          u.schedule(job.kind, job.ref, new Date(Math.max(this.core.clock.now().getTime(), at.getTime()) + RETRY_AFTER_MS), job.data)
        })
        .catch((err) => this.core.log(`jobs: rescheduling ${job.kind} ${job.ref} failed: ${(err as Error).message}`))
      return []
    }
  }
}
