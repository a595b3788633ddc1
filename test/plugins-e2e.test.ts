// The oclif plugins gw uses are hosted by gw itself instead of loaded on every start
// (src/commands/autocomplete/shared/plugin.ts, src/hooks/command-not-found.ts): their features still work in
// the built CLI (`npm run build` first). The "did you mean" of a typo is in cli-e2e.test.ts.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {snapshotCli} from './support/cli-snapshot.js'

const REPO = resolve(import.meta.dirname, '..')
let ROOT: string
let home: string

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'autocomplete', 'index.js')) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing: run `npm run build` first (`npm test` does).')
  }
  ROOT = snapshotCli('gw-e2e-plugins-')
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-plugins-home-'))
})

afterAll(() => {
  rmSync(ROOT, {recursive: true, force: true})
  rmSync(home, {recursive: true, force: true})
})

function gw(args: string[]) {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_') && !k.startsWith('XDG_')) env[k] = v
  return spawnSync(process.execPath, [join(ROOT, 'bin', 'run.js'), ...args], {encoding: 'utf8', env: {...env, HOME: home, NO_COLOR: '1'}})
}

describe('plugins hosted by gw', () => {
  it('package.json loads no plugin at start; the not-found hook is gw’s own', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {oclif: {plugins?: string[]; hooks: Record<string, string>}; dependencies: Record<string, string>}
    expect(pkg.oclif.plugins).toBeUndefined()
    expect(pkg.oclif.hooks.command_not_found).toBe('./dist/hooks/command-not-found.js')
    // the autocomplete commands are imported by file: one exact version
    expect(pkg.dependencies['@oclif/plugin-autocomplete']).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it('gw autocomplete builds the cache and prints the setup; the script commands work', () => {
    const r = gw(['autocomplete', 'bash'])
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('gw autocomplete script bash')
    expect(existsSync(join(home, '.cache', 'gw', 'autocomplete', 'functions', 'bash', 'gw.bash'))).toBe(true)
    const completions = readFileSync(join(home, '.cache', 'gw', 'autocomplete', 'functions', 'bash', 'gw.bash'), 'utf8')
    expect(completions).toContain('payments')
    const script = gw(['autocomplete', 'script', 'bash'])
    expect(script.status).toBe(0)
    expect(script.stdout).toContain('GW_AC_BASH_SETUP_PATH')
  })

  it('a typo gets exit 127 and the not-found message', () => {
    const r = gw(['paymnets', 'list'])
    expect(r.status).toBe(127)
    expect(r.stderr).toContain('paymnets list is not a gw command')
  })
})
