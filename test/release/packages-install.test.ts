// Every package installed as its users install it (release tier): `npm run pack` writes the three
// tarballs, and each is installed with the README's own command into a throwaway prefix or project,
// with a throwaway npm cache, empty when the file starts and shared by its installs (packages come
// from the public registry; installEnv), the throwaway directories in memory where there is room
// (support/install.ts, SCRATCH), the repository nowhere on PATH or NODE_PATH and the working
// directory outside it; then what the package is for is done with it. One install per package, shared by its assertions:
//   - gw, globally from its tarball: --version with the commit, serve, login, payments create, and
//     `gw` / `gw/testing` imported from the installed package;
//   - a shop's project (a copy of examples/shop) with @gw/testing and @gw/sdk from its vendor/
//     folder: the engine's dependencies only, a gateway started that takes a payment, the SDK's
//     types and calls, and the shop's own `npm test`; @gw/sdk as a merchant's server uses it
//     (docs/decisions.md#the-sdk): undici its only dependency, no native module, no CLI or engine,
//     its client against a gateway, a type for every schema and operation of the document;
// (gw from a git URL: git-install.test.ts, in parallel with this file.)
import {execFileSync, spawn} from 'node:child_process'
import {copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
// @ts-expect-error plain ESM of the bench, no types
import {diskUsage, installedPackages, mkdirs, ok, prebuilds, REPO, sh, userEnv, VERSION} from '../../bench/install-lib.js'
// @ts-expect-error plain ESM of the build scripts, no types
import {builtHere, gitState} from '../../scripts/build-info.mjs'
import {operationParams} from '../../src/api/openapi/generate.js'
import {readmeInstall, readmeLine, tempDirs} from './support/install.js'
import {SMOKE} from './support/smoke.js'

const TARBALLS: {gw: string; testing: string; sdk: string} = {gw: `gw-${VERSION}.tgz`, testing: `gw-testing-${VERSION}.tgz`, sdk: `gw-sdk-${VERSION}.tgz`}
// what the CLI needs and a test helper must not bring
const CLI_ONLY = ['@oclif/core', '@oclif/plugin-autocomplete', 'ink', 'ink-text-input', 'react', 'cli-table3', '@napi-rs/keyring', 'chalk']
const CARD = ['--method', 'card', '--card', '4242424242424242']

/** A merchant's server with @gw/sdk: node sdk-server.mjs BASE_URL API_KEY CA_FILE prints ok. */
const SDK_SERVER = `
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
`

/** A consumer that imports every type `names` lists from @gw/sdk, and uses the methods with them. */
const EVERY_TYPE = (names: string[]) => `import type {${names.join(', ')}} from '@gw/sdk'
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
`
// each package's build, which the pack reuses when it is a build of this commit
const PACKAGE_DIST = {gw: 'dist', sdk: 'packages/sdk/dist', testing: 'packages/testing/dist'}
const BUILT = [...Object.values(PACKAGE_DIST), 'oclif.manifest.json']

const readme = readmeInstall()
const {temp, keep, removeAll} = tempDirs()
let out: string // the tarballs, copied outside the repository
let natives: Record<string, string>
let packedFrom: string // the commit `npm run pack` built from

/**
 * The checkout as a clone has it (its files, tracked and new, without what .gitignore leaves out),
 * with the repository's node_modules and git directory, and the build `npm test` made (dist/, the
 * packages' dist/, the oclif manifest): `npm run pack` packs a build of this very commit without
 * building it again (scripts/pack-build.mjs), and builds what is missing or older (a commit made
 * since `npm test`'s build). (gw from no build: git-install.test.ts, where npm's prepare builds a
 * bare clone.)
 */
function checkoutCopy(): string {
  const dir = temp('gw-pack-checkout-')
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {cwd: REPO, encoding: 'utf8'}).split('\0').filter(Boolean)
  for (const f of files) {
    if (!existsSync(join(REPO, f))) continue // (deleted, not yet committed)
    mkdirSync(dirname(join(dir, f)), {recursive: true})
    copyFileSync(join(REPO, f), join(dir, f))
  }
  for (const built of BUILT) if (existsSync(join(REPO, built))) cpSync(join(REPO, built), join(dir, built), {recursive: true})
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir')
  // (git sees the copy as the checkout: the build names the commit, and local changes as such)
  writeFileSync(join(dir, '.git'), `gitdir: ${execFileSync('git', ['rev-parse', '--absolute-git-dir'], {cwd: REPO, encoding: 'utf8'}).trim()}\n`)
  return dir
}

