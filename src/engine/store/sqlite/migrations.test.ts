import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, describe, expect, it} from 'vitest'
import {MIGRATIONS, SEARCH_KEYS_COLUMNS} from './schema.js'
import {SqliteStore} from './sqlite-store.js'
import {PLATFORM_ACCOUNT} from '../../ports/store.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})

describe('migrations', () => {
  it('a data dir written by migration 1 upgrades in place: ledger columns are backfilled and the balance sums them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-mig-'))
    dirs.push(dir)
    const path = join(dir, 'gw.db')
    const old = new Database(path)
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)')
    old.exec(MIGRATIONS[0]!)
    old.prepare('INSERT INTO schema_migrations VALUES (1, ?)').run(new Date().toISOString())
    const entry = (id: string, amount: number, available_at: string) =>
      JSON.stringify({id, object: 'ledger_entry', type: 'payment', amount, currency: 'EUR', payment: 'pay_1', source: null, provider: 'prov_x', reference: 'r', available_at, created_at: '2026-01-01T00:00:00.000Z'})
    const ins = old.prepare('INSERT INTO ledger_entries (id, created_at, version, data, currency, payment, type) VALUES (?, ?, 1, ?, ?, ?, ?)')
    ins.run('le_1', '2026-01-01T00:00:00.000Z', entry('le_1', 700, '2026-01-01T00:00:00.000Z'), 'EUR', 'pay_1', 'payment')
    ins.run('le_2', '2026-01-01T00:00:00.000Z', entry('le_2', 300, '2099-01-01T00:00:00.000Z'), 'EUR', 'pay_1', 'payment')
    old.close()

    const store = new SqliteStore({path, durability: 'normal'})
    expect((store.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {v: number}).v).toBe(MIGRATIONS.length)
    expect(await store.account(PLATFORM_ACCOUNT).sum('ledger_entry', {field: 'amount', groupBy: 'currency'})).toEqual([{group: 'EUR', sum: 1000}])
    expect(
      await store.account(PLATFORM_ACCOUNT).sum('ledger_entry', {field: 'amount', groupBy: 'currency', filters: [{field: 'available_at', op: 'lte', value: '2030-01-01T00:00:00.000Z'}]}),
    ).toEqual([{group: 'EUR', sum: 700}])
    await store.close()
  })

  it('a data dir written before migration 3 upgrades in place: internal state moves to its column, booleans become integers, pending deliveries join the queue', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-mig-'))
    dirs.push(dir)
    const path = join(dir, 'gw.db')
    const old = new Database(path)
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)')
    for (const [i, sql] of MIGRATIONS.slice(0, 2).entries()) {
      old.exec(sql)
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(i + 1, new Date().toISOString())
    }
    const at = '2026-01-01T00:00:00.000Z'
    const ep = (id: string, disabled: boolean) => JSON.stringify({id, object: 'webhook_endpoint', url: 'https://x.example/h', disabled, created_at: at, _x: {secret: 'whsec_1'}})
    old.prepare('INSERT INTO webhook_endpoints (id, created_at, version, data, disabled) VALUES (?, ?, 1, ?, ?)').run('wh_on', at, ep('wh_on', false), 'false')
    old.prepare('INSERT INTO webhook_endpoints (id, created_at, version, data, disabled) VALUES (?, ?, 1, ?, ?)').run('wh_off', at, ep('wh_off', true), 'true')
    const delivery = (id: string, status: string, next: string | null) =>
      JSON.stringify({id, object: 'webhook_delivery', event: 'evt_1', endpoint: 'wh_on', status, next_attempt_at: next, created_at: at, _x: {retry_until: at}})
    const insD = old.prepare('INSERT INTO deliveries (id, created_at, version, data, event, endpoint, status) VALUES (?, ?, 1, ?, ?, ?, ?)')
    insD.run('whd_due', at, delivery('whd_due', 'pending', at), 'evt_1', 'wh_on', 'pending')
    insD.run('whd_done', at, delivery('whd_done', 'succeeded', null), 'evt_1', 'wh_on', 'succeeded')
    old.prepare('INSERT INTO jobs (id, kind, ref, due_at) VALUES (?, ?, ?, ?)').run('job_1', 'webhook.deliver', 'whd_due', at)
    old.prepare('INSERT INTO jobs (id, kind, ref, due_at) VALUES (?, ?, ?, ?)').run('job_2', 'payment.auth_expiry', 'pay_1', at)
    old.close()

    const store = new SqliteStore({path, durability: 'normal'})
    expect((store.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {v: number}).v).toBe(MIGRATIONS.length)
    const raw = store.db.prepare("SELECT data, internal, disabled, typeof(disabled) AS t FROM webhook_endpoints WHERE id = 'wh_off'").get() as Record<string, unknown>
    expect(JSON.parse(raw.data as string)).not.toHaveProperty('_x')
    expect(JSON.parse(raw.internal as string)).toEqual({secret: 'whsec_1'})
    expect([raw.disabled, raw.t]).toEqual([1, 'integer'])
    expect((await store.account(PLATFORM_ACCOUNT).get<{id: string; created_at: string; _x: unknown}>('webhook_endpoint', 'wh_off'))!.obj._x).toEqual({secret: 'whsec_1'})
    expect((await store.account(PLATFORM_ACCOUNT).all('webhook_endpoint', [{field: 'disabled', op: 'eq', value: false}])).map((e) => e.id)).toEqual(['wh_on'])
    // deliveries are a queue of their own now: the old per-delivery jobs are gone, other jobs stay
    expect((await store.claimDeliveries(() => at, {limit: 10, perEndpoint: 10, leaseMs: 1000})).map((d) => d.id)).toEqual(['whd_due'])
    expect((await store.account(PLATFORM_ACCOUNT).claimJobs(at, 10, 1000)).map((j) => j.kind)).toEqual(['payment.auth_expiry'])
    await store.close()
  })

  it('a data dir written before accounts (migration 5) opens as the platform account, unchanged; another account sees none of it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-mig-'))
    dirs.push(dir)
    const path = join(dir, 'gw.db')
    const old = new Database(path)
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)')
    for (const [i, sql] of MIGRATIONS.slice(0, 5).entries()) {
      old.exec(sql)
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(i + 1, new Date().toISOString())
    }
    const at = '2026-01-01T00:00:00.000Z'
    old.prepare('INSERT INTO payments (id, created_at, version, data, status, reference) VALUES (?, ?, 1, ?, ?, ?)').run('pay_old', at, JSON.stringify({id: 'pay_old', object: 'payment', status: 'succeeded', created_at: at}), 'succeeded', 'order-1')
    old.prepare('INSERT INTO events (id, type, created_at, json) VALUES (?, ?, ?, ?)').run('evt_old', 'payment.succeeded', at, JSON.stringify({id: 'evt_old', data: {object: {id: 'pay_old', object: 'payment'}}}))
    // a later event, purged: the log's high-water mark must survive the rebuild (a seq is never given twice)
    old.prepare('INSERT INTO events (id, type, created_at, json) VALUES (?, ?, ?, ?)').run('evt_gone', 'refund.succeeded', at, '{}')
    old.prepare("DELETE FROM events WHERE id = 'evt_gone'").run()
    old.prepare('INSERT INTO jobs (id, kind, ref, due_at) VALUES (?, ?, ?, ?)').run('job_old', 'settlement.run', 'settlement', at)
    old.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('clock_offset_ms', '86400000')
    old.prepare('INSERT INTO provider_stats (provider, day, approved, total) VALUES (?, ?, ?, ?)').run('prov_a', '2026-01-01', 3, 4)
    old
      .prepare('INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run('acct_local:test', 'k1', 'h', 201, '{"id":"pay_old"}', at, '2099-01-01T00:00:00.000Z')
    old.close()

    const store = new SqliteStore({path, durability: 'normal'})
    expect(store.schemaVersion()).toBe(MIGRATIONS.length)
    const platform = store.account(PLATFORM_ACCOUNT)
    expect((await platform.get('payment', 'pay_old'))?.version).toBe(1)
    expect((await platform.list('payment', {limit: 5, filters: [{field: 'reference', op: 'eq', value: 'order-1'}]})).data.map((p) => p.id)).toEqual(['pay_old'])
    const oldEvent = await platform.getEvent('evt_old')
    expect(JSON.parse(oldEvent!.json).id).toBe('evt_old')
    // the event's object and payment were filled in from its bytes: the payment's story finds it
    expect((await platform.listEvents({limit: 5, subject: 'pay_old'})).data.map((e) => e.id)).toEqual(['evt_old'])
    await platform.commit({events: [{id: 'evt_new', type: 'payment.succeeded', created_at: at, json: '{}'}]})
    expect((await platform.getEvent('evt_new'))!.seq).toBe(oldEvent!.seq + 2)
    expect(await platform.getSetting('clock_offset_ms')).toBe('86400000')
    expect(await platform.statsSince('2026-01-01')).toEqual([{provider: 'prov_a', day: '2026-01-01', approved: 3, total: 4}])
    expect((await platform.claimJobs(at, 5, 1000)).map((j) => j.id)).toEqual(['job_old'])
    // idempotency records are the account's, scoped by mode: the old 'acct_local:test' is the platform account's 'test'
    const claim = await platform.transact((tx) => tx.claimIdempotency('test', 'k1', at))
    expect(claim).toMatchObject({state: 'recorded', record: {body: '{"id":"pay_old"}'}})

    const other = store.account('acct_other')
    expect(await other.get('payment', 'pay_old')).toBeUndefined()
    expect((await other.list('payment', {limit: 5})).data).toEqual([])
    expect(await other.getEvent('evt_old')).toBeUndefined()
    expect(await other.getSetting('clock_offset_ms')).toBeUndefined()
    expect(await other.statsSince('2026-01-01')).toEqual([])
    expect(await other.claimJobs(at, 5, 1000)).toEqual([])
    expect(await store.locate('payment', 'id', 'pay_old')).toMatchObject({account: PLATFORM_ACCOUNT, obj: {id: 'pay_old'}})
    await store.close()
  })

  it('migration 8 fills the search columns of stored payments and customers: found by last four digits, email in any case, domain, name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-mig-'))
    dirs.push(dir)
    const path = join(dir, 'gw.db')
    const old = new Database(path)
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)')
    for (const [i, sql] of MIGRATIONS.slice(0, 7).entries()) {
      old.exec(sql)
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(i + 1, new Date().toISOString())
    }
    const at = '2026-01-01T00:00:00.000Z'
    const customer = {id: 'cus_zoe', object: 'customer', email: 'Zoe@Lovelace-Shop.example', name: 'Zoë  Lovelace', created_at: at}
    old.prepare('INSERT INTO customers (account, id, created_at, version, data, email) VALUES (1, ?, ?, 1, ?, ?)').run('cus_zoe', at, JSON.stringify(customer), customer.email)
    const payment = {id: 'pay_zoe', object: 'payment', status: 'succeeded', customer: 'cus_zoe', reference: 'order-1', created_at: at}
    old.prepare('INSERT INTO payments (account, id, created_at, version, data, internal, status, customer, reference) VALUES (1, ?, ?, 1, ?, ?, ?, ?, ?)').run('pay_zoe', at, JSON.stringify(payment), JSON.stringify({instrument: {brand: 'visa', last4: '4242'}}), 'succeeded', 'cus_zoe', 'order-1')
    old.close()

    const store = new SqliteStore({path, durability: 'normal'})
    expect(store.schemaVersion()).toBe(MIGRATIONS.length)
    const platform = store.account(PLATFORM_ACCOUNT)
    const found = async (filters: Parameters<typeof platform.all>[1]) => (await platform.all<{id: string; created_at: string}>('payment', filters)).map((p) => p.id)
    expect(await found([{field: 'card_last4', op: 'eq', value: '4242'}])).toEqual(['pay_zoe'])
    const of = (filters: Parameters<typeof platform.all>[1] & object) => [{field: 'customer' as const, op: 'of' as const, kind: 'customer' as const, any: [filters]}]
    expect(await found(of([{field: 'email_key', op: 'eq', value: 'zoe@lovelace-shop.example'}]))).toEqual(['pay_zoe'])
    expect(await found(of([{field: 'email_domain', op: 'eq', value: 'lovelace-shop.example'}]))).toEqual(['pay_zoe'])
    expect(await found(of([{field: 'name_key', op: 'prefix', value: 'zoe lov'}]))).toEqual(['pay_zoe'])
    expect(await found(of([{field: 'surname_key', op: 'prefix', value: 'love'}]))).toEqual(['pay_zoe'])
    await store.close()
  })

  it("migration 9 re-keys the reference indexes on rows stored before it: each account still finds exactly its own deliveries, ledger entries, refunds and events", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-mig-'))
    dirs.push(dir)
    const path = join(dir, 'gw.db')
    const old = new Database(path)
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)')
    for (const [i, sql] of MIGRATIONS.slice(0, 8).entries()) {
      old.exec(sql)
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(i + 1, new Date().toISOString())
    }
    old.prepare("INSERT INTO account_numbers (n, id) VALUES (2, 'acct_two')").run()
    const at = '2026-01-01T00:00:00.000Z'
    // the same ids in both accounts (a snapshot loaded twice): only the account tells them apart
    for (const n of [1, 2]) {
      const mark = {mine: n}
      for (const [id, status] of [['whd_1', 'succeeded'], ['whd_2', 'failed']])
        old.prepare('INSERT INTO deliveries (account, id, created_at, version, data, event, endpoint, status) VALUES (?, ?, ?, 1, ?, ?, ?, ?)').run(n, id, at, JSON.stringify({id, object: 'webhook_delivery', ...mark, created_at: at}), 'evt_1', 'wh_1', status)
      old.prepare('INSERT INTO ledger_entries (account, id, created_at, version, data, currency, payment, type, available_at, amount) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)').run(n, 'le_1', at, JSON.stringify({id: 'le_1', ...mark}), 'EUR', 'pay_1', 'payment', at, 100 * n)
      old.prepare('INSERT INTO refunds (account, id, created_at, version, data, payment, status) VALUES (?, ?, ?, 1, ?, ?, ?)').run(n, 're_1', at, JSON.stringify({id: 're_1', object: 'refund', ...mark, created_at: at}), 'pay_1', 'pending')
      old.prepare('INSERT INTO events (account, id, type, created_at, json, object_id, payment) VALUES (?, ?, ?, ?, ?, ?, ?)').run(n, 'evt_1', 'refund.created', at, JSON.stringify({id: 'evt_1', ...mark}), 're_1', 'pay_1')
    }
    old.close()

    const store = new SqliteStore({path, durability: 'normal'})
    expect(store.schemaVersion()).toBe(MIGRATIONS.length)
    const indexes = Object.fromEntries((store.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as {name: string; sql: string}[]).map((r) => [r.name, r.sql]))
    expect(indexes.deliveries_status).toBeUndefined()
    expect(indexes.deliveries_account).toBeUndefined()
    expect(indexes.deliveries_event).toMatch(/\(event, account, seq\)/)
    expect(indexes.ledger_entries_payment).toMatch(/\(payment, account, seq\)/)
    expect(indexes.events_subject).toMatch(/\(COALESCE\(payment, object_id\), account, seq\)/)
    for (const [account, n] of [[PLATFORM_ACCOUNT, 1], ['acct_two', 2]] as const) {
      const a = store.account(account)
      const mine = (objs: {mine?: number}[]) => objs.map((o) => o.mine)
      expect(mine((await a.list<{id: string; created_at: string; mine: number}>('delivery', {limit: 10, filters: [{field: 'event', op: 'eq', value: 'evt_1'}]})).data)).toEqual([n, n])
      expect((await a.list<{id: string; created_at: string}>('delivery', {limit: 10, filters: [{field: 'endpoint', op: 'eq', value: 'wh_1'}, {field: 'status', op: 'eq', value: 'failed'}]})).data.map((d) => d.id)).toEqual(['whd_2'])
      expect(await a.sum('ledger_entry', {field: 'amount', groupBy: 'currency', filters: [{field: 'payment', op: 'eq', value: 'pay_1'}]})).toEqual([{group: 'EUR', sum: 100 * n}])
      expect(mine(await a.all<{id: string; created_at: string; mine: number}>('refund', [{field: 'payment', op: 'eq', value: 'pay_1'}]))).toEqual([n])
      expect((await a.listEvents({limit: 10, subject: 'pay_1'})).data.map((e) => JSON.parse(e.json).mine)).toEqual([n])
      expect(store.exportRows(account).objects.filter((o) => o.kind === 'delivery')).toHaveLength(2)
    }
    await store.close()
  })

  it('a data dir written by a newer gw is refused with a message to upgrade', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-mig-'))
    dirs.push(dir)
    const path = join(dir, 'gw.db')
    await new SqliteStore({path, durability: "normal"}).close()
    const db = new Database(path)
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(MIGRATIONS.length + 1, new Date().toISOString())
    db.close()
    expect(() => new SqliteStore({path, durability: 'normal'})).toThrow(/newer gw.*upgrade/)
  })
})

