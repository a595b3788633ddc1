// An instance killed with SIGKILL under load (docs/decisions.md#several-instances-on-postgresql): three `gw serve --store postgres://…`
// processes behind a client that, like a load balancer, retries a failed request with its
// Idempotency-Key on another instance. No acknowledged payment is lost or doubled, and the
// webhook deliveries the dead instance had claimed are made by the others once its claims'
// lease (--claim-lease) has run out. Chaos is on meanwhile (docs/decisions.md#failure-on-purpose): a share of the payment
// requests answered 503 or 429 or their answers lost after the commit, the first provider timing
// out now and then, webhooks duplicated — the drill holds all the same. Needs the build (npm test
// builds first).
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {createServer as createHttpsServer} from 'node:https'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {freshDatabase} from '../../test-support/pg.js'
import {startServe, type ServeProcess} from '../../test-support/serve-process.js'
import {ensureCertificates} from '../../tls/certificates.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..')
const KEY = 'sk_test_fleet_kill_0123456789'
const LEASE_S = 2
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Instance {
  proc: ServeProcess
  baseUrl: string
  agent: Agent
  dead: boolean
}

async function serve(url: string, dir: string, secretsKeyFile: string): Promise<Instance> {
  const args = ['--store', url, '--port', '0', '--data-dir', dir, '--api-key', KEY, '--secrets-key-file', secretsKeyFile, '--rate-limit', '0', '--claim-lease', String(LEASE_S)]
  const proc = await startServe(join(ROOT, 'bin/run.js'), args, {cwd: ROOT, env: {...process.env, GW_STORE: '', DATABASE_URL: ''}})
  return {proc, baseUrl: proc.baseUrl, agent: new Agent({connect: {ca: readFileSync(proc.info.ca_file, 'utf8')}}), dead: false}
}

async function call(i: Instance, method: string, path: string, body?: unknown, key?: string): Promise<{status: number; body: any; text: string}> {
  const headers: Record<string, string> = {authorization: `Bearer ${KEY}`}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (key) headers['idempotency-key'] = key
  const r = await request(i.baseUrl + path, {method: method as 'GET', headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher: i.agent})
  const text = await r.body.text()
  return {status: r.statusCode, body: JSON.parse(text), text}
}

const payment = (reference: string) => ({amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}, reference})