beforeAll(async () => {
  const pack = readmeLine(readme.section, /^npm (ci && npm )?run pack$/, 'packs every package')
  packedFrom = ok(await sh('git rev-parse HEAD', {cwd: REPO, env: userEnv()}), 'git rev-parse').stdout.trim()
  const checkout = checkoutCopy()
  // the copy's builds of this commit, as the pack will find them
  const now = gitState(checkout)
  const current = Object.entries(PACKAGE_DIST).filter(([name, dist]) => builtHere(join(checkout, dist), now) && (name !== 'gw' || existsSync(join(checkout, 'oclif.manifest.json'))))
  // gw's build makes the other packages' dist/ too (scripts/package-dist.mjs): a pack that builds gw
  // in a clean tree (a commit made since the build) then finds them built from this commit
  const reusable = new Set(current.map(([name]) => name))
  if (!reusable.has('gw') && now.commit !== null && !now.dirty) ['sdk', 'testing'].forEach((p) => reusable.add(p))
  // (GIT_OPTIONAL_LOCKS=0: git status in the copy never writes the repository's index)
  const r = ok(await sh(pack.replace(/^npm ci && /, ''), {cwd: checkout, env: userEnv({GIT_OPTIONAL_LOCKS: '0'}), timeout: 900_000}), pack)
  out = join(temp('gw-release-'), 'out')
  mkdirs(out)
  for (const file of Object.values(TARBALLS)) {
    expect(existsSync(join(checkout, 'out', file)), `npm run pack wrote out/${file}`).toBe(true)
    copyFileSync(join(checkout, 'out', file), join(out, file))
  }
  // it prints the tarballs' paths (after npm's own lines about the script it runs)
  expect(r.stdout.split('\n').filter((l: string) => l.endsWith('.tgz')).sort()).toEqual(Object.values(TARBALLS).map((f) => join(checkout, 'out', f)).sort())
  // a build of this commit is packed as it is (checked, not built again); any other is built first,
  // once: gw's build makes the others' dist/ too, which their prepacks then check (a tree with local
  // changes, whose builds are never reused, is built once, not three times)
  const reused = (r.stderr as string).split('\n').flatMap((l) => /^(gw|sdk|testing): (\S+)\/ is built from this commit; checking it$/.exec(l)?.slice(1, 3) ?? [])
  expect(reused).toEqual(Object.entries(PACKAGE_DIST).filter(([name]) => reusable.has(name)).flat())
  const builtWithGw = (r.stderr as string).split('\n').flatMap((l) => /^(sdk|testing): \S+\/ was built with gw's by this pack; checking it$/.exec(l)?.[1] ?? [])
  expect(builtWithGw).toEqual(reusable.has('gw') ? [] : ['sdk', 'testing'].filter((p) => !reusable.has(p)))
  natives = prebuilds()
  for (const n of Object.values(natives)) keep(n)
}, 900_000)

afterAll(removeAll)

/**
 * The file's npm cache, empty at its start, and the native modules' prebuilt binaries, for each
 * install. One cache for the file's installs, as a user's machine has one: the shop's install takes
 * from it the tarballs gw's global install fetched (the engine's dependencies), by their integrity,
 * and still asks the registry for every package's versions (no --prefer-offline), so what it
 * resolves is what the registry holds now; every package came from the registry during this file.
 */
let cache: string | undefined
const installEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => userEnv({...natives, npm_config_cache: (cache ??= temp('gw-npm-cache-')), ...extra})

it("the README's install commands are the ones tested, with the package's version; none installs what the registry lacks", () => {
  readmeLine(readme.section, new RegExp(`^npm install -g \\./out/${TARBALLS.gw.replaceAll('.', '\\.')}$`), 'installs the CLI from its tarball')
  readmeLine(readme.section, /^npm install -D git\+\S+$/, 'installs gw from a git URL')
  readmeLine(readme.section, new RegExp(`^npm install -D \\./vendor/${TARBALLS.testing.replaceAll('.', '\\.')}$`), 'installs @gw/testing from the project')
  readmeLine(readme.section, new RegExp(`^npm install \\./vendor/${TARBALLS.sdk.replaceAll('.', '\\.')}$`), 'installs @gw/sdk from the project')
  // anywhere in the README (the CI recipes too): a tarball of this version or a git URL, never a registry name
  const installsAPackage = (l: string) => /^npm (install|i)(\s+-\S+)*\s+[^-&\s]/.test(l)
  const wrong = readme.everywhere.filter((l) => installsAPackage(l) && !/^npm install( -g| -D)? (\.\/(out|vendor)\/gw(-testing|-sdk)?-[\d.]+\.tgz|git\+\S+)$/.test(l))
  expect(wrong).toEqual([])
  expect(readme.everywhere.filter((l) => /gw(-testing|-sdk)?-[\d.]+\.tgz/.test(l) && !l.includes(`-${VERSION}.tgz`))).toEqual([])
})

describe('gw, installed globally from its tarball', () => {
  let prefix: string
  let env: NodeJS.ProcessEnv
  let work: string

  beforeAll(async () => {
    work = temp('gw-operator-')
    prefix = join(work, 'prefix')
    cpSync(out, join(work, 'out'), {recursive: true})
    const cmd = readmeLine(readme.section, /^npm install -g \.\/out\/gw-[\d.]+\.tgz$/, 'installs the CLI from its tarball')
    const install = ok(await sh(cmd, {cwd: work, env: installEnv({npm_config_prefix: prefix}), timeout: 900_000}), cmd)
    const nm = join(prefix, 'lib', 'node_modules')
    const usage = diskUsage(nm)
    console.log(`gw (global): ${installedPackages(nm).length} packages, ${(usage.bytes / 1048576).toFixed(1)} MiB, installed in ${(install.ms / 1000).toFixed(1)} s`)
    env = userEnv({PATH: `${join(prefix, 'bin')}:${userEnv().PATH}`, HOME: join(work, 'home'), XDG_CONFIG_HOME: join(work, 'config'), GW_NO_KEYRING: '1'})
    mkdirs(join(work, 'home'))
  }, 900_000)

  it('gw --version names the version and the commit it was built from', async () => {
    const head = packedFrom
    const r = ok(await sh('command -v gw && gw --version', {cwd: work, env}), 'gw --version')
    const [where, line] = r.stdout.trim().split('\n')
    expect(where).toBe(join(prefix, 'bin', 'gw'))
    expect(line).toMatch(new RegExp(`^gw/${VERSION.replaceAll('.', '\\.')} \\S+ node-v\\S+ \\(commit ${head.slice(0, 12)}( with local changes)?\\)$`))
  })

  it('gw serve --ephemeral --json starts an engine; gw login and gw payments create use it', async () => {
    const serve = spawn('gw', ['serve', '--ephemeral', '--json', '--exit-with-parent'], {cwd: work, env, stdio: ['pipe', 'pipe', 'pipe']})
    try {
      let line = ''
      let err = ''
      serve.stdout.on('data', (d) => (line += d))
      serve.stderr.on('data', (d) => (err += d))
      const end = Date.now() + 120_000
      while (!line.includes('\n') && serve.exitCode === null && Date.now() < end) await new Promise((r) => setTimeout(r, 100))
      expect(line, err).toContain('\n')
      const engine = JSON.parse(line.split('\n')[0]!) as {base_url: string; data_dir: string; secret_key: string; ca_file: string}
      expect(engine.base_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/)
      ok(await sh(`gw login --local --data-dir '${engine.data_dir}'`, {cwd: work, env}), 'gw login --local')
      const r = ok(await sh(`gw payments create --amount 2000 --currency EUR ${CARD.join(' ')} --json`, {cwd: work, env}), 'gw payments create')
      const p = JSON.parse(r.stdout) as {id: string; status: string; amount: number}
      expect(p).toMatchObject({status: 'succeeded', amount: 2000})
      expect(ok(await sh(`gw payments get ${p.id} --json`, {cwd: work, env}), 'gw payments get').stdout).toContain(p.id)
    } finally {
      serve.kill('SIGTERM')
      await new Promise((r) => (serve.exitCode === null ? serve.once('exit', r) : r(null)))
    }
  }, 300_000)

  it('gw and gw/testing import from the installed package: a gateway that takes a payment through the SDK', async () => {
    // a script beside the global node_modules resolves `gw` as a project depending on it would
    const script = join(prefix, 'lib', 'smoke.mjs')
    writeFileSync(script, SMOKE('gw', 'gw/testing'))
    const r = ok(await sh(`node '${script}'`, {cwd: work, env, timeout: 120_000}), 'gw/testing smoke')
    expect(JSON.parse(r.stdout.trim())).toEqual({payment: 'succeeded', event: 'payment.succeeded', sdk: 'succeeded'})
  }, 180_000)
})

describe("a shop's project: @gw/testing and @gw/sdk from its vendor/ folder", () => {
  let project: string
  let env: NodeJS.ProcessEnv

  beforeAll(async () => {
    // the shop example, copied out of the repository as a shop's developer would start
    project = join(temp('gw-shop-'), 'shop')
    cpSync(join(REPO, 'examples', 'shop'), project, {recursive: true, filter: (src) => !src.includes('node_modules')})
    mkdirs(join(project, 'vendor'))
    copyFileSync(join(out, TARBALLS.testing), join(project, 'vendor', TARBALLS.testing))
    copyFileSync(join(out, TARBALLS.sdk), join(project, 'vendor', TARBALLS.sdk))
    env = installEnv()
    // the README's commands (the example's package.json names the same files, so `npm install` alone would do)
    for (const [what, pattern] of [['installs @gw/testing from the project', /^npm install -D \.\/vendor\/gw-testing-[\d.]+\.tgz$/], ['installs @gw/sdk from the project', /^npm install \.\/vendor\/gw-sdk-[\d.]+\.tgz$/]] as const) {
      const cmd = readmeLine(readme.section, pattern, what)
      const r = ok(await sh(cmd, {cwd: project, env, timeout: 900_000}), cmd)
      console.log(`${cmd}: ${(r.ms / 1000).toFixed(1)} s`)
    }
    // npm installs the whole project with each: the rest of the shop (vitest) is there already, and
    // a third run (`npm install`) would only ask the registry for every package's versions again
    expect(existsSync(join(project, 'node_modules', 'vitest', 'package.json')), 'the README commands installed the rest of the shop (vitest)').toBe(true)
  }, 1_800_000)

  /** The installed tree under `name` in the shop: its directories (dependencies, theirs, and so on, found as node finds them) -> package names. */
  const closureDirs = (name: string) => {
    const seen = new Map<string, string>() // directory -> package name
    const visit = (dir: string, pkgName: string) => {
      if (seen.has(dir)) return
      seen.set(dir, pkgName)
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>}
      for (const dep of Object.keys({...pkg.dependencies, ...pkg.optionalDependencies})) {
        // the nearest node_modules holding it, from the package's own up to the project's
        for (let at = dir; at.startsWith(project); at = dirname(at)) {
          const candidate = join(at, 'node_modules', dep)
          if (existsSync(join(candidate, 'package.json'))) {
            visit(candidate, dep)
            break
          }
        }
      }
    }
    visit(join(project, 'node_modules', name), name)
    return seen
  }
  const closure = (name: string) => [...new Set(closureDirs(name).values())].sort()

  it("@gw/testing brings the engine's dependencies only: none of the CLI's (oclif, Ink, React, cli-table3, keychain), none its bundle holds", () => {
    const testing = closure('@gw/testing')
    const sdk = closure('@gw/sdk')
    expect(testing).toEqual(expect.arrayContaining(['@gw/testing', 'better-sqlite3', 'zstd-napi', 'undici', 'pg']))
    expect(testing.filter((p) => CLI_ONLY.includes(p) || p.startsWith('@oclif/'))).toEqual([])
    // nor the packages inside the engine's bundle (scripts/bundle.mjs): the package ships them there
    expect(testing.filter((p) => ['ajv', 'ajv-formats', 'prom-client', 'reflect-metadata', 'tsyringe', 'card-validator'].includes(p) || p.startsWith('@peculiar/'))).toEqual([])
    expect(sdk).toEqual(['@gw/sdk', 'undici'])
    console.log(`@gw/testing: ${testing.length} packages; @gw/sdk: ${sdk.length}`)
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {dependencies: Record<string, string>; devDependencies: Record<string, string>}
    expect(pkg.devDependencies['@gw/testing']).toBe(`file:vendor/${TARBALLS.testing}`)
    expect(pkg.dependencies['@gw/sdk']).toBe(`file:vendor/${TARBALLS.sdk}`)
  })

  it('@gw/sdk brings no native module, no CLI, no engine: its files and undici\'s', () => {
    const files = (dir: string): string[] => readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
    const all = [...closureDirs('@gw/sdk').keys()].flatMap((dir) => files(dir).filter((f) => !f.slice(dir.length).includes('/node_modules/')))
    expect(all.filter((f) => f.endsWith('.node'))).toEqual([])
    const sdkDist = join(project, 'node_modules', '@gw', 'sdk', 'dist')
    const sdkFiles = files(sdkDist).filter((f) => f.endsWith('.js'))
    // no folder of the engine, the CLI's commands, oclif or ink (api/engine-time.js, the Gw-Engine-Time header's name, is the contract's)
    expect(sdkFiles.filter((f) => /\/(engine|commands|oclif|ink)\//.test(f.slice(sdkDist.length)))).toEqual([])
    const bytes = all.reduce((n, f) => n + statSync(f).size, 0)
    // printed for the record (figures live in the bench, not in assertions)
    console.log(`@gw/sdk install: 2 packages, ${all.length} files, ${(bytes / 1048576).toFixed(1)} MiB; the SDK itself ${sdkFiles.length} JS files`)
  })

  it("@gw/sdk in a merchant's server, against a gateway: typed client, auto-paging, typed errors, webhook verification", async () => {
    const {startGateway} = (await import(join(REPO, 'dist', 'testing.js'))) as typeof import('../../src/testing.js')
    const gw = await startGateway()
    try {
      const a = await gw.account({name: 'sdk package'})
      writeFileSync(join(project, 'sdk-server.mjs'), SDK_SERVER)
      const caFile = join(project, 'ca.pem')
      writeFileSync(caFile, gw.ca)
      // asynchronously: the gateway runs in this process and must keep serving the child
      const r = await sh(`node sdk-server.mjs '${gw.baseUrl}' '${a.secretKey}' '${caFile}'`, {cwd: project, env, timeout: 60_000})
      expect(r.stderr).toBe('')
      expect(r.stdout.trim()).toBe('ok')
    } finally {
      await gw.stop()
    }
  }, 90_000)

  it("import {startGateway} from '@gw/testing' starts a gateway that pays; @gw/sdk's client talks to it", async () => {
    writeFileSync(join(project, 'smoke.mjs'), SMOKE('@gw/sdk', '@gw/testing'))
    const r = ok(await sh('node smoke.mjs', {cwd: project, env, timeout: 120_000}), '@gw/testing smoke')
    expect(JSON.parse(r.stdout.trim())).toEqual({payment: 'succeeded', event: 'payment.succeeded', sdk: 'succeeded'})
  }, 180_000)

  it("@gw/sdk's and @gw/testing's types: a consumer compiles against the installed declarations; @gw/sdk exports a type for every schema of the document and every operation's parameters", async () => {
    // the import list comes from the document the package serves, so no type can be forgotten
    const doc = JSON.parse(readFileSync(join(REPO, 'dist', 'openapi.json'), 'utf8')) as {components: {schemas: Record<string, unknown>}}
    const names = [...Object.keys(doc.components.schemas), ...operationParams(doc).map((o) => o.name)]
    expect(names).toEqual(expect.arrayContaining(['CheckoutSession', 'ChaosRule', 'CreatePaymentParams', 'Provider', 'RoutingDecision', 'ListPaymentsParams']))
    writeFileSync(join(project, 'types-every.ts'), EVERY_TYPE(names))
    writeFileSync(
      join(project, 'types-check.ts'),
      `import {ApiError, Gateway, type CreatePaymentParams, type Payment} from '@gw/sdk'
import {startGateway, type GatewayAccount} from '@gw/testing'
export async function pay(body: CreatePaymentParams): Promise<[Payment, GatewayAccount]> {
  const gw = await startGateway()
  const account: GatewayAccount = await gw.account()
  const sdk = new Gateway({baseUrl: gw.baseUrl, apiKey: account.secretKey, ca: gw.ca})
  const p: Payment = await sdk.payments.create(body)
  const e: unknown = await sdk.payments.get('pay_x').catch((x) => x)
  if (e instanceof ApiError) e.code.toUpperCase()
  return [p, account]
}
// @ts-expect-error: amount is a number of minor units
export const wrong: CreatePaymentParams = {amount: '20.00', currency: 'EUR', payment_method: 'card'}
`,
    )
    writeFileSync(
      join(project, 'tsconfig.types-check.json'),
      JSON.stringify({compilerOptions: {target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: []}, files: ['types-check.ts', 'types-every.ts']}),
    )
    // the compiler is the repository's (a tool, like node); what it compiles against is the project's
    // (one program for both files: the compiler's start and the declarations' reading, once)
    const r = await sh(`node '${join(REPO, 'node_modules', 'typescript', 'bin', 'tsc')}' -p tsconfig.types-check.json`, {cwd: project, env, timeout: 120_000})
    expect(r.stdout + r.stderr).toBe('')
    expect(r.status).toBe(0)
  }, 180_000)

  it("the shop's own suite passes from the copy: npm test", async () => {
    const r = await sh('npm test', {cwd: project, env, timeout: 600_000})
    expect(r.status, r.stdout.slice(-3000) + r.stderr.slice(-3000)).toBe(0)
    expect(r.stdout).toMatch(/Test Files\s+3 passed/)
  }, 660_000)
})
