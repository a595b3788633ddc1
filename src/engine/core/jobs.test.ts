import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {RandomIds} from '../adapters/ids.js'
import {SqliteStore} from '../store/sqlite/sqlite-store.js'
import {Core} from './core.js'
import {PIPELINE_HORIZON_MS} from './jobs.js'

const dirs: string[] = []
const stores: SqliteStore[] = []
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close()
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})

async function core(): Promise<Core> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-jobs-'))
  dirs.push(dir)
  const store = new SqliteStore({path: join(dir, 'gw.db'), durability: 'full'})
  stores.push(store)
  return Core.create({store, ids: new RandomIds(), providers: new Map(), urls: {baseUrl: '', checkoutUrl: ''}, log: () => {}})
}

const T0 = Date.parse('2031-01-01T00:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()

describe('timeline jobs', () => {
  it('commit in due order while many run at once: the event log reads in time order, follow-ups included', async () => {
    const c = await core()
    const ran: string[] = []
    c.jobs.register('tick', async (u, job) => {
      ran.push(job.ref)
      // some jobs schedule a follow-up on their ref, at least the horizon later, due within the run
      if (job.data?.follow) u.schedule('tick', job.ref, new Date(u.now.getTime() + PIPELINE_HORIZON_MS + 1000))
      u.emit('test.tick', {id: job.ref, at: u.now.toISOString()})
    })
    // a barrier job reads what every earlier job wrote: it sees their events committed
    let seenBeforeBarrier = -1
    c.jobs.register('tally', async () => {
      seenBeforeBarrier = (await c.store.eventsAfter(0, 10_000)).length
    }, {barrier: true})
    const jobs = Array.from({length: 600}, (_, i) => ({
      id: c.ids.next('job'),
      kind: 'tick',
      ref: `r${i % 40}`,
      due_at: iso(T0 + Math.floor(Math.random() * 3_600_000)),
      data: i % 7 === 0 ? {follow: true} : undefined,
    }))
    await c.store.commit({addJobs: [...jobs, {id: c.ids.next('job'), kind: 'tally', ref: 'tally', due_at: iso(T0 + 1_800_000)}]})
    const summary = await c.jobs.runUntil(new Date(T0 + 4 * 3_600_000))
    const follows = jobs.filter((j) => j.data?.follow).length
    expect(summary.jobs.tick).toBe(600 + follows)
    expect(summary.jobs.tally).toBe(1)
    const events = await c.store.eventsAfter(0, 10_000)
    expect(events).toHaveLength(600 + follows)
    // seq order is due order
    const times = events.map((e) => e.created_at)
    expect(times).toEqual([...times].sort())
    expect(seenBeforeBarrier).toBe(events.filter((e) => e.created_at <= iso(T0 + 1_800_000)).length)
    expect(await c.store.claimJobs(iso(T0 + 400 * 86_400_000), 10, 1000)).toEqual([])
  })

  it('a failing handler is retried a minute later and does not stop the run', async () => {
    const c = await core()
    let calls = 0
    c.jobs.register('flaky', async (u) => {
      if (++calls === 1) throw new Error('boom')
      u.emit('test.flaky', {id: 'x'})
    })
    c.jobs.register('fine', async (u) => void u.emit('test.fine', {id: 'y'}))
    await c.store.commit({
      addJobs: [
        {id: c.ids.next('job'), kind: 'flaky', ref: 'a', due_at: iso(T0)},
        {id: c.ids.next('job'), kind: 'fine', ref: 'b', due_at: iso(T0 + 1000)},
      ],
    })
    const first = await c.jobs.runUntil(new Date(T0 + 30_000))
    expect(first.jobs).toEqual({fine: 1})
    expect((await c.store.claimJobs(iso(T0 + 400 * 86_400_000), 10, 1)).map((j) => j.due_at)).toEqual([iso(T0 + 60_000)])
    await new Promise((r) => setTimeout(r, 5))
    const second = await c.jobs.runUntil(new Date(T0 + 120_000))
    expect(second.jobs).toEqual({flaky: 1})
  })
})
