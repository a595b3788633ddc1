// Timeline jobs: timers on the engine clock (authorization expiry, refund rail answers,
// dispute deadlines, settlement runs, payouts, KYB reviews). Each runs in its own unit of work
// under the lock of the object it acts on, with the unit's clock at the job's due time, so its
// events carry the time it was due.
//
// Order: jobs are claimed earliest due first and their commits land in that order (the store's
// CommitOrder), so the event log reads in time order. For throughput several run at once (a
// pipeline, whose commits share the store's group commit) but only within a horizon of
// PIPELINE_HORIZON_MS of due time: a job schedules follow-ups at least that far after its own
// due time, so a follow-up can never be overtaken by a job already running. A barrier job
// (one that reads more than its own object: the settlement run reads a whole day's ledger)
// waits until every job before it has committed.
import {type ClaimedJob, VersionConflictError} from '../ports/store.js'
import type {Core} from './core.js'
import type {Unit} from './unit.js'
import {breather} from './breather.js'

export type JobHandler = (u: Unit, job: ClaimedJob) => Promise<void>

const BATCH = 100
/** Jobs applied at once at most. */
const PIPELINE_DEPTH = 64
/**
 * The shortest delay between a job's due time and a job it schedules (a succeeded payment's
 * test-card dispute, 60 s); jobs in the pipeline together are due within this span.
 */
export const PIPELINE_HORIZON_MS = 60_000
/** A claim lasts this long (real time) unless completed; a crashed runner's jobs are taken up again after it. */
export const JOB_LEASE_MS = 60_000
/** A job whose handler fails is tried again this much later on the engine clock, rather than spinning. */
const RETRY_AFTER_MS = 60_000

/** What a run did: how many jobs of each kind ran and events of each type they emitted. */
export interface RunSummary {
  jobs: Record<string, number>
  events: Record<string, number>
  /** the ids of the webhook deliveries the jobs' events created (their first attempts) */
  deliveries: string[]
}

export class JobRunner {
  private handlers = new Map<string, {handler: JobHandler; barrier: boolean}>()
  private chain: Promise<unknown> = Promise.resolve()
  /** a run queued behind the current one, not started yet: later requests join it */
  private queued: Promise<RunSummary> | undefined
  /** whether the queued run waits for the fleet-wide section (a waiting call joined it) */
  private queuedWait = true
  private stopped = false

  constructor(private readonly core: Core) {}

  /** `barrier`: the job reads beyond its own object, so every earlier job must have committed first. */
  register(kind: string, handler: JobHandler, opts: {barrier?: boolean} = {}): void {
    this.handlers.set(kind, {handler, barrier: opts.barrier ?? false})
  }

  /** The kinds of job registered (what a snapshot's jobs may be: stored-rows.ts keeps the same list). */
  kinds(): string[] {
    return [...this.handlers.keys()]
  }

  /** Stops taking jobs (shutdown); jobs already running finish. */
  stop(): void {
    this.stopped = true
  }

  /**
   * Runs every job due at or before the engine clock's now (read when the run starts), in due
   * order, until none is due. Runs of this instance queue behind each other; calls made while a
   * run waits to start join it (it reads the clock when it starts, so it covers them all). One
   * instance at a time runs them (the store's fleet-wide section `timeline`): with `wait: false`
   * (background runs) a run gives up at once while another instance holds it — that one drains
   * what is due; a waiting call joining a queued run makes it wait.
   */
  runDue(opts: {wait?: boolean} = {}): Promise<RunSummary> {
    const wait = opts.wait ?? true
    if (this.queued) {
      if (wait) this.queuedWait = true
      return this.queued
    }
    this.queuedWait = wait
    const run = this.chain.then(async () => {
      this.queued = undefined
      const r = await this.core.store.exclusive('timeline', () => this.drain(this.core.clock.now(), true), {wait: this.queuedWait})
      return r.ran ? r.value : {jobs: {}, events: {}, deliveries: []}
    })
    this.queued = run
    this.chain = run.catch(() => {})
    return run
  }

  /** Runs every job due at or before `until` (a fixed time: tests). */
  runUntil(until: Date): Promise<RunSummary> {
    const run = this.chain.then(async () => {
      const r = await this.core.store.exclusive('timeline', () => this.drain(until))
      return r.ran ? r.value : {jobs: {}, events: {}, deliveries: []}
    })
    this.chain = run.catch(() => {})
    return run
  }

