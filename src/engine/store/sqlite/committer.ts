// The commit path of the SQLite adapter: change sets queued by units of work, compiled into
// statements (compile.ts) and written by the writer thread (writer.ts) in group commits; what a
// durable commit changes in this process (claims ended, staged rows swapped in) and the notices
// it sends (feed.ts).
import type {ChangeNotice, ChangeSet} from '../../ports/store.js'
import {own} from './claims.js'
import {compile} from './compile.js'
import {addNotice, type Notice} from './feed.js'
import {purgeNumber} from './purges.js'
import {retiredName, type SqliteStaged} from './staging.js'
import type {SqliteStore} from './sqlite-store.js'
import {type ChangeResult, type Op, restore, writeHere} from './writer.js'

interface Pending {
  cs: ChangeSet
  /** statements of the store's own (staged rows, and their deletion), written as they are */
  ops?: Op[]
  account: string
  resolve: () => void
  reject: (e: unknown) => void
}

/**
 * Commits are grouped: the change sets staged in one turn of the event loop are compiled into
 * statements and sent to the writer at once, without waiting for its answer to the previous
 * ones; the writer joins every batch that reached it while it was busy into one transaction (a
 * failing change set rolls back alone: the transaction is rolled back and written again without
 * it), made durable by one fsync on that thread; a commit resolves after that. An in-memory
 * database has no second connection: it writes in this thread, with the same statements.
 */
export class Committer {
  private queue: Pending[] = []
  private flushScheduled = false
  /** a swap of staged rows is being written: nothing more is compiled until its numbers are known (staging.ts) */
  private holding = false
  /** batches sent to the writer and not answered yet */
  private writing = 0
  private idle: (() => void)[] = []
  /** transactions written and change sets in them (tests, bench) */
  readonly counts = {transactions: 0, changeSets: 0}

  constructor(private readonly s: SqliteStore) {}

  /** Queues a unit's change set; resolves once it is durable. */
  enqueue(account: string, cs: ChangeSet): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({cs, account, resolve, reject})
      // the commits of one turn of the event loop go to the writer together; the writer joins
      // whatever reached it while it was busy into its next transaction (group commit)
      if (!this.flushScheduled) {
        this.flushScheduled = true
        setImmediate(() => void this.flush())
      }
    })
  }

  /** The store's own statements, written in order with the change sets. */
  write(ops: Op[]): Promise<void> {
    if (this.s.closed && !this.s.purging) return Promise.reject(new Error('store is closed'))
    return new Promise<void>((resolve, reject) => {
      this.queue.push({cs: {}, ops, account: '', resolve, reject})
      if (!this.flushScheduled && !this.holding) {
        this.flushScheduled = true
        setImmediate(() => void this.flush())
      }
    })
  }

  /** Resolves once every queued commit has landed. */
  async drained(): Promise<void> {
    if (this.queue.length || this.writing || this.flushScheduled) await new Promise<void>((resolve) => this.idle.push(resolve))
  }

  private async flush(): Promise<void> {
    const s = this.s
    this.flushScheduled = false
    // the change sets after a swap of staged rows wait for it: they write with the number it gives the account
    if (this.holding) return
    let batch = this.queue
    this.queue = []
    const swap = batch.findIndex((p) => p.cs.restoreStaged !== undefined)
    if (swap >= 0) {
      this.holding = true
      this.queue = batch.slice(swap + 1)
      batch = batch.slice(0, swap + 1)
    }
    if (batch.length === 0) return
    this.writing++
    const compiled: {p: Pending; ops: Op[]; notices: ChangeNotice[]}[] = []
    for (const p of batch) {
      if (p.ops) {
        compiled.push({p, ops: p.ops, notices: []})
        continue
      }
      try {
        const c = compile(p.cs, p.account, s.compileState)
        compiled.push({p, ops: c.ops, notices: [c.notice, ...c.others]})
      } catch (e) {
        p.reject(e)
      }
    }
    let results: ChangeResult[]
    try {
      // the store's own statements alone (rows staged, rows nobody has deleted) need no fsync of their own
      const relaxed = compiled.every((c) => c.p.ops !== undefined)
      results = s.writer ? await s.writer.write(compiled.map((c) => c.ops), relaxed) : writeHere(s, compiled.map((c) => c.ops))
    } catch (e) {
      results = compiled.map(() => ({ok: false, error: {name: 'Error', message: (e as Error).message}}))
    }
    this.counts.changeSets += compiled.length
    if (!s.writer) this.counts.transactions++
    // one notice per account the batch touched
    const notices = new Map<string, Notice>()
    const purged: string[] = []
    compiled.forEach((c, i) => {
      const r = results[i]!
      if (!r.ok) {
        // a deferred claim's commit met a live record: the unit runs again, and its claim looks
        if (r.error.kind === 'idempotency_key' && r.error.id !== undefined) s.idemRecheck.add(r.error.id)
        return c.p.reject(restore(r.error))
      }
      settle(s, c.p.account, c.p.cs)
      if (c.p.cs.restoreStaged) swapped(s, c.p.account, c.p.cs.restoreStaged as SqliteStaged)
      if (s.unsaved.size) for (const part of c.notices) s.unsaved.delete(part.account)
      if (c.p.cs.purgeAccount !== undefined) purged.push(c.p.cs.purgeAccount)
      for (const [i, part] of c.notices.entries()) addNotice(notices, part, i === 0 ? r.seq : null)
      c.p.resolve()
    })
    s.checkpointer?.nudge()
    for (const n of notices.values()) s.listeners.emit(n)
    for (const account of purged) s.listeners.emit({account, purged: true, kinds: new Set(), settings: [], eventSeq: null, dueBy: null})
    this.writing--
    if (swap >= 0) {
      this.holding = false
      if (this.queue.length && !this.flushScheduled) {
        this.flushScheduled = true
        setImmediate(() => void this.flush())
      }
    }
    if (this.writing === 0 && this.queue.length === 0 && !this.flushScheduled) for (const f of this.idle.splice(0)) f()
  }
}

/** Staged rows became the account's (their commit is durable): its number is theirs now, and its old rows are deleted in the background. */
function swapped(s: SqliteStore, account: string, st: SqliteStaged): void {
  const old = s.numbers.get(account)
  st.state = 'swapped'
  s.numbers.set(account, st.number!)
  s.idsByNumber.set(st.number!, account)
  s.unsaved.delete(account)
  if (old !== undefined) {
    s.idsByNumber.set(old, retiredName(account))
    void purgeNumber(s, old).catch(() => {}) // (closing: the next start deletes them)
  }
}

/**
 * What a commit changes in this process once it is durable: claims that ended. A delivery's
 * claim ends with a write of that delivery (its outcome), never with the insert that created
 * it: the read connection sees a commit before its answer is back here, so a claim may
 * already have been taken on a delivery this commit inserted (ending it would let a second
 * claim attempt the delivery twice at once).
 */
function settle(s: SqliteStore, account: string, cs: ChangeSet): void {
  for (const j of cs.completeJobs ?? []) s.jobClaims.delete(own(account, j.id))
  for (const put of cs.puts ?? []) if (put.kind === 'delivery' && put.expectVersion !== undefined) s.deliveryClaims.drop(account, put.obj.id)
  const gone = cs.purgeAccount
  if (gone !== undefined) {
    for (const [id, c] of s.jobClaims) if (c.account === gone) s.jobClaims.delete(id)
    s.deliveryClaims.dropAccount(gone)
    s.buckets.dropAccount(gone)
  }
}
