// Accounts and keys (docs/api.md#accounts-and-keys), black box over HTTPS: accounts made with the engine's own key,
// isolated from each other (objects, clocks, idempotency keys, webhooks), and keys that are real
// (restricted permissions, roll with an overlap, revoke at once, stored as hashes).
import {createServer, type Server} from 'node:https'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {cardPayment, expectError, sleep} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t?.stop())

describe('accounts', () => {
  it("the engine's own key is the platform account's; it creates an account whose keys work at once and see none of the platform's data", async () => {
    const me = await t.api('GET', '/account')
    expect(me.status, me.text).toBe(200)
    expect(me.body).toMatchObject({id: 'acct_default', object: 'account'})
    const mine = await t.api('POST', '/payments', cardPayment({reference: 'platform-1'}))
    expect(mine.status).toBe(201)

    const created = await t.api('POST', '/accounts', {name: 'ci-job-1', metadata: {job: '1'}})
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({object: 'account', name: 'ci-job-1', metadata: {job: '1'}, livemode: false})
    expect(created.body.id).toMatch(/^acct_/)
    expect(created.body.secret_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/)
    expect(created.body.publishable_key).toMatch(/^pk_test_[0-9A-Za-z]{32}$/)

    const b = t.as(created.body.secret_key)
    expect((await b.api('GET', '/account')).body.id).toBe(created.body.id)
    expectError(await b.api('GET', `/payments/${mine.body.id}`), 404, 'invalid_request_error', 'resource_missing')
    expect((await b.api('GET', '/payments')).body.data).toEqual([])
    expect((await b.api('GET', '/events')).body.data).toEqual([])
    const theirs = await b.api('POST', '/payments', cardPayment({reference: 'platform-1'}))
    expect(theirs.status).toBe(201)
    expectError(await t.api('GET', `/payments/${theirs.body.id}`), 404, 'invalid_request_error', 'resource_missing')
    expect((await t.api('GET', '/payments?reference=platform-1')).body.data.map((p: any) => p.id)).toEqual([mine.body.id])

    // listed by the platform, not by the account itself
    const listed = await t.api('GET', '/accounts?limit=100')
    expect(listed.body.data.map((a: any) => a.id)).toEqual(expect.arrayContaining([created.body.id, 'acct_default']))
    expect(listed.body.data.find((a: any) => a.id === created.body.id)).not.toHaveProperty('secret_key')
    const refused = expectError(await b.api('GET', '/accounts'), 403, 'permission_error', 'permission_denied')
    expect(refused.permission).toBe('accounts:read')
    expect(refused.message).toMatch(/engine's own account/)
    expectError(await b.api('POST', '/accounts', {}), 403, 'permission_error', 'permission_denied')
  })

  it('each account has its own test clock: advancing one fires only its own timers', async () => {
    const a = await t.account('clock-a')
    const b = await t.account('clock-b')
    const manual = {capture_method: 'manual'}
    const pa = await a.api('POST', '/payments', cardPayment(manual))
    const pb = await b.api('POST', '/payments', cardPayment(manual))
    expect([pa.body.status, pb.body.status]).toEqual(['requires_capture', 'requires_capture'])
    await a.advance(8 * 86_400)
    expect((await a.api('GET', `/payments/${pa.body.id}`)).body.status).toBe('canceled')
    expect((await b.api('GET', `/payments/${pb.body.id}`)).body.status).toBe('requires_capture')
    const ca = (await a.api('GET', '/test_helpers/clock')).body
    const cb = (await b.api('GET', '/test_helpers/clock')).body
    expect(ca.offset_seconds).toBe(8 * 86_400)
    expect(cb.offset_seconds).toBe(0)
    expect((await t.api('GET', '/test_helpers/clock')).body.offset_seconds).toBe(0)
  })

  it('idempotency keys and rate limits are per account', async () => {
    const a = await t.account()
    const b = await t.account()
    const key = {'idempotency-key': 'same-key-in-two-accounts'}
    const ra = await a.api('POST', '/payments', cardPayment({amount: 1111}), key)
    const rb = await b.api('POST', '/payments', cardPayment({amount: 2222}), key)
    expect([ra.status, rb.status]).toEqual([201, 201])
    expect(rb.headers['idempotent-replayed']).toBeUndefined()
    expect(rb.body.amount).toBe(2222)
    // a replay in a is still a's
    const again = await a.api('POST', '/payments', cardPayment({amount: 1111}), key)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body.id).toBe(ra.body.id)
  })

  it("webhooks of one account never reach another's endpoints", async () => {
    const got: {auth: string; body: any}[] = []
    const dir = t.dataDir
    const server: Server = createServer({key: readFileSync(join(dir, 'tls', 'server.key')), cert: readFileSync(join(dir, 'tls', 'server.crt'))}, (req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        got.push({auth: String(req.url), body: JSON.parse(body)})
        res.end('ok')
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as {port: number}).port
    try {
      const a = await t.account()
      const b = await t.account()
      expect((await a.api('POST', '/webhook_endpoints', {url: `https://127.0.0.1:${port}/a`, enabled_events: ['*']})).status).toBe(201)
      expect((await b.api('POST', '/webhook_endpoints', {url: `https://127.0.0.1:${port}/b`, enabled_events: ['*']})).status).toBe(201)
      const pa = await a.api('POST', '/payments', cardPayment())
      const pb = await b.api('POST', '/payments', cardPayment())
      for (let i = 0; i < 200 && got.length < 2; i++) await sleep(20)
      await sleep(100)
      expect(got.filter((g) => g.auth === '/a').map((g) => g.body.data.object.id)).toEqual([pa.body.id])
      expect(got.filter((g) => g.auth === '/b').map((g) => g.body.data.object.id)).toEqual([pb.body.id])
    } finally {
      server.close()
    }
  })

  it('deleting an account deletes its data and its keys stop working at once; the platform account cannot be deleted', async () => {
    const a = await t.account('doomed')
    const p = await a.api('POST', '/payments', cardPayment())
    expect(p.status).toBe(201)
    const del = await t.api('DELETE', `/accounts/${a.id}`)
    expect(del.status, del.text).toBe(200)
    expect(del.body).toEqual({id: a.id, object: 'account', deleted: true})
    expectError(await a.api('GET', '/payments'), 401, 'authentication_error', 'api_key_invalid')
    expectError(await t.api('GET', `/accounts/${a.id}`), 404, 'invalid_request_error', 'resource_missing')
    expectError(await t.api('DELETE', '/accounts/acct_default'), 400, 'invalid_request_error', 'account_not_deletable')
  })
})

describe('live feeds per account', () => {
  it("an account's event stream and request log carry only its own events and requests; a request that failed authentication shows only to the engine's own account", async () => {
    const a = await t.account()
    const b = await t.account()
    const {request} = await import('undici')
    const ac = new AbortController()
    const res = await request(`${t.engine.baseUrl}/events/stream`, {headers: {authorization: `Bearer ${b.key}`, accept: 'text/event-stream'}, dispatcher: t.agent, signal: ac.signal})
    expect(res.statusCode).toBe(200)
    let text = ''
    const reading = (async () => {
      try {
        for await (const c of res.body) text += String(c)
      } catch {
        /* closed */
      }
    })()
    await sleep(50)
    const pa = await a.api('POST', '/payments', cardPayment())
    const pb = await b.api('POST', '/payments', cardPayment())
    for (let i = 0; i < 100 && !text.includes(pb.body.id); i++) await sleep(20)
    ac.abort()
    await reading
    expect(text).toContain(pb.body.id)
    expect(text).not.toContain(pa.body.id)

    await t.as('sk_test_not_a_key_of_anyone_0123').api('GET', '/payments?probe=1').catch(() => undefined)
    const logB = await b.api('GET', '/request_logs?limit=100')
    expect(logB.body.data.every((e: any) => !e.path.includes(pa.body.id))).toBe(true)
    expect(logB.body.data.some((e: any) => e.status === 401)).toBe(false)
    const logA = await a.api('GET', '/request_logs?limit=100')
    expect(logA.body.data.some((e: any) => e.method === 'POST' && e.path === '/v1/payments')).toBe(true)
    const logPlatform = await t.api('GET', '/request_logs?status=401&limit=100')
    expect(logPlatform.body.data.length).toBeGreaterThan(0)
  })
})

describe('keys', () => {
  it('a restricted key does what its permissions allow and is refused the rest, naming the permission', async () => {
    const a = await t.account()
    const made = await a.api('POST', '/api_keys', {name: 'support', permissions: ['disputes:write', 'payments:read', 'refunds:write']})
    expect(made.status, made.text).toBe(201)
    expect(made.body).toMatchObject({type: 'restricted', name: 'support', permissions: ['disputes:write', 'payments:read', 'refunds:write'], status: 'active'})
    expect(made.body.secret).toMatch(/^rk_test_/)
    expect(made.body.redacted).toBe(`rk_test_…${made.body.secret.slice(-4)}`)
    const rk = t.as(made.body.secret)
    const p = await a.api('POST', '/payments', cardPayment())
    expect((await rk.api('GET', `/payments/${p.body.id}`)).status).toBe(200)
    expect((await rk.api('GET', '/refunds')).status).toBe(200)
    const denied = expectError(await rk.api('POST', '/payments', cardPayment()), 403, 'permission_error', 'permission_denied')
    expect(denied.permission).toBe('payments:write')
    expect(denied.message).toContain('payments:write')
    expectError(await rk.api('GET', '/webhook_endpoints'), 403, 'permission_error', 'permission_denied')
    // keys are managed with a secret key only
    const keys = expectError(await rk.api('POST', '/api_keys', {permissions: ['payments:write']}), 403, 'permission_error', 'permission_denied')
    expect(keys.message).toMatch(/secret key/)
    expect((await rk.api('GET', '/api_keys/self')).body).toMatchObject({id: made.body.id, type: 'restricted'})
    // bad permissions are caught naming the entry
    const bad = expectError(await a.api('POST', '/api_keys', {permissions: ['payments:read', 'paymnts:write']}), 400, 'invalid_request_error', 'parameter_invalid')
    expect(bad.param).toBe('permissions[1]')
  })

  it('a publishable key is refused wherever a browser may not call', async () => {
    const a = await t.account()
    const pk = t.as(a.publishableKey)
    const e = expectError(await pk.api('GET', '/payments'), 403, 'permission_error', 'permission_denied')
    expect(e.message).toMatch(/Publishable keys/)
  })

  it("a rolled key's old secret works until its expiry and not after; a revoked key is refused at once", async () => {
    const a = await t.account()
    const self = (await a.api('GET', '/api_keys/self')).body
    const rolled = await a.api('POST', `/api_keys/${self.id}/roll`, {expires_in: 2})
    expect(rolled.status, rolled.text).toBe(200)
    expect(rolled.body.secret).toMatch(/^sk_test_/)
    const next = t.as(rolled.body.secret)
    expect((await a.api('GET', '/account')).status).toBe(200)
    expect((await next.api('GET', '/account')).status).toBe(200)
    const old = (await next.api('GET', `/api_keys/${self.id}`)).body
    expect(Date.parse(old.expires_at) - Date.now()).toBeLessThanOrEqual(2000)
    await sleep(2100)
    expectError(await a.api('GET', '/account'), 401, 'authentication_error', 'api_key_expired')
    // the test clock does not move key expiry
    expect((await next.api('GET', '/account')).status).toBe(200)

    const list = await next.api('GET', '/api_keys')
    expect(list.body.data.map((k: any) => k.redacted)).toContain(rolled.body.redacted)
    expect(JSON.stringify(list.body)).not.toContain(rolled.body.secret)

    const rk = await next.api('POST', '/api_keys', {permissions: ['*:read']})
    expect((await t.as(rk.body.secret).api('GET', '/payments')).status).toBe(200)
    expect((await next.api('POST', `/api_keys/${rk.body.id}/revoke`, {})).body.status).toBe('revoked')
    expectError(await t.as(rk.body.secret).api('GET', '/payments'), 401, 'authentication_error', 'api_key_revoked')
  })

  it('keys are stored as hashes: the database holds no working key', async () => {
    const a = await t.account()
    const rk = (await a.api('POST', '/api_keys', {permissions: ['payments:read']})).body.secret as string
    const secrets = [a.secretKey, a.publishableKey, rk, t.key]
    // what the store keeps of every key, public JSON and internal part (any store)
    const {PLATFORM_ACCOUNT} = await import('../ports/store.js')
    const kept = JSON.stringify([...(await t.engine.app.core.engineStore.account(a.id).all('api_key')), ...(await t.engine.app.core.engineStore.account(PLATFORM_ACCOUNT).all('api_key'))])
    expect(kept).toContain('secret_hash')
    for (const k of secrets) {
      expect(kept).not.toContain(k)
      expect(kept).not.toContain(k.slice(8))
    }
    // and the database file itself, on SQLite
    if (t.engine.store.startsWith('sqlite')) {
      const db = new Database(join(t.dataDir, 'gw.db'), {readonly: true})
      try {
        const rows = db.prepare('SELECT data, internal FROM api_keys').all() as {data: Buffer | string; internal: string}[]
        const text = rows.map((r) => `${String(r.data)}${r.internal}`).join('\n')
        for (const k of secrets) expect(text).not.toContain(k.slice(8))
      } finally {
        db.close()
      }
    }
  })

})

describe('fairness across accounts', () => {
  it("one account's backlog of due jobs does not hold up another's clock advance", async () => {
    const a = await t.account('backlog')
    const b = await t.account('quick')
    const manual = cardPayment({capture_method: 'manual'})
    // 1,000 expiries: enough that b's one would wait seconds behind them (PostgreSQL took 26 s of a 30 s limit with 2,500 on a loaded machine)
    for (let i = 0; i < 40; i++) await Promise.all(Array.from({length: 25}, () => a.api('POST', '/payments', manual)))
    const mine = await b.api('POST', '/payments', manual)
    const finished: string[] = []
    const slow = a.advance(8 * 86_400).then(() => finished.push('a'))
    await sleep(50)
    // read straight from the store the moment b's advance answers (an HTTP request would queue
    // behind a's backlog and could land after it drained: the race this test once lost in CI)
    const aStore = t.engine.app.core.engineStore.account(a.id)
    let aLeftWhenBDone = -1
    const quick = b.advance(8 * 86_400).then(async () => {
      finished.push('b')
      aLeftWhenBDone = await aStore.count('payment', [{field: 'status', op: 'eq', value: 'requires_capture'}])
    })
    await Promise.all([slow, quick])
    // b's one expiry ran beside a's 1,000, not after them
    expect(finished).toEqual(['b', 'a'])
    expect(aLeftWhenBDone).toBeGreaterThan(0)
    expect((await b.api('GET', `/payments/${mine.body.id}`)).body.status).toBe('canceled')
    const left = await a.api('GET', '/payments?status=requires_capture')
    expect(left.body.data).toEqual([])
  }, 90_000)

  it("one account's endpoint holding its deliveries does not delay another account's", async () => {
    const seen: {path: string; at: number}[] = []
    const held: (() => void)[] = []
    const dir = t.dataDir
    const server: Server = createServer({key: readFileSync(join(dir, 'tls', 'server.key')), cert: readFileSync(join(dir, 'tls', 'server.crt'))}, (req, res) => {
      req.resume()
      req.on('end', () => {
        seen.push({path: String(req.url), at: Date.now()})
        // a's receiver answers only when the test lets it: its attempts stay in flight
        if (req.url === '/slow') held.push(() => res.end('ok'))
        else res.end('ok')
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as {port: number}).port
    try {
      const a = await t.account('slow-receiver')
      const b = await t.account('fast-receiver')
      await a.api('POST', '/webhook_endpoints', {url: `https://127.0.0.1:${port}/slow`, enabled_events: ['*']})
      await b.api('POST', '/webhook_endpoints', {url: `https://127.0.0.1:${port}/fast`, enabled_events: ['*']})
      for (let i = 0; i < 10; i++) await Promise.all(Array.from({length: 10}, () => a.api('POST', '/payments', cardPayment())))
      for (let i = 0; i < 200 && held.length < 32; i++) await sleep(10)
      const paid = await b.api('POST', '/payments', cardPayment())
      for (let i = 0; i < 300 && !seen.some((s) => s.path === '/fast'); i++) await sleep(10)
      expect(seen.filter((s) => s.path === '/fast')).toHaveLength(1)
      // while a's backlog still waits on its receiver
      const pending = await a.api('GET', '/events?limit=1')
      const ds = await a.api('GET', `/events/${pending.body.data[0].id}/deliveries`)
      expect(ds.body.data[0].status).toBe('pending')
      expect(held.length).toBeGreaterThan(0)
      expect((await b.api('GET', `/events?limit=5`)).body.data.some((e: any) => e.data.object.id === paid.body.id)).toBe(true)
    } finally {
      for (const release of held.splice(0)) release()
      server.closeAllConnections()
      server.close()
    }
  })

  it('the rate limit is per account', async () => {
    const limited = await bootEngine({rateLimit: 2})
    try {
      const a = await limited.account()
      const b = await limited.account()
      let refused = 0
      for (let i = 0; i < 12; i++) if ((await a.api('GET', '/payments')).status === 429) refused++
      expect(refused).toBeGreaterThan(0)
      expect((await b.api('GET', '/payments')).status).toBe(200)
    } finally {
      await limited.stop()
    }
  })
})

describe('webhook destinations in a shared sandbox', () => {
  it('an endpoint at a link-local or cloud-metadata address is refused; with --webhook-allow only the listed CIDRs are taken, and attempts to others are recorded as destination_blocked', async () => {
    const e = expectError(await t.api('POST', '/webhook_endpoints', {url: 'https://169.254.169.254/latest/meta-data', enabled_events: ['*']}), 400, 'invalid_request_error', 'parameter_invalid')
    expect(e.param).toBe('url')
    expect(e.message).toMatch(/cloud-metadata/)
    const t2 = await bootEngine()
    try {
      // made while loopback was allowed; the engine then restarts with an allow list without it
      const ep = await t2.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/hook', enabled_events: ['payment.succeeded']})
      expect(ep.status, ep.text).toBe(201)
      // (on PostgreSQL the destinations are a fleet setting: this instance changes it for the fleet)
      await t2.restart({webhookAllow: ['10.0.0.0/8'], updateFleetSettings: true})
      const refused = await t2.api('POST', '/webhook_endpoints', {url: 'https://localhost:9/again', enabled_events: ['*']})
      expect(refused.status).toBe(400)
      expect(refused.body.error.message).toMatch(/outside the destinations/)
      await t2.api('POST', '/payments', cardPayment())
      let attempt: any
      for (let i = 0; i < 200 && !attempt; i++) {
        const ds = await t2.api('GET', `/webhook_endpoints/${ep.body.id}/deliveries`)
        attempt = ds.body.data[0]?.attempts[0]
        if (!attempt) await sleep(20)
      }
      expect(attempt).toMatchObject({error: 'destination_blocked', status_code: null})
      expect(attempt.error_message).toMatch(/outside the destinations/)
    } finally {
      await t2.stop().catch(() => {})
    }
  })
})
