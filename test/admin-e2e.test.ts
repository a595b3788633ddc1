// End-to-end for the admin commands: the built CLI (`node bin/run.js`, from dist/ — run
// `npm run build` first) against an engine in this process, HOME and XDG_CONFIG_HOME in a temp dir.
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {ListEnvelope, Payment, Provider, RoutingRule} from '../src/api/types.js'
import {startEngine, type EngineHandle} from '../src/engine/index.js'
import {cliEnv, runCli, snapshotCli, type CliRun} from './support/cli-snapshot.js'

const REPO = resolve(import.meta.dirname, '..')
let ROOT: string
let BIN: string
let engine: EngineHandle
let dataDir: string
let home: string


const gw = (args: string[]): Promise<CliRun> => runCli(BIN, args, {cwd: ROOT, env: cliEnv(home, dataDir)})

async function gwJson<T>(args: string[]): Promise<T> {
  const r = await gw([...args, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as T
}

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'routing-rules', 'create.js')) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing or stale: run `npm run build` first.')
  }
  ROOT = snapshotCli('gw-e2e-admin-')
  BIN = join(ROOT, 'bin', 'run.js')
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-admin-home-'))
  dataDir = mkdtempSync(join(tmpdir(), 'gw-e2e-admin-engine-'))
  engine = await startEngine({dataDir, port: 0, durability: 'normal', log: () => {}})
  const login = await gw(['login', '--local'])
  expect(login.code, login.stderr).toBe(0)
}, 60_000)

afterAll(async () => {
  await engine?.close()
  rmSync(home, {recursive: true, force: true})
  rmSync(dataDir, {recursive: true, force: true})
  if (ROOT) rmSync(ROOT, {recursive: true, force: true})
})

describe('admin commands against the engine', () => {
  it('a routing rule preferring a provider routes the next matching payment there', async () => {
    const providers = await gwJson<ListEnvelope<Provider>>(['providers', 'list', '--payment-method', 'card', '--currency', 'EUR'])
    expect(providers.data.length).toBeGreaterThan(1)
    // what the router picks without a rule; then prefer a different provider
    const before = await gwJson<Payment>(['payments', 'create', '--amount', '2000', '--currency', 'EUR', '--method', 'card', '--card', '4242424242424242'])
    const target = providers.data.map((p) => p.id).find((id) => id !== before.provider)!
    const rule = await gwJson<RoutingRule>(['routing-rules', 'create', '--priority', '1', '--action', 'prefer', '--provider', target, '--currency', 'EUR'])
    expect(rule).toMatchObject({object: 'routing_rule', action: 'prefer', providers: [{provider: target}], conditions: {currency: 'EUR'}})
    const listed = await gw(['routing-rules', 'list'])
    expect(listed.stdout).toContain(rule.id)

    const after = await gwJson<Payment>(['payments', 'create', '--amount', '2000', '--currency', 'EUR', '--method', 'card', '--card', '4242424242424242'])
    expect(after.status).toBe('succeeded')
    expect(after.provider).toBe(target)

    const del = await gw(['routing-rules', 'delete', rule.id])
    expect(del.code).toBe(9) // no terminal: --yes required
    expect(await gwJson(['routing-rules', 'delete', rule.id, '--yes'])).toEqual({id: rule.id, object: 'routing_rule', deleted: true})
  })

  it('providers list shows the status set by the health test helper', async () => {
    const health = await gwJson<Provider>(['providers', 'health', 'prov_atlas', '--status', 'degraded'])
    expect(health.status).toBe('degraded')
    const r = await gw(['providers', 'list'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/prov_atlas\s.*degraded/)
    const got = await gwJson<Provider>(['providers', 'get', 'prov_atlas'])
    expect(got.status).toBe('degraded')
  })
})
