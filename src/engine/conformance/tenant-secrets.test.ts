// Secrets at rest (docs/decisions.md#secrets-at-rest), as a tenant of a shared gateway would try it (SQLite, and PostgreSQL in the
// conformance-postgres project): secrets are shown once and never rest in the clear. After keys,
// accounts, rolled keys and webhook endpoints are made (and rotated) with Idempotency-Keys, no
// working key or signing secret is in the database — its files byte for byte and every stored
// value decoded (SQLite packs large values), or every text column of every table (PostgreSQL) —
// nor in a snapshot saved without include_secrets, nor in any answer to the platform account's
// read keys. Deliveries still verify after a restart, on an instance started with a copy of the
// secrets key, and after a snapshot is loaded elsewhere; an instance with another key is refused.
import {copyFileSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {SEARCH_KEYS_COLUMNS} from '../store/sqlite/schema.js'
import {databaseText, ownStore} from '../test-support/database-text.js'
import {openapiDocument} from '../../api/openapi/document.js'
import {verifySignature} from '../../api/webhook-signature.js'
import {startEngine, type EngineOptions} from '../index.js'
import {createKeyFile} from '../adapters/secret-box.js'
import {canonical, sha256Hex} from '../http/request.js'
import {bootEngine, card, fleetSecretsKeyFile, type AsKey, type Res, type TestEngine} from '../test-support/harness.js'
import {testReceiver, type Received, type TestReceiver} from '../test-support/tls-receiver.js'
import {tempDirs} from '../test-support/tmp.js'
import {waitFor} from '../test-support/wait.js'

const onPostgres = process.env.GW_TEST_STORE === 'postgres'
/** directories for copies of a secrets key, removed after each test */
const keyCopies = tempDirs('gw-key-copy-')
/** The shape of any working key or signing secret the engine makes. */
const WORKING = /[srp]k_(?:test|live)_[0-9A-Za-z]{32}|whsec_[A-Za-z0-9_-]{43}/g

/** The secrets of `secrets` that `text` holds (their random part), and any other working key or signing secret in it. */
function leaked(text: string, secrets: readonly string[]): string[] {
  const found = secrets.filter((s) => text.includes(s.slice(s.startsWith('whsec_') ? 6 : 8)))
  return [...found, ...(text.match(WORKING) ?? [])]
}

/** A key file of another key. */
function anotherKey(path = fleetSecretsKeyFile()): string {
  createKeyFile(path)
  return path
}

const redacted = (secret: string) => `${secret.slice(0, secret.startsWith('whsec_') ? 6 : 8)}…${secret.slice(-4)}`

/** The same request twice with one Idempotency-Key: the answer, and its replay. */
async function twice(k: AsKey, path: string, body: unknown): Promise<[Res, Res]> {
  const key = `secrets-${Math.random()}`
  const first = await k.api('POST', path, body, {'idempotency-key': key})
  return [first, await k.api('POST', path, body, {'idempotency-key': key})]
}

function expectRedactedReplay(first: Res, replay: Res, fields: string[]): void {
  expect(first.status, first.text).toBeLessThan(300)
  expect(replay.status).toBe(first.status)
  expect(replay.headers['idempotent-replayed']).toBe('true')
  const want = {...first.body}
  for (const f of fields) want[f] = redacted(first.body[f])
  expect(replay.body).toEqual(want)
}

/** Whether a delivery's signature verifies with the secret. */
const verifies = (d: Received, secret: string): boolean => {
  try {
    verifySignature({payload: d.body, header: d.headers['service-signature'], secret})
    return true
  } catch {
    return false
  }
}

let t: TestEngine
let url: string | undefined
let rx: TestReceiver
beforeAll(async () => {
  const own = await ownStore()
  url = own.url
  rx = await testReceiver()
  t = await bootEngine({...own.opts, rateLimit: 0})
})
afterAll(async () => {
  await t?.stop()
  await rx?.close()
})

/** A payment in the account and the delivery of its payment.succeeded. */
async function paidAndDelivered(k: AsKey, pay: Record<string, unknown> = {}): Promise<Received> {
  const p = await k.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), ...pay})
  expect(p.status, p.text).toBe(201)
  return waitFor(`delivery of ${p.body.id}`, () => rx.received.find((d) => d.body.includes(`"id":"${p.body.id}"`)))
}

