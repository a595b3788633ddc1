// The quick tier's CLI smoke: the CLI as a user drives it — oclif's parsing, GwCommand, the
// Context, the API client, the exit codes — against the engine over HTTPS, both in this process
// (base/test-support/cli-in-process.ts; no build). The CLI's journeys are test/*-e2e.test.ts.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import type {Payment} from './api/types.js'
import {runInProcess, uninstallInProcess} from './base/test-support/cli-in-process.js'
import {bootEngine, type TestEngine} from './engine/test-support/harness.js'

let t: TestEngine
let home: string

/** `gw ARGS` as a user with their own HOME, none of this process's GW_ variables, NO_COLOR or CI */
function gw(args: string[]) {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_') && k !== 'NO_COLOR' && k !== 'CI') env[k] = v
  return runInProcess(args, {env: {...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_DATA_DIR: t.dataDir, GW_NO_KEYRING: '1'}})
}

const CARD = ['--currency', 'EUR', '--method', 'card', '--card']

beforeAll(async () => {
  t = await bootEngine()
  home = mkdtempSync(join(tmpdir(), 'gw-cli-smoke-'))
})

afterAll(async () => {
  uninstallInProcess()
  await t?.stop()
  rmSync(home, {recursive: true, force: true})
})

it('logs in to the local engine, pays, shows the payment as JSON, and exits 4 on a decline and 2 on a usage error', async () => {
  const login = await gw(['login', '--local'])
  expect(login.code, login.stderr).toBe(0)
  expect(login.stdout).toContain(`Logged in to ${t.engine.baseUrl}`)

  const paid = await gw(['payments', 'create', '--amount', '2000', ...CARD, '4242424242424242'])
  expect(paid.code, paid.stderr).toBe(0)
  expect(paid.stdout).toMatch(/^pay_\w+ {2}succeeded/)
  const id = /^(pay_\w+)/.exec(paid.stdout)![1]!

  const got = await gw(['payments', 'get', id, '--json'])
  expect(got.code).toBe(0)
  expect(JSON.parse(got.stdout) as Payment).toMatchObject({id, object: 'payment', amount: 2000, currency: 'EUR', status: 'succeeded'})

  const declined = await gw(['payments', 'create', '--amount', '2000', ...CARD, '4000000000000002'])
  expect(declined.code).toBe(4)
  expect(declined.stderr).toContain('card_declined')
  expect(declined.stdout).toBe('')

  const usage = await gw(['payments', 'create', '--amount', '20.00', '--currency', 'EUR'])
  expect(usage.code).toBe(2)
  expect(usage.stderr).toContain('--display-amount 20.00')

  for (const r of [login, paid, got, declined, usage]) expect(r.stdout + r.stderr).not.toContain(t.key)
})
