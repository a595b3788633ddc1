// An idempotency record's body kept as a reference to the event committed with it (migration 6,
// docs/decisions.md#storage-per-payment): a payment's record sends and stores no third copy of
// the payment's JSON, and every read gives the body back byte for byte — a replay on this instance
// or another, a snapshot's export, an instance that started before the migration (it reads through
// the same claim function), rows written before the migration.
import {rmSync} from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card} from '../../test-support/harness.js'
import {freshDatabase, sql} from '../../test-support/pg.js'
import {iso, nextId, pay, put, T0} from '../contract/helpers.js'
import {dataObjectOf} from '../idempotency-body.js'
import {PostgresStore} from './postgres-store.js'
import {MIGRATIONS} from './schema.js'

/** what a gw before migration 6 sends: its record insert and its claim (frozen copies) */
const OLD_INSERT =
  'INSERT INTO idempotency_keys (account, scope, key, request_hash, status, body, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (account, scope, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status, body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at'
const OLD_CLAIM = 'SELECT got, request_hash, status, body, created_at, expires_at FROM gw_claim_idempotency($1, $2, $3)'

/** an object whose JSON holds what a cut of the event could trip on: quotes, escapes, the envelope's own marker in a string, non-BMP characters */
const hostile = () =>
  JSON.stringify({id: nextId('pay'), object: 'payment', amount: 5, note: 'ü "quoted" \\n \u0000 \u2028 😀 "data":{"object":{}} }}', metadata: {'"data":{"object":': '}}'}})
const eventOf = (obj: string) => {
  const id = nextId('evt')
  return {id, type: 'payment.succeeded', created_at: iso(T0), json: `{"id":"${id}","object":"event","type":"payment.succeeded","created_at":"${iso(T0)}","livemode":false,"request_id":"req_\\"data\\":{\\"object\\":","data":{"object":${obj}}}`}
}
const record = (key: string, body: string, bodyOfEvent?: string) => ({scope: 'test', key, request_hash: 'h', status: 201, body, ...(bodyOfEvent ? {body_of_event: bodyOfEvent} : {}), created_at: iso(T0), expires_at: iso(T0 + 86_400_000)})
const stored = (url: string, key: string) => sql<{body: string | null; body_event: string | null}>(url, 'SELECT body, body_event FROM idempotency_keys WHERE key = $1', [key]).then((r) => r[0])

describe('idempotency bodies kept as references to their events (PostgreSQL)', () => {
  let url: string
  let a: PostgresStore
  let b: PostgresStore
  beforeAll(async () => {
    url = await freshDatabase('idembody')
    a = await PostgresStore.open({url, unitConnections: 2, readConnections: 2})
    b = await PostgresStore.open({url, unitConnections: 2, readConnections: 2})
  })
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()])
  })

  it("a body that is its event's data.object is stored as the event's id and comes back byte for byte: claims on either instance, snapshots, an older instance's claim", async () => {
    const acct = 'acct_idem_ref'
    const obj = hostile()
    const e = eventOf(obj)
    expect(dataObjectOf(e.json)).toBe(obj)
    // a group of one statement, and one statement by statement (an update of a row written twice in the group)
    const p = pay()
    await a.account(acct).commit({puts: [put('payment', p)], events: [e], idempotency: record('k-ref', obj, e.id)})
    const e2 = eventOf(hostile())
    await a.account(acct).commit({puts: [put('payment', {...p, status: 'x'}, 1)], deletes: [{kind: 'payment', id: 'pay_none'}], events: [e2], idempotency: record('k-ref-2', dataObjectOf(e2.json), e2.id)})
    expect(await stored(url, 'k-ref')).toEqual({body: null, body_event: e.id})
    expect(await stored(url, 'k-ref-2')).toEqual({body: null, body_event: e2.id})
    for (const s of [a, b]) {
      const got = await s.account(acct).transact((tx) => tx.claimIdempotency('test', 'k-ref', iso(T0)))
      expect(got).toEqual({state: 'recorded', record: {scope: 'test', key: 'k-ref', request_hash: 'h', status: 201, body: obj, created_at: iso(T0), expires_at: iso(T0 + 86_400_000)}})
    }
    // an instance that started before the migration calls the same function
    expect((await sql(url, OLD_CLAIM, [acct, 'test', 'k-ref-2']))[0].body).toBe(dataObjectOf(e2.json))
    const rows = await b.account(acct).exportRows()
    expect(rows.idempotency.map((r) => [r.key, r.body])).toEqual([
      ['k-ref', obj],
      ['k-ref-2', dataObjectOf(e2.json)],
    ])
    const parts: string[] = []
    for await (const part of b.account(acct).exportParts(1)) if (part.section === 'idempotency') parts.push(...part.items.map((r) => r.body))
    expect(parts).toEqual([obj, dataObjectOf(e2.json)])
    // restored into another account: bodies as they were (kept as copies there)
    await a.account('acct_idem_ref_copy').commit({restore: rows})
    expect(await b.account('acct_idem_ref_copy').transact((tx) => tx.claimIdempotency('test', 'k-ref', iso(T0)))).toMatchObject({state: 'recorded', record: {body: obj}})
  })

  it('a body that is not its event\'s data.object, or names no event, stays a copy; an older instance\'s write over a reference reads as its own body', async () => {
    const acct = 'acct_idem_copy'
    const obj = hostile()
    const e = eventOf(obj)
    await a.account(acct).commit({events: [e], idempotency: record('k-differs', obj.replace('"amount":5', '"amount":6'), e.id)})
    await a.account(acct).commit({idempotency: record('k-none', obj)})
    // the event named is not in the change set
    await a.account(acct).commit({idempotency: record('k-elsewhere', obj, e.id)})
    for (const key of ['k-differs', 'k-none', 'k-elsewhere']) expect((await stored(url, key))!.body_event).toBeNull()
    expect(await b.account(acct).transact((tx) => tx.claimIdempotency('test', 'k-differs', iso(T0)))).toMatchObject({record: {body: obj.replace('"amount":5', '"amount":6')}})
    // a record by reference, then an expired one replaced by an older gw's insert (which does not know body_event)
    const e2 = eventOf(hostile())
    await a.account(acct).commit({events: [e2], idempotency: record('k-old-over', dataObjectOf(e2.json), e2.id)})
    await sql(url, OLD_INSERT, [acct, 'test', 'k-old-over', 'h2', 200, '{"old":true}', iso(T0), iso(T0 + 1000)])
    expect(await b.account(acct).transact((tx) => tx.claimIdempotency('test', 'k-old-over', iso(T0)))).toMatchObject({record: {request_hash: 'h2', body: '{"old":true}'}})
    // and a record by reference replacing one with a body: the body goes
    const e3 = eventOf(hostile())
    await a.account(acct).commit({events: [e3], idempotency: record('k-old-over', dataObjectOf(e3.json), e3.id)})
    expect(await stored(url, 'k-old-over')).toEqual({body: null, body_event: e3.id})
    expect(await b.account(acct).transact((tx) => tx.claimIdempotency('test', 'k-old-over', iso(T0)))).toMatchObject({record: {body: dataObjectOf(e3.json)}})
  })
})

