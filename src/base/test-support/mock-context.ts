// A MockAgent and a test context against it, for tests of command bodies as plain functions.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {MockAgent} from 'undici'
import {BASE, TEST_KEY} from './cli.js'
import {testContext, type TestContext} from './context.js'

export interface MockApi {
  dir: string
  mock: MockAgent
  pool: ReturnType<MockAgent['get']>
  /** a context pointed at the mock with a test key (env, not flags); `env` adds variables */
  context(opts?: {json?: boolean; tty?: number; env?: Record<string, string>}): TestContext
  close(): Promise<void>
}

export function mockApi(): MockApi {
  const dir = mkdtempSync(join(tmpdir(), 'gw-body-'))
  const mock = new MockAgent()
  mock.disableNetConnect()
  return {
    dir,
    mock,
    pool: mock.get(BASE),
    context: (opts = {}) =>
      testContext({dispatcher: mock, json: opts.json, tty: opts.tty, env: {XDG_CONFIG_HOME: join(dir, 'config'), HOME: dir, GW_BASE_URL: `${BASE}/v1`, GW_API_KEY: TEST_KEY, ...opts.env}}),
    async close() {
      await mock.close()
      rmSync(dir, {recursive: true, force: true})
    },
  }
}
