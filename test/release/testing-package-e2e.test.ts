// `gw/testing` as a merchant's test suite uses it (docs/decisions.md#a-throwaway-engine): a separate project that depends on the
// package and imports only its public exports (`gw`, `gw/testing`: the package's "exports" map
// refuses anything else), run with plain node against the built package.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'

const REPO = resolve(import.meta.dirname, '..', '..')
let project: string

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist', 'testing.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).')
  project = mkdtempSync(join(tmpdir(), 'gw-shop-project-'))
  writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'shop', private: true, type: 'module', dependencies: {gw: 'file:' + REPO}}))
  mkdirSync(join(project, 'node_modules'))
  // what `npm install` of the dependency makes: node_modules/gw is the package
  symlinkSync(REPO, join(project, 'node_modules', 'gw'), 'dir')
})

afterAll(() => rmSync(project, {recursive: true, force: true}))

const SHOP_TEST = `
import assert from 'node:assert/strict'
import {ApiError, Gateway, SignatureVerificationError, signatureHeader, verifySignature} from 'gw'
import {startGateway} from 'gw/testing'

const started = performance.now()
const gw = await startGateway()
const readyMs = performance.now() - started
try {
  const t0 = performance.now()
  const a = await gw.account({name: 'test file A'})
  const accountMs = performance.now() - t0
  const b = await gw.account({name: 'test file B'})
  assert.match(a.secretKey, /^sk_test_/)
  assert.match(a.publishableKey, /^pk_test_/)

  // webhooks into the test, signed: the receiver verifies them with the endpoint's secret
  const rx = await a.receiver({events: ['payment.*']})
  const card = {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}
  const p = await a.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card})
  assert.equal(p.status, 201)
  const ev = await rx.next('payment.succeeded', {object: p.body.id})
  assert.equal(ev.data.object.amount, 2000)

  // accounts are isolated: B sees nothing of A
  assert.equal((await b.api('GET', '/payments/' + p.body.id)).status, 404)
  assert.equal((await b.api('GET', '/payments')).body.data.length, 0)

  // a deterministic clock: the receiver fails, each advance with wait sees its retries already made
  rx.respondWith(500)
  const q = await a.api('POST', '/payments', {amount: 500, currency: 'EUR', payment_method: 'card', payment_method_data: card})
  await rx.next('payment.succeeded', {object: q.body.id})
  const attempts = () => rx.events.filter((e) => e.data.object.id === q.body.id).length
  assert.equal(attempts(), 1)
  await a.clock.advance('1m', {wait: true})
  assert.equal(attempts(), 2)
  await a.clock.advance('5m', {wait: true})
  assert.equal(attempts(), 3)
  // B's clock did not move
  assert.ok((await a.clock.now()) - (await b.clock.now()) >= 5 * 60_000)
  // a fixed, frozen instant: the same timestamps every run
  const frozen = await b.clock.freeze('2031-05-01T12:00:00Z')
  assert.equal(frozen.now, '2031-05-01T12:00:00.000Z')
  const fixed = await b.api('POST', '/payments', {amount: 100, currency: 'EUR', payment_method: 'card', payment_method_data: card})
  assert.equal(fixed.body.created_at, '2031-05-01T12:00:00.000Z')
  assert.equal((await b.clock.unfreeze()).frozen, false)

  // the SDK: the same client the CLI uses, typed errors, auto-paging, webhook verification
  const sdk = new Gateway({baseUrl: gw.baseUrl, apiKey: a.secretKey, ca: gw.ca})
  const made = await sdk.payments.create({amount: 3000, currency: 'EUR', payment_method: 'card', payment_method_data: card, reference: 'order-sdk-1'})
  assert.equal(made.status, 'succeeded')
  const seen = []
  for await (const x of sdk.payments.iterate({limit: 1})) seen.push(x.id)
  assert.ok(seen.includes(made.id) && seen.length >= 3, 'iterate pages through every payment')
  const missing = await sdk.payments.get('pay_doesnotexist').catch((e) => e)
  assert.ok(missing instanceof ApiError)
  assert.equal(missing.code, 'resource_missing')
  assert.match(missing.requestId, /^req_/)
  await rx.next('payment.succeeded', {object: made.id})
  const raw = '{"id":"evt_local","type":"payment.succeeded"}'
  assert.equal(typeof sdk.webhooks.verify(raw, signatureHeader(rx.secret, raw), rx.secret).timestamp, 'number')
  assert.throws(() => sdk.webhooks.verify(raw, signatureHeader(rx.secret, raw), 'whsec_wrong'), SignatureVerificationError)
  await sdk.close()

  // the public signature helper verifies what arrived
  assert.equal(typeof verifySignature, 'function')

  await gw.reset()
  assert.equal((await a.api('GET', '/payments')).status, 401)
  console.log(JSON.stringify({ok: true, readyMs: Math.round(readyMs), accountMs: Math.round(accountMs)}))
} finally {
  await gw.stop()
}
`

it('a separate project starts a gateway, gives test files their own accounts, receives signed webhooks and moves the clock deterministically, through public exports only', () => {
  writeFileSync(join(project, 'shop.test.mjs'), SHOP_TEST)
  const r = spawnSync(process.execPath, ['shop.test.mjs'], {cwd: project, encoding: 'utf8', timeout: 60_000})
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
  const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!)
  expect(out.ok).toBe(true)
  // printed for the record (targets live in the bench, not here)
  console.log(`gw/testing: ready in ${out.readyMs} ms, an account in ${out.accountMs} ms`)
}, 90_000)