describe('PostgreSQL migration 6 on a database migration 5 left', () => {
  it("keeps the records written before it readable (their bodies stay), and a payment's record after it is a reference replayed byte for byte", async () => {
    const url = await freshDatabase('idemmig')
    await sql(url, 'CREATE TABLE gw_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)')
    for (let i = 0; i < 5; i++) await sql(url, MIGRATIONS[i]!)
    await sql(url, 'INSERT INTO gw_schema_migrations SELECT v, now() FROM generate_series(1, 5) v')
    const old = hostile()
    await sql(url, OLD_INSERT, ['acct_default', 'test', 'k-before', 'h', 201, old, iso(T0), iso(T0 + 86_400_000)])

    const engine = await bootEngine({storeUrl: url})
    try {
      expect((await sql(url, 'SELECT max(version) AS v FROM gw_schema_migrations'))[0].v).toBe(MIGRATIONS.length)
      expect(await stored(url, 'k-before')).toEqual({body: old, body_event: null})
      const s = await PostgresStore.open({url, unitConnections: 1, readConnections: 1})
      try {
        expect(await s.account('acct_default').transact((tx) => tx.claimIdempotency('test', 'k-before', iso(T0)))).toMatchObject({state: 'recorded', record: {body: old}})
      } finally {
        await s.close()
      }
      // a payment through the API: its record is its last event's id, and a retry gets the same bytes
      const key = `idem-body-${Date.now()}`
      const body = {amount: 1500, currency: 'EUR', payment_method: 'card', payment_method_data: card(), metadata: {note: 'ü "q" 😀 \u2028'}}
      const first = await engine.api('POST', '/payments', body, {'idempotency-key': key})
      expect(first.status).toBe(201)
      const row = (await sql<{body: string | null; body_event: string | null}>(url, 'SELECT body, body_event FROM idempotency_keys WHERE key = $1', [key]))[0]!
      expect(row.body).toBeNull()
      expect(row.body_event).toMatch(/^evt_/)
      const again = await engine.api('POST', '/payments', body, {'idempotency-key': key})
      expect(again.status).toBe(201)
      expect(again.headers['idempotent-replayed']).toBe('true')
      expect(again.text).toBe(first.text)
      // an answer that is no event's (a 4xx is recorded too) keeps its body
      const bad = await engine.api('POST', '/payments', {amount: -1, currency: 'EUR'}, {'idempotency-key': `${key}-bad`})
      expect(bad.status).toBe(400)
      expect(await stored(url, `${key}-bad`)).toEqual({body: bad.text, body_event: null})
    } finally {
      await engine.stop()
      rmSync(engine.dataDir, {recursive: true, force: true})
    }
  })
})