describe('secrets at rest', () => {
  /** every working secret made in this file */
  const secrets: string[] = []
  let a: Awaited<ReturnType<TestEngine['account']>>
  let endpoint: {id: string; first: string; rotated: string}
  /** a's snapshot without secrets, with them, and the saved cards in it */
  let snapshot: any
  let withSecrets: any
  let cards: {plain: string; declines: string}

  it('answers that show a secret once are replayed with it redacted: accounts, keys, rolled keys, endpoints and rotations', async () => {
    const [acct, acctAgain] = await twice(t.as(t.key), '/accounts', {name: 'tenant-a'})
    expectRedactedReplay(acct, acctAgain, ['secret_key', 'publishable_key'])
    secrets.push(acct.body.secret_key, acct.body.publishable_key)
    a = {id: acct.body.id, secretKey: acct.body.secret_key, publishableKey: acct.body.publishable_key, ...t.as(acct.body.secret_key)}
    expect((await a.api('GET', '/account')).body.id).toBe(a.id)

    for (const body of [{type: 'secret'}, {permissions: ['payments:read']}, {type: 'publishable'}]) {
      const [made, again] = await twice(a, '/api_keys', body)
      expectRedactedReplay(made, again, ['secret'])
      expect(again.body.secret).toBe(made.body.redacted)
      secrets.push(made.body.secret)
    }
    const rk = (await a.api('POST', '/api_keys', {name: 'to-roll', permissions: ['payments:read']})).body
    secrets.push(rk.secret)
    const [rolled, rolledAgain] = await twice(a, `/api_keys/${rk.id}/roll`, {expires_in: 3600})
    expectRedactedReplay(rolled, rolledAgain, ['secret'])
    secrets.push(rolled.body.secret)
    // the replay made nothing: the key and the one roll made of it
    expect((await a.api('GET', '/api_keys?limit=100')).body.data.filter((k: any) => k.name === 'to-roll')).toHaveLength(2)

    const [ep, epAgain] = await twice(a, '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})
    expectRedactedReplay(ep, epAgain, ['secret'])
    const [rot, rotAgain] = await twice(a, `/webhook_endpoints/${ep.body.id}/rotate_secret`, {expires_in: 3600})
    expectRedactedReplay(rot, rotAgain, ['secret'])
    endpoint = {id: ep.body.id, first: ep.body.secret, rotated: rot.body.secret}
    secrets.push(endpoint.first, endpoint.rotated)
    expect(rot.body.secret).not.toBe(ep.body.secret)
  })

  it('deliveries are signed with the sealed secrets: the rotated one and, during the overlap, the previous one', async () => {
    const d = await paidAndDelivered(a)
    expect(verifies(d, endpoint.rotated)).toBe(true)
    expect(verifies(d, endpoint.first)).toBe(true)
  })

  it('no working key or signing secret is in the database, byte for byte or decoded', async () => {
    const text = await databaseText(t, url)
    // (the scan reads what is there: the endpoint, its sealed secrets, the payment's packed JSON)
    expect(text).toContain(endpoint.id)
    expect(text).toContain('gwenc1:')
    expect(text).toContain('"object":"payment"')
    expect(leaked(text, secrets)).toEqual([])
  })

  it("a snapshot holds no signing secret and no card number but the published test cards' unless asked, and only a secret key may ask", async () => {
    const saved = async (number: string) => (await a.api('POST', '/payment_methods', card(number))).body.id as string
    cards = {plain: await saved('4111111111111111'), declines: await saved('4000000000000002')}
    const got = await a.api('GET', '/test_helpers/snapshot')
    expect(got.status).toBe(200)
    snapshot = got.body
    expect(leaked(got.text, secrets)).toEqual([])
    expect(got.text).not.toContain('4111111111111111')
    expect(got.text).toContain('411111') // first six and last four kept, so the card keeps its brand
    expect(got.text).toContain('4000000000000002')
    expect(snapshot.rows.objects.find((o: any) => o.obj.id === endpoint.id).obj._x).toMatchObject({secret: null, previous_secret: null})

    const rk = (await a.api('POST', '/api_keys', {permissions: ['test_helpers:write', 'webhooks:write']})).body.secret as string
    const refused = await a.as(rk).api('GET', '/test_helpers/snapshot?include_secrets=true')
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toMatch(/secret key/)
    const full = await a.api('GET', '/test_helpers/snapshot?include_secrets=true')
    expect(full.text).toContain(endpoint.rotated)
    expect(full.text).toContain('4111111111111111')
    withSecrets = full.body
  })

  it("the platform account's read keys find no working secret of any account on any route", async () => {
    const reader = (await t.api('POST', '/api_keys', {name: 'reader', permissions: ['*:read']})).body.secret as string
    const helpers = (await t.api('POST', '/api_keys', {name: 'helpers', permissions: ['test_helpers:read']})).body.secret as string
    const paths = Object.entries(openapiDocument().paths as Record<string, Record<string, unknown>>)
      .filter(([path, ops]) => 'get' in ops && !path.includes('{') && !path.endsWith('/stream') && path !== '/openapi.json')
      .map(([path]) => path)
    expect(paths).toContain('/test_helpers/snapshot')
    for (const key of [reader, helpers])
      for (const path of paths) {
        const r = await t.as(key).api('GET', path)
        expect(leaked(r.text, secrets), `${path} with ${key.slice(0, 8)}`).toEqual([])
      }
  })

  it('loaded into another account without secrets: the endpoint gets a new secret, saved cards behave as they did', async () => {
    const b = await t.account('tenant-b')
    const loaded = await b.api('POST', '/test_helpers/snapshot', snapshot)
    expect(loaded.status, loaded.text).toBe(200)
    expect(loaded.body.new_webhook_secrets).toBe(1)
    const d = await paidAndDelivered(b)
    expect(verifies(d, endpoint.rotated) || verifies(d, endpoint.first)).toBe(false)
    const fresh = (await b.api('POST', `/webhook_endpoints/${endpoint.id}/rotate_secret`, {expires_in: 0})).body.secret as string
    secrets.push(fresh)
    expect(verifies(await paidAndDelivered(b), fresh)).toBe(true)
    // the masked card still succeeds, the published declining card still declines
    const pay = (pm: string) => b.api('POST', '/payments', {amount: 1500, currency: 'EUR', payment_method: 'card', payment_method_id: pm})
    expect((await pay(cards.plain)).body.status).toBe('succeeded')
    expect((await pay(cards.declines)).body.error).toMatchObject({type: 'card_error', code: 'card_declined'})
  })

  it('loaded into another account with include_secrets: the endpoint keeps its secret, sealed with this engine\'s key', async () => {
    const c = await t.account('tenant-c')
    const loaded = await c.api('POST', '/test_helpers/snapshot', withSecrets)
    expect(loaded.body.new_webhook_secrets).toBe(0)
    const d = await paidAndDelivered(c)
    expect(verifies(d, endpoint.rotated)).toBe(true)
    expect(leaked(await databaseText(t, url), secrets)).toEqual([])
  })

  it('deliveries verify after a restart, and on an instance started with a copy of the secrets key; another key is refused', async () => {
    const copy = join(keyCopies(), 'fleet.key')
    copyFileSync(join(t.dataDir, 'secrets.key'), copy)
    await t.restart()
    expect(verifies(await paidAndDelivered(a), endpoint.rotated)).toBe(true)
    if (onPostgres) {
      // a second instance of the fleet
      const {postgresStore} = await import('../store/postgres/postgres-store.js')
      const two = await bootEngine({store: postgresStore(url!, {unitConnections: 2, readConnections: 2}), rateLimit: 0, secretsKeyFile: copy})
      try {
        expect(verifies(await paidAndDelivered(two.as(a.secretKey)), endpoint.rotated)).toBe(true)
      } finally {
        await two.stop()
      }
      const dir = mkdtempSync(join(tmpdir(), 'gw-other-key-'))
      await expect(startEngine({dataDir: dir, port: 0, log: () => {}, store: postgresStore(url!, {unitConnections: 2, readConnections: 2}), secretsKeyFile: anotherKey()})).rejects.toThrow(/--secrets-key-file .* is not the secrets key/)
      rmSync(dir, {recursive: true, force: true})
    } else {
      await t.restart({secretsKeyFile: copy})
      expect(verifies(await paidAndDelivered(a), endpoint.rotated)).toBe(true)
    }
    // nothing the restarts wrote holds a secret either (SQLite: the file after the last close's checkpoint)
    await t.restart()
    expect(leaked(await databaseText(t, url), secrets)).toEqual([])
  })
})

describe('the secrets key and the data it seals', () => {
  it('an engine started with another key than the one its database was sealed with is refused, as is one whose key file is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-key-'))
    const {opts} = await ownStore()
    const start = (o: Partial<EngineOptions> = {}) => startEngine({dataDir: dir, port: 0, apiKey: 'sk_test_secrets_key_test_0001', durability: 'normal', log: () => {}, ...opts, ...o})
    try {
      await (await start()).close()
      await expect(start({secretsKeyFile: anotherKey(join(dir, 'another.key'))})).rejects.toThrow(/--secrets-key-file .*another\.key is not the secrets key this database's webhook signing secrets are sealed with/)
      rmSync(join(dir, 'secrets.key'))
      await expect(start()).rejects.toThrow(/secrets\.key does not exist, and this database's webhook signing secrets are sealed/)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})

describe('data stored before secrets were sealed (an upgrade)', () => {
  it('idempotency records that hold a secret keep it redacted and plaintext signing secrets are sealed at start; deliveries still verify', async () => {
    const own = await ownStore()
    const e = await bootEngine({...own.opts, rateLimit: 0})
    try {
      const x = await e.account('before')
      const ep = (await x.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).body
      // as an older gw stored them: the endpoint's secret in the clear, and the full answer of a key's
      // creation in its idempotency record (large enough that SQLite packs it)
      const plain = `whsec_${'A'.repeat(39)}old1`
      const oldKey = `sk_test_${'B'.repeat(28)}old2`
      const store = e.engine.app.core.engineStore.account(x.id)
      await store.transact(async (tx) => {
        const got = (await tx.get<any>('webhook_endpoint', ep.id))!
        tx.commit({puts: [{kind: 'webhook_endpoint', obj: {...got.obj, _x: {...got.obj._x, secret: plain}}, expectVersion: got.version}]})
      })
      const body = {type: 'secret', name: 'n'.repeat(700)}
      const answer = {id: 'key_old', object: 'api_key', type: 'secret', name: body.name, redacted: `sk_test_…old2`, permissions: null, status: 'active', expires_at: null, last_used_at: null, revoked_at: null, livemode: false, created_at: new Date().toISOString(), secret: oldKey}
      const now = new Date()
      await store.commit({idempotency: {scope: 'test', key: 'old-1', request_hash: sha256Hex(`POST /api_keys\n${canonical(body)}`), status: 201, body: JSON.stringify(answer), created_at: now.toISOString(), expires_at: new Date(now.getTime() + 3_600_000).toISOString()}})
      expect(await databaseText(e, own.url)).toContain(plain.slice(6))
      // back to before this gw: no key check recorded, the scrubbing migration not applied
      await e.engine.close()
      // (and the migrations after it undone: the search columns)
      if (own.url) {
        const {sql} = await import('../test-support/pg.js')
        await sql(own.url, "DELETE FROM settings WHERE key IN ('fleet.secrets_key_check', 'fleet.secrets_sealed')")
        for (const [table, cols] of Object.entries(SEARCH_KEYS_COLUMNS)) for (const c of cols) await sql(own.url, `ALTER TABLE ${table} DROP COLUMN ${c}`)
        await sql(own.url, 'DELETE FROM gw_schema_migrations WHERE version >= 3')
      } else {
        const db = new Database(join(e.dataDir, 'gw.db'))
        db.exec("DELETE FROM settings WHERE key IN ('fleet.secrets_key_check', 'fleet.secrets_sealed'); DELETE FROM schema_migrations WHERE version >= 7")
        for (const [table, cols] of Object.entries(SEARCH_KEYS_COLUMNS)) for (const c of cols) db.exec(`DROP INDEX ${table}_${c}; ALTER TABLE ${table} DROP COLUMN ${c}`)
        db.close()
      }
      await e.restart()

      const replay = await x.api('POST', '/api_keys', body, {'idempotency-key': 'old-1'})
      expect(replay.headers['idempotent-replayed']).toBe('true')
      expect(replay.body).toEqual({...answer, secret: 'sk_test_…old2'})
      const sealed = (await e.engine.app.core.engineStore.account(x.id).get<any>('webhook_endpoint', ep.id))!.obj._x.secret as string
      expect(sealed).toMatch(/^gwenc1:/)
      const p = (await x.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})).body
      const d = await waitFor('delivery', () => rx.received.find((r) => r.body.includes(`"id":"${p.id}"`)))
      expect(verifies(d, plain)).toBe(true)
      await e.restart() // (SQLite: the file after a close's checkpoint)
      expect(leaked(await databaseText(e, own.url), [plain, oldKey])).toEqual([])
    } finally {
      await e.stop()
    }
  })
})
