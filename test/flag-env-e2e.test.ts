// Every flag reads a GW_ variable, as the built CLI shows it: in the generated manifest (which
// --help reads), in --help itself, and when parsing (`npm run build` first).
import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync, rmSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {snapshotCli} from './support/cli-snapshot.js'

const REPO = resolve(import.meta.dirname, '..')
// a snapshot of the built CLI: a concurrent `npm run build` (rm -rf dist) cannot break it
let ROOT: string
let BIN: string

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist', 'commands')) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing: run `npm run build` first (`npm test` does).')
  }
  ROOT = snapshotCli('gw-e2e-flag-env-')
  BIN = join(ROOT, 'bin', 'run.js')
})

afterAll(() => rmSync(ROOT, {recursive: true, force: true}))

interface ManifestFlag {
  name: string
  env?: string
  helpGroup?: string
}
interface Manifest {
  commands: Record<string, {flags: Record<string, ManifestFlag>}>
}

/** Flags that name a variable of their own instead of GW_<NAME>. */
const OWN_ENV: Record<string, string> = {'serve --api-key': 'GW_SERVE_API_KEY', 'webhooks:verify --secret': 'GW_WEBHOOK_SECRET'}

function gw(args: string[], env: Record<string, string> = {}) {
  const clean: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_')) clean[k] = v
  return spawnSync(process.execPath, [BIN, ...args], {encoding: 'utf8', env: {...clean, NO_COLOR: '1', HOME: '/nonexistent', XDG_CONFIG_HOME: '/nonexistent', ...env}})
}

describe('GW_ variables for every flag', () => {
  it('the manifest gives every command flag GW_<NAME>, except --idempotency-key', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as Manifest
    const wrong: string[] = []
    let checked = 0
    for (const [id, cmd] of Object.entries(manifest.commands)) {
      if (id.startsWith('autocomplete')) continue
      for (const [name, flag] of Object.entries(cmd.flags)) {
        if (flag.helpGroup === 'GLOBAL') continue
        const want = name === 'idempotency-key' ? undefined : OWN_ENV[`${id} --${name}`] ?? `GW_${name.toUpperCase().replaceAll('-', '_')}`
        checked++
        if (flag.env !== want) wrong.push(`${id} --${name}: ${flag.env} (want ${want})`)
      }
    }
    expect(checked).toBeGreaterThan(100)
    expect(wrong).toEqual([])
  })

  it('--help lists the variable', () => {
    const help = gw(['payments', 'create', '--help'])
    expect(help.status).toBe(0)
    expect(help.stdout).toContain('[env: GW_AMOUNT]')
    expect(help.stdout).toMatch(/--idempotency-key=<value>\s+Idempotency-Key/)
  })

  it('the built CLI parses a flag from its variable', () => {
    const r = gw(['payments', 'list'], {GW_LIMIT: '500', GW_API_KEY: 'sk_test_e2e_0123456789', GW_BASE_URL: 'https://127.0.0.1:9/v1'})
    expect(r.status).toBe(2)
    expect(r.stderr).toContain('--limit must be a whole number from 1 to 100, got "500"')
  })
})