describe('secrets at rest', () => {
  const fileText = (path: string) => ['', '-wal'].map((x) => (existsSync(path + x) ? readFileSync(path + x).toString('latin1') : '')).join('')

  it('migration 7 redacts the secrets shown once in stored answers, packed or not, and leaves no copy in the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-mig-'))
    dirs.push(dir)
    const path = join(dir, 'gw.db')
    let store = new SqliteStore({path, durability: 'normal'})
    const at = new Date().toISOString()
    const rec = (key: string, body: string) => ({scope: 'test', key, request_hash: 'h', status: 201, body, created_at: at, expires_at: '2999-01-01T00:00:00.000Z'})
    const sk = `sk_test_${'S'.repeat(28)}sk01`
    const whsec = `whsec_${'W'.repeat(39)}wh02`
    const small = JSON.stringify({id: 'acct_1', object: 'account', secret_key: sk, publishable_key: `pk_test_${'P'.repeat(28)}pk03`})
    const large = JSON.stringify({id: 'wh_1', object: 'webhook_endpoint', secret: whsec, description: 'd'.repeat(800)})
    const payment = JSON.stringify({id: 'pay_1', object: 'payment', metadata: {secret: 'not a key'}})
    const acct = store.account(PLATFORM_ACCOUNT)
    await acct.commit({idempotency: rec('k1', small)})
    await acct.commit({idempotency: rec('k2', large)})
    await acct.commit({idempotency: rec('k3', payment)})
    await store.close()
    // as before this gw: migration 7 not applied (nor the later ones, whose columns go too)
    const old = new Database(path)
    old.prepare('DELETE FROM schema_migrations WHERE version >= 7').run()
    for (const [t, cols] of Object.entries(SEARCH_KEYS_COLUMNS)) for (const c of cols) old.exec(`DROP INDEX ${t}_${c}; ALTER TABLE ${t} DROP COLUMN ${c};`)
    // migration 9's indexes as migration 6 made them
    for (const [t, c] of [['deliveries', 'event'], ['deliveries', 'endpoint'], ['ledger_entries', 'payment'], ['refunds', 'payment'], ['disputes', 'payment'], ['checkout_sessions', 'payment']])
      old.exec(`DROP INDEX ${t}_${c}; CREATE INDEX ${t}_${c} ON ${t}(account, ${c}, seq) WHERE ${c} IS NOT NULL;`)
    old.exec(`CREATE INDEX deliveries_status ON deliveries(account, status, seq) WHERE status IS NOT NULL;
CREATE INDEX deliveries_account ON deliveries(account, seq);
DROP INDEX events_subject;
CREATE INDEX events_subject ON events(account, COALESCE(payment, object_id), seq);`)
    old.close()
    expect(fileText(path)).toContain(sk.slice(8))

    store = new SqliteStore({path, durability: 'normal'})
    expect(store.schemaVersion()).toBe(MIGRATIONS.length)
    const body = async (key: string) => {
      const c = await store.account(PLATFORM_ACCOUNT).transact((tx) => tx.claimIdempotency('test', key, at))
      return c.state === 'recorded' ? JSON.parse(c.record.body) : undefined
    }
    expect(await body('k1')).toEqual({...JSON.parse(small), secret_key: 'sk_test_…sk01', publishable_key: 'pk_test_…pk03'})
    expect(await body('k2')).toEqual({...JSON.parse(large), secret: 'whsec_…wh02'})
    expect(await body('k3')).toEqual(JSON.parse(payment))
    await store.close()
    const text = fileText(path)
    expect(text).not.toContain(sk.slice(8))
    expect(text).not.toContain(whsec.slice(6))
  })

  it('a row rewritten without a secret leaves no copy of it in its page (secure_delete)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-sd-'))
    dirs.push(dir)
    const path = join(dir, 'gw.db')
    let store = new SqliteStore({path, durability: 'normal'})
    const at = '2026-01-01T00:00:00.000Z'
    const ep = (id: string, secret: string) => ({id, object: 'webhook_endpoint', url: 'https://x.example/h', disabled: false, created_at: at, _x: {secret}})
    const plain = `whsec_${'Q'.repeat(39)}sd01`
    await store.account(PLATFORM_ACCOUNT).commit({puts: Array.from({length: 8}, (_, i) => ({kind: 'webhook_endpoint' as const, obj: ep(`wh_${i}`, i === 5 ? plain : `whsec_other${i}`)}))})
    // in the database file (a close checkpoints), as data stored before sealing is
    await store.close()
    expect(fileText(path)).toContain(plain.slice(6))
    store = new SqliteStore({path, durability: 'normal'})
    await store.account(PLATFORM_ACCOUNT).commit({puts: [{kind: 'webhook_endpoint', obj: ep('wh_5', `gwenc1:${'z'.repeat(110)}`), expectVersion: 1}]})
    await store.close()
    expect(fileText(path)).not.toContain(plain.slice(6))
  })
})