it('the package does not export its internals (the engine, the CLI)', () => {
  writeFileSync(join(project, 'internal.mjs'), `import('gw/dist/engine/index.js').then(() => console.log('loaded'), (e) => console.log(e.code))`)
  const r = spawnSync(process.execPath, ['internal.mjs'], {cwd: project, encoding: 'utf8'})
  expect(r.stdout.trim()).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED')
})

// One CA for a test run: gateways started with the same tlsDir are trusted through one
// ca.crt, so a test process started with NODE_EXTRA_CA_CERTS pointing at it uses plain fetch.
const SHARED_CA = `
import {startGateway} from 'gw/testing'
const tlsDir = process.argv[2]
const [one, two] = await Promise.all([startGateway({tlsDir}), startGateway({tlsDir})])
try {
  if (one.ca !== two.ca) throw new Error('two CAs')
  console.log(JSON.stringify({one: one.baseUrl, two: two.baseUrl, key1: one.secretKey, key2: two.secretKey}))
  // keep serving until the parent has fetched
  await new Promise((r) => process.stdin.once('data', r))
  process.stdin.destroy()
} finally {
  await Promise.all([one.stop(), two.stop()])
}
`

const PLAIN_FETCH = `
// nothing but the platform's fetch: the CA comes from NODE_EXTRA_CA_CERTS
const [url, key] = process.argv.slice(2)
const r = await fetch(url + '/account', {headers: {authorization: 'Bearer ' + key}})
console.log(r.status)
`

it('gateways of one test run share one CA (tlsDir); plain fetch trusts it through NODE_EXTRA_CA_CERTS set before they started', async () => {
  const tlsDir = join(project, 'tls-shared')
  writeFileSync(join(project, 'shared-ca.mjs'), SHARED_CA)
  writeFileSync(join(project, 'plain-fetch.mjs'), PLAIN_FETCH)
  const {spawn} = await import('node:child_process')
  const child = spawn(process.execPath, ['shared-ca.mjs', tlsDir], {cwd: project, stdio: ['pipe', 'pipe', 'pipe']})
  let out = ''
  let err = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (err += d))
  const end = Date.now() + 30_000
  while (!out.includes('\n') && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 50))
  expect(err).toBe('')
  const urls = JSON.parse(out.trim()) as {one: string; two: string; key1: string; key2: string}
  try {
    for (const [url, key] of [[urls.one, urls.key1], [urls.two, urls.key2]]) {
      const r = spawnSync(process.execPath, ['plain-fetch.mjs', url!, key!], {cwd: project, encoding: 'utf8', env: {...process.env, NODE_EXTRA_CA_CERTS: join(tlsDir, 'ca.crt')}})
      expect(r.stderr).toBe('')
      expect(r.stdout.trim()).toBe('200')
    }
    // and without the CA, the same fetch is refused: the trust came from the shared ca.crt
    const untrusted = spawnSync(process.execPath, ['plain-fetch.mjs', urls.one, urls.key1], {cwd: project, encoding: 'utf8', env: {...process.env, NODE_EXTRA_CA_CERTS: ''}})
    expect(untrusted.status).not.toBe(0)
  } finally {
    child.stdin.write('done\n')
    await new Promise((r) => child.once('exit', r))
  }
}, 60_000)

// Nothing left behind: a test run killed with SIGKILL (or a Ctrl-C that never reached a
// handler) leaves its gateway's temporary dir — database, CA key, secret key; the next start of a
// gateway sweeps it, since its owner is gone. Both runs are `node --input-type=module -e`, whose
// flag the engine's threads once inherited (the SQLite writer died at its first write).
const RUN = (then: string) => `
import {startGateway} from 'gw/testing'
const gw = await startGateway()
const a = await gw.account()
const p = await a.api('POST', '/payments', {amount: 1200, currency: 'EUR', payment_method: 'card', payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}})
if (p.status !== 201) throw new Error('a payment: ' + p.status)
console.log(JSON.stringify({status: p.body.status}))
${then}
`

it('a test run killed with SIGKILL leaves its temporary dir; the next start sweeps it, and a run that stops leaves nothing (node --input-type=module -e)', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'gw-killed-run-'))
  const env = {...process.env, TMPDIR: tmp}
  const left = () => readdirSync(tmp).filter((n) => n.startsWith('gw-testing-'))
  try {
    const {spawn} = await import('node:child_process')
    // a run that hangs after its first payment, killed as a CI job's timeout or kill -9 would
    const killed = spawn(process.execPath, ['--input-type=module', '-e', RUN('setInterval(() => {}, 1000)')], {cwd: project, env, stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    killed.stdout.on('data', (d) => (out += d))
    killed.stderr.on('data', (d) => (err += d))
    const end = Date.now() + 30_000
    while (!out.includes('\n') && Date.now() < end && killed.exitCode === null) await new Promise((r) => setTimeout(r, 50))
    expect(err).toBe('')
    expect(JSON.parse(out.trim())).toEqual({status: 'succeeded'})
    expect(left()).toHaveLength(1)
    const gone = new Promise((r) => killed.once('exit', r))
    killed.kill('SIGKILL')
    await gone
    expect(left()).toHaveLength(1)

    // the next run, which stops its gateway: the dead run's dir is swept at its start, its own removed at stop
    const next = spawnSync(process.execPath, ['--input-type=module', '-e', RUN('await gw.stop()')], {cwd: project, env, encoding: 'utf8', timeout: 60_000})
    expect(next.stderr).toBe('')
    expect(JSON.parse(next.stdout.trim())).toEqual({status: 'succeeded'})
    expect(left()).toEqual([])
  } finally {
    rmSync(tmp, {recursive: true, force: true})
  }
}, 90_000)
