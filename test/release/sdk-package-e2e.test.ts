// @gw/sdk installed on its own (docs/decisions.md#the-sdk): a merchant who wants the client and verifySignature
// gets them without the CLI, the engine or any native module. The package is packed as it would
// be published, installed into a fresh project, and used against a running gateway.
import {execFile, execFileSync} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {operationParams} from '../../src/api/openapi/generate.js'

const REPO = resolve(import.meta.dirname, '..', '..')
const SDK = join(REPO, 'packages', 'sdk')
let project: string

beforeAll(() => {
  if (!existsSync(join(SDK, 'dist', 'index.js'))) throw new Error('packages/sdk/dist is missing: run `npm run build` first (`npm test` does).')
  project = mkdtempSync(join(tmpdir(), 'gw-sdk-project-'))
  // the build made packages/sdk/dist (prepack would build it again; test/release/packages-install.test.ts packs through it)
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', project], {cwd: SDK, encoding: 'utf8'})) as {filename: string}[]
  writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'shop-server', private: true, type: 'module'}))
  execFileSync('npm', ['install', join(project, packed[0]!.filename), '--no-audit', '--no-fund', '--prefer-offline'], {cwd: project, encoding: 'utf8', stdio: 'pipe'})
}, 120_000)

afterAll(() => rmSync(project, {recursive: true, force: true}))

function run(cmd: string, args: string[], cwd: string, timeout = 30_000): Promise<{stdout: string; stderr: string}> {
  return new Promise((done) => execFile(cmd, args, {cwd, encoding: 'utf8', timeout}, (_e, stdout, stderr) => done({stdout, stderr})))
}

function files(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
}

it('installs @gw/sdk and undici, nothing else: no native module, no CLI, no engine', () => {
  const nm = join(project, 'node_modules')
  const packages = readdirSync(nm).flatMap((n) => (n.startsWith('@') ? readdirSync(join(nm, n)).map((m) => `${n}/${m}`) : n.startsWith('.') ? [] : [n]))
  expect(packages.sort()).toEqual(['@gw/sdk', 'undici'])
  const all = files(nm)
  expect(all.filter((f) => f.endsWith('.node'))).toEqual([])
  const sdkFiles = files(join(nm, '@gw', 'sdk', 'dist')).filter((f) => f.endsWith('.js'))
  // no folder of the engine, the CLI's commands, oclif or ink (api/engine-time.js, the Gw-Engine-Time header's name, is the contract's)
  expect(sdkFiles.filter((f) => /\/(engine|commands|oclif|ink)\//.test(f.slice(nm.length)))).toEqual([])
  const bytes = all.reduce((n, f) => n + statSync(f).size, 0)
  // printed for the record (figures live in the bench, not in assertions)
  console.log(`@gw/sdk install: ${packages.length} packages, ${all.length} files, ${(bytes / 1048576).toFixed(1)} MiB; the SDK itself ${sdkFiles.length} JS files`)
})

it('works against a gateway: typed client, auto-paging, typed errors, webhook verification', async () => {
  const {startGateway} = (await import(join(REPO, 'dist', 'testing.js'))) as typeof import('../../src/testing.js')
  const gw = await startGateway()
  try {
    const a = await gw.account({name: 'sdk package'})
    writeFileSync(
      join(project, 'server.mjs'),
      `
import assert from 'node:assert/strict'
import {readFileSync} from 'node:fs'
import {ApiError, Gateway, signatureHeader, verifySignature} from '@gw/sdk'
const [baseUrl, apiKey, caFile] = process.argv.slice(2)
const gw = new Gateway({baseUrl, apiKey, ca: readFileSync(caFile, 'utf8')})
const card = {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}
const p = await gw.payments.create({amount: 1200, currency: 'EUR', payment_method: 'card', payment_method_data: card, reference: 'sdk-1'})
assert.equal(p.status, 'succeeded')
await gw.payments.create({amount: 1300, currency: 'EUR', payment_method: 'card', payment_method_data: card, reference: 'sdk-2'})
const ids = []
for await (const x of gw.payments.iterate({limit: 1})) ids.push(x.id)
assert.equal(ids.length, 2)
const e = await gw.payments.get('pay_missing0').catch((err) => err)
assert.ok(e instanceof ApiError)
assert.equal(e.code, 'resource_missing')
const body = '{"id":"evt_1","type":"payment.succeeded"}'
assert.equal(typeof verifySignature({payload: body, header: signatureHeader('whsec_test', body), secret: 'whsec_test'}).timestamp, 'number')
await gw.close()
console.log('ok')
`,
    )
    const caFile = join(project, 'ca.pem')
    writeFileSync(caFile, gw.ca)
    // asynchronously: the gateway runs in this process and must keep serving the child
    const r = await run(process.execPath, ['server.mjs', gw.baseUrl, a.secretKey, caFile], project)
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe('ok')
  } finally {
    await gw.stop()
  }
}, 60_000)

it('exports a type for every schema of the document and every operation\'s parameters: a consumer importing each compiles', async () => {
  // the import list comes from the document the package serves, so no type can be forgotten
  const doc = JSON.parse(readFileSync(join(REPO, 'dist', 'openapi.json'), 'utf8')) as {components: {schemas: Record<string, unknown>}}
  const names = [...Object.keys(doc.components.schemas), ...operationParams(doc).map((o) => o.name)]
  expect(names).toEqual(expect.arrayContaining(['CheckoutSession', 'ChaosRule', 'CreatePaymentParams', 'Provider', 'RoutingDecision', 'ListPaymentsParams']))
  writeFileSync(
    join(project, 'types.ts'),
    `import type {${names.join(', ')}} from '@gw/sdk'
import {Gateway} from '@gw/sdk'
export type Every = [${names.join(', ')}]
// the methods take and answer the same types
export async function use(gw: Gateway, body: CreatePaymentParams, q: ListPaymentsParams): Promise<[Payment, CheckoutSession, ChaosRule[], Provider[], RoutingDecision]> {
  const p: Payment = await gw.payments.create(body)
  await gw.payments.list(q)
  const s: CheckoutSession = await gw.checkout.get('cs_1')
  const rules: ChaosRule[] = (await gw.chaos.list()).data
  const providers: Provider[] = (await gw.providers.list()).data
  const d: RoutingDecision = await gw.routing.simulate({amount: 100, currency: 'EUR', payment_method: 'card'})
  return [p, s, rules, providers, d]
}
`,
  )
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({compilerOptions: {target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: []}, files: ['types.ts']}),
  )
  const r = await run(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project, 55_000)
  expect(r.stdout + r.stderr).toBe('')
}, 60_000)
