// Reading a snapshot cannot stall the others (docs/api.md#reading-a-large-snapshot), over HTTPS on
// SQLite and PostgreSQL: one read of an account's snapshot at a time — another is 429 with
// Retry-After, saying so, on every instance (the store's section) — and a read the client leaves
// lets go of it; what is written out is the account at one moment, whole.
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {SNAPSHOT_READ_SECTION} from '../http/snapshot-out.js'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {waitFor} from '../test-support/wait.js'
import {cardPayment, expectError} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t?.stop())

/** Holds the account's snapshot-read section as a read in progress would (here or on another instance of the fleet). */
async function readInProgress(account: string): Promise<() => Promise<void>> {
  const core = t.engine.app.loaded(account) ?? (await t.engine.app.account(account))
  let release!: () => void
  let entered!: () => void
  const inside = new Promise<void>((r) => (entered = r))
  const held = core.store.exclusive(SNAPSHOT_READ_SECTION, () => {
    entered()
    return new Promise<void>((r) => (release = r))
  })
  await inside
  return async () => {
    release()
    await held
  }
}

describe('reading a snapshot (item 1)', () => {
  it('while a read of the account is being written out, another is 429 with Retry-After, saying so; other accounts read theirs; then it is read', async () => {
    const a = await t.account('read')
    const b = await t.account('reads too')
    expect((await a.api('POST', '/payments', cardPayment())).status).toBe(201)
    const done = await readInProgress(a.id)
    const r = await a.api('GET', '/test_helpers/snapshot')
    const e = expectError(r, 429, 'rate_limit_error', 'rate_limit_exceeded')
    expect(r.headers['retry-after']).toBe('1')
    expect(e.message).toMatch(/snapshot of this account is being read already: one read of an account's snapshot at a time/)
    // not a budget of the account's: its other requests go on, and so do other accounts' reads
    expect((await a.api('GET', '/payments?limit=1')).status).toBe(200)
    expect((await b.api('GET', '/test_helpers/snapshot')).status).toBe(200)
    await done()
    const read = await a.api('GET', '/test_helpers/snapshot')
    expect(read.status, read.text).toBe(200)
    expect(read.body.rows.objects.filter((o: any) => o.kind === 'payment')).toHaveLength(1)
  })

  it('a read the client leaves lets go of the account: the next read is answered, whole', async () => {
    const a = await t.account('left')
    for (let i = 0; i < 30; i++) expect((await a.api('POST', '/payments', cardPayment({description: 'x'.repeat(900)}))).status).toBe(201)
    const res = await request(`${t.engine.baseUrl}/test_helpers/snapshot`, {headers: {authorization: `Bearer ${a.key}`}, dispatcher: t.agent})
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    res.body.destroy()
    const whole = await waitFor('the account read again', async () => {
      const r = await a.api('GET', '/test_helpers/snapshot')
      return r.status === 200 ? r : undefined
    })
    expect(whole.body.rows.objects.filter((o: any) => o.kind === 'payment')).toHaveLength(30)
    expect(whole.body).toMatchObject({object: 'snapshot', format: 'gw.snapshot', version: 1, account: a.id})
    expect(Object.keys(whole.body.rows)).toEqual(['objects', 'events', 'jobs', 'idempotency', 'stats', 'settings'])
  })

  it('a client that has read the whole snapshot reads it again at once: the read lets go of the account before its last chunk', async () => {
    const a = await t.account('again')
    expect((await a.api('POST', '/payments', cardPayment())).status).toBe(201)
    for (let i = 0; i < 20; i++) {
      const r = await a.api('GET', `/test_helpers/snapshot${i % 2 ? '?include_secrets=true' : ''}`)
      expect(r.status, `read ${i + 1}: ${r.text.slice(0, 200)}`).toBe(200)
    }
  })

  it('a read is the account at the moment it began: what is written meanwhile is not in it, and it loads back', async () => {
    const a = await t.account('moment')
    for (let i = 0; i < 40; i++) expect((await a.api('POST', '/payments', cardPayment())).status).toBe(201)
    const reading = a.api('GET', '/test_helpers/snapshot')
    const writes = Array.from({length: 5}, () => a.api('POST', '/payments', cardPayment()))
    const [r, ...made] = await Promise.all([reading, ...writes])
    expect(r.status, r.text).toBe(200)
    for (const m of made) expect(m.status).toBe(201)
    const payments = r.body.rows.objects.filter((o: any) => o.kind === 'payment').length
    expect(payments).toBeGreaterThanOrEqual(40)
    // a payment committed before the read began is in it with its event and ledger entries; none is half in
    expect(r.body.rows.events.filter((e: any) => e.type === 'payment.succeeded')).toHaveLength(payments)
    expect(r.body.rows.objects.filter((o: any) => o.kind === 'ledger_entry')).toHaveLength(2 * payments)
    const into = await t.account('loaded')
    const loaded = await into.api('POST', '/test_helpers/snapshot', r.text)
    expect(loaded.status, loaded.text).toBe(200)
    expect(loaded.body.objects).toBe(r.body.rows.objects.length)
  })
})