  /** `followClock`: never past the engine clock either — a snapshot loaded meanwhile may have put it back, and its jobs are due on its clock. */
  private async drain(until: Date, followClock = false): Promise<RunSummary> {
    const summary: RunSummary = {jobs: {}, events: {}, deliveries: []}
    let untilIso = until.toISOString()
    const running = new Map<Promise<void>, number>()
    let previous: Promise<void> = Promise.resolve()
    /** the earliest due time, within this run, of a job scheduled by a job that ran */
    let earliestAdded = Infinity
    const settle = async (cond: () => boolean) => {
      while (cond() && running.size > 0) await Promise.race(running.keys())
    }
    while (!this.stopped) {
      if (followClock) untilIso = new Date(Math.min(until.getTime(), this.core.clock.now().getTime())).toISOString()
      const batch = await this.core.store.claimJobs(untilIso, BATCH, this.core.claimLeaseMs ?? JOB_LEASE_MS)
      earliestAdded = Infinity
      if (batch.length === 0) {
        if (running.size === 0) break
        // jobs still running may schedule more that fall due within the run
        await settle(() => true)
        continue
      }
      for (let i = 0; i < batch.length; i++) {
        const job = batch[i]!
        // a long catch-up hands the event loop back every few ms: other accounts' requests go on
        const pause = breather()
        if (pause) await pause
        if (this.stopped) {
          await this.core.store.releaseJobs(batch.slice(i))
          break
        }
        const due = Date.parse(job.due_at)
        const barrier = this.handlers.get(job.kind)?.barrier ?? false
        await settle(() => barrier || running.size >= PIPELINE_DEPTH || [...running.values()].some((d) => due - d >= PIPELINE_HORIZON_MS))
        // a job that ran scheduled one due before this claimed one: claim again, in order
        if (earliestAdded < due) {
          await this.core.store.releaseJobs(batch.slice(i))
          break
        }
        let staged!: () => void
        const mine = new Promise<void>((r) => (staged = r))
        const p: Promise<void> = this.runOne(job, summary, {after: previous, staged}).then((added) => {
          running.delete(p)
          for (const a of added) if (a <= untilIso) earliestAdded = Math.min(earliestAdded, Date.parse(a))
        })
        running.set(p, due)
        previous = mine
      }
    }
    await settle(() => true)
    return summary
  }

  /** Runs one job; returns the due times of the jobs it scheduled. */
  private async runOne(job: ClaimedJob, summary: RunSummary, order: {after: Promise<void>; staged: () => void}): Promise<string[]> {
    const entry = this.handlers.get(job.kind)
    const at = new Date(job.due_at)
    try {
      const done = await this.core.run({at, order}, async (u) => {
        await u.lock(job.ref)
        if (entry) await entry.handler(u, job)
        else this.core.log(`jobs: no handler for ${job.kind}; dropping job ${job.id}`)
        u.complete(job)
        return {events: u.eventsEmitted.map((e) => e.type), added: u.jobsAdded.map((j) => j.due_at), unit: u}
      })
      summary.deliveries.push(...done.unit.deliveriesWritten)
      summary.jobs[job.kind] = (summary.jobs[job.kind] ?? 0) + 1
      for (const t of done.events) summary.events[t] = (summary.events[t] ?? 0) + 1
      for (const a of done.added)
        if (Date.parse(a) - at.getTime() < PIPELINE_HORIZON_MS) this.core.log(`jobs: ${job.kind} scheduled a job ${a} within ${PIPELINE_HORIZON_MS / 1000} s of its own due time; raise PIPELINE_HORIZON_MS`)
      return done.added
    } catch (e) {
      order.staged()
      if (e instanceof VersionConflictError && e.kind === 'job' && e.id === job.id) {
        // not this runner's any more: nothing of it was committed, and nothing is to be redone here
        this.core.log(`jobs: ${job.kind} ${job.ref} of ${this.core.account} due ${job.due_at} was not applied: the job was replaced meanwhile (a snapshot loaded into the account, or its claim ran out and another runner took it)`)
        return []
      }
      // contained to this account (docs/decisions.md#failures-are-contained): counted, logged once, and tried again later
      this.core.contain('timeline_job', e, `job ${job.kind} ${job.ref}`)
      // (a due time that is no time, from a store written around the API: now)
      const now = this.core.clock.now()
      const from = Number.isFinite(at.getTime()) ? at : now
      await this.core
        .run({at: from}, async (u) => {
          u.complete(job)
          u.schedule(job.kind, job.ref, new Date(Math.max(now.getTime(), from.getTime()) + RETRY_AFTER_MS), job.data)
        })
        .catch((err) => this.core.contain('timeline_job', err, `rescheduling job ${job.kind} ${job.ref}`))
      return []
    }
  }
}
