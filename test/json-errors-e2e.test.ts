// `--json` errors are the API's envelope as it came and nothing else (docs/decisions.md#a-newcomers-cli): the CLI
// (in this process: src/base/test-support/cli-in-process.ts) against an engine in this process, each
// error's stdout checked against the OpenAPI
// document's response for that status (its Error schema allows no other member); the exit code
// tells the status.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {startEngine, type EngineHandle} from '../src/engine/index.js'
import {assertDocumented} from '../src/engine/test-support/openapi-check.js'
import {runInProcess, uninstallInProcess} from '../src/base/test-support/cli-in-process.js'
import {cliEnv} from './support/cli-snapshot.js'

let engine: EngineHandle
let home: string
let dataDir: string

const gw = (args: string[]) => runInProcess(args, {env: cliEnv(home, dataDir, {NO_COLOR: '1'})})

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-json-errors-home-'))
  dataDir = mkdtempSync(join(tmpdir(), 'gw-e2e-json-errors-engine-'))
  engine = await startEngine({dataDir, port: 0, durability: 'normal', rateLimit: 0, log: () => {}})
  expect((await gw(['login', '--local'])).code).toBe(0)
}, 60_000)

afterAll(async () => {
  uninstallInProcess()
  await engine?.close()
  for (const d of [home, dataDir]) if (d) rmSync(d, {recursive: true, force: true})
})

// paths below /v1, as the document's operations are matched
const cases: {what: string; args: string[]; method: string; path: string; status: number; exit: number}[] = [
  {what: 'a payment that does not exist', args: ['payments', 'get', 'pay_doesnotexist'], method: 'GET', path: '/payments/pay_doesnotexist', status: 404, exit: 5},
  {what: 'a declined card', args: ['payments', 'create', '--amount', '2000', '--currency', 'EUR', '--method', 'card', '--card', '4000000000000002'], method: 'POST', path: '/payments', status: 402, exit: 4},
  {what: 'a refund of a payment that does not exist', args: ['refunds', 'create', '--payment', 'pay_doesnotexist', '--amount', '100'], method: 'POST', path: '/refunds', status: 404, exit: 5},
]

for (const c of cases) {
  it(`--json on ${c.what}: the API's ${c.status} envelope as it came, nothing added; exit ${c.exit}`, async () => {
    const r = await gw([...c.args, '--json'])
    expect(r.code, r.stderr).toBe(c.exit)
    const body = JSON.parse(r.stdout)
    expect(Object.keys(body)).toEqual(['error'])
    expect(body.error.request_id).toMatch(/^req_/)
    // what the document says the operation answers with that status (Error: additionalProperties false)
    assertDocumented(c.method, c.path, {status: c.status, headers: {'content-type': 'application/json', 'request-id': body.error.request_id}, text: r.stdout})
  }, 30_000)
}