describe('an instance killed with SIGKILL under load', () => {
  let fleet: Instance[] = []
  const dirs: string[] = []
  let rx: ReturnType<typeof createHttpsServer>
  const received = new Set<string>()
  beforeAll(async () => {
    const url = await freshDatabase('kill')
    for (let i = 0; i < 3; i++) dirs.push(mkdtempSync(join(tmpdir(), 'gw-kill-')))
    // one secrets key for the fleet: the instance that starts first makes the file, the others read it
    const secretsKeyFile = join(dirs[0]!, 'fleet-secrets.key')
    fleet = await Promise.all(dirs.map((d) => serve(url, d, secretsKeyFile)))
    const tls = await ensureCertificates({caCert: join(dirs[0]!, 'rx-ca.pem'), caKey: join(dirs[0]!, 'rx-ca-key.pem'), serverCert: join(dirs[0]!, 'rx-cert.pem'), serverKey: join(dirs[0]!, 'rx-key.pem')}, '127.0.0.1')
    // a receiver slow enough that attempts are in flight (claimed) when an instance dies
    rx = createHttpsServer({key: tls.key, cert: tls.cert}, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () =>
        setTimeout(() => {
          received.add((JSON.parse(Buffer.concat(chunks).toString('utf8')) as {id: string}).id)
          res.writeHead(200)
          res.end('ok')
        }, 100),
      )
    })
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r))
  })
  afterAll(async () => {
    for (const i of fleet) {
      await i.proc.stop('SIGTERM')
      await i.agent.close()
    }
    rx?.closeAllConnections()
    await new Promise((r) => rx?.close(r))
    for (const d of dirs) rmSync(d, {recursive: true, force: true})
  })

  it('loses no acknowledged payment, doubles none, and its claimed deliveries are made by the others after the lease', async () => {
    const url = `https://127.0.0.1:${(rx.address() as {port: number}).port}/hooks`
    expect((await call(fleet[0]!, 'POST', '/webhook_endpoints', {url, enabled_events: ['payment.succeeded']}, 'kill-endpoint')).status).toBe(201)
    // every instance delivers to it (its endpoint cache followed the change feed)
    for (const [n, inst] of fleet.entries()) {
      for (let attempt = 0; ; attempt++) {
        const p = await call(inst, 'POST', '/payments', payment(`probe-${n}-${attempt}`), `probe-${n}-${attempt}`)
        const e = (await call(inst, 'GET', '/events?type=payment.succeeded&limit=100')).body.data.find((x: any) => x.data.object.id === p.body.id)
        if ((await call(inst, 'GET', `/events/${e.id}/deliveries`)).body.data.length === 1) break
        expect(attempt).toBeLessThan(50)
        await sleep(50)
      }
    }

    // chaos on: every instance reads the rules from the store
    const first = (await call(fleet[0]!, 'POST', '/payments', payment('chaos-probe'), 'chaos-probe')).body.provider_attempts[0].provider
    for (const [path, body] of [
      ['/chaos/api', {method: 'POST', path: '/payments', fault: '503', rate: 0.1, seed: 1, for_seconds: 3600}],
      ['/chaos/api', {method: 'POST', path: '/payments', fault: '429', rate: 0.05, seed: 2, for_seconds: 3600}],
      ['/chaos/api', {method: 'POST', path: '/payments', fault: 'response_lost', rate: 0.1, seed: 3, for_seconds: 3600}],
      ['/chaos/providers', {provider: first, fault: 'timeout', rate: 0.3, seed: 4, for_seconds: 3600}],
      ['/chaos/webhooks', {fault: 'duplicate', rate: 0.2, seed: 5, for_seconds: 3600}],
    ] as const) expect((await call(fleet[0]!, 'POST', path, body)).status).toBe(201)
    let faulted = 0

    const acked = new Map<string, string>()
    let errors = 0
    let stop = false
    let seq = 0
    const alive = () => fleet.filter((i) => !i.dead)
    const worker = async (w: number) => {
      while (!stop) {
        const key = `kill-${w}-${++seq}`
        // a client retries a request that got no answer (or a 5xx) with the same key, on another instance
        for (let attempt = 0; ; attempt++) {
          const targets = alive()
          const inst = targets[(seq + attempt) % targets.length]!
          try {
            const r = await call(inst, 'POST', '/payments', payment(key), key)
            if (r.status === 201) {
              acked.set(key, r.text)
              break
            }
            if (r.status !== 409 && r.status !== 429 && r.status < 500) throw new Error(`unexpected ${r.status}: ${r.text}`)
            if (r.status === 429 || r.status === 503) faulted++
          } catch (e) {
            if ((e as Error).message.startsWith('unexpected')) throw e
            errors++
          }
          await sleep(20)
        }
      }
    }
    const workers = Array.from({length: 8}, (_, w) => worker(w))
    await sleep(1500)
    const victim = fleet[2]!
    victim.dead = true
    victim.proc.child.kill('SIGKILL')
    const killedAt = Date.now()
    await sleep(1500)
    stop = true
    await Promise.all(workers)
    expect(acked.size).toBeGreaterThan(20)
    expect(faulted, 'faults injected on purpose').toBeGreaterThan(0)

    // every acknowledged payment is there, as it was acknowledged, once
    const survivors = alive()
    for (const [key, text] of acked) {
      const p = JSON.parse(text) as {id: string}
      const got = await call(survivors[0]!, 'GET', `/payments/${p.id}`)
      expect(got.status, key).toBe(200)
      expect(got.body).toEqual(JSON.parse(text))
    }
    const stored: any[] = []
    let after: string | undefined
    for (;;) {
      const page = (await call(survivors[1]!, 'GET', `/payments?limit=100${after ? `&starting_after=${after}` : ''}`)).body
      stored.push(...page.data)
      if (!page.has_more) break
      after = page.data[page.data.length - 1].id
    }
    const byRef = new Map<string, number>()
    for (const p of stored) if (p.reference.startsWith('kill-')) byRef.set(p.reference, (byRef.get(p.reference) ?? 0) + 1)
    expect(byRef.size).toBe(acked.size)
    for (const [ref, n] of byRef) expect(n, ref).toBe(1)

    // every payment.succeeded event reaches the receiver, those the dead instance had claimed too
    const events: string[] = []
    after = undefined
    for (;;) {
      const page: any = (await call(survivors[0]!, 'GET', `/events?type=payment.succeeded&limit=100${after ? `&starting_after=${after}` : ''}`)).body
      events.push(...page.data.filter((e: any) => e.data.object.reference.startsWith('kill-')).map((e: any) => e.id))
      if (!page.has_more) break
      after = page.data[page.data.length - 1].id
    }
    expect(events.length).toBe(acked.size)
    const deadline = killedAt + LEASE_S * 1000 + 60_000
    while (events.some((id) => !received.has(id)) && Date.now() < deadline) await sleep(100)
    expect(events.filter((id) => !received.has(id))).toEqual([])
  })
})
