// A live key never becomes the default profile without asking (docs/decisions.md#confirmations-and-live-keys).
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, expect, it} from 'vitest'
import {apiKeySelf, BASE_URL, cliEnv, LIVE_KEY, TEST_KEY, type CliEnv} from '../base/test-support/cli.js'
import Login from './login.js'
import type {LoginResult} from './shared/login.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
  cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(200, apiKeySelf()).persist()
})
afterEach(async () => {
  await cli.cleanup()
})

const config = () => JSON.parse(readFileSync(join(cli.dir, 'config', 'gw', 'config.json'), 'utf8')) as {default_profile?: string; profiles: Record<string, unknown>}

async function loginTest() {
  const r = await cli.run<LoginResult>(Login, ['--base-url', BASE_URL, '--api-key', '-'], {stdin: `${TEST_KEY}\n`})
  expect(r.exitCode).toBe(0)
  expect(config().default_profile).toBe('default')
}

it('without a terminal, a live login is saved as a named profile and the default stays; it says how to use it', async () => {
  await loginTest()
  const r = await cli.run<LoginResult>(Login, ['--profile', 'prod', '--base-url', BASE_URL, '--api-key', '-'], {stdin: `${LIVE_KEY}\n`})
  expect(r.exitCode).toBe(0)
  expect(r.result).toMatchObject({profile: 'prod', mode: 'live', default: false})
  expect(config().default_profile).toBe('default')
  expect(config().profiles).toHaveProperty('prod')
  expect(r.stdout).toContain('"prod" is not the default profile ("default" still is): use it with --profile prod')
  expect(r.stderr).toContain('gw config set default_profile prod')
})

it('on a terminal it asks (LIVE, default No): Enter keeps the default, "y" makes the live profile the default', async () => {
  await loginTest()
  const no = await cli.run<LoginResult>(Login, ['--profile', 'prod', '--base-url', BASE_URL], {interactive: true, answers: [LIVE_KEY, '']})
  expect(no.prompts.at(-1)?.question).toMatch(/LIVE.*Make "prod" \(a live key\) the default profile\? .*real money\. \[y\/N\]/)
  expect(no.result?.default).toBe(false)
  expect(config().default_profile).toBe('default')
  const yes = await cli.run<LoginResult>(Login, ['--profile', 'prod', '--base-url', BASE_URL], {interactive: true, answers: [LIVE_KEY, 'y']})
  expect(yes.result?.default).toBe(true)
  expect(config().default_profile).toBe('prod')
})

it('--default and --no-default decide without asking; a test login still becomes the default by itself', async () => {
  const live = await cli.run<LoginResult>(Login, ['--profile', 'prod', '--base-url', BASE_URL, '--api-key', '-', '--default'], {stdin: `${LIVE_KEY}\n`})
  expect(live.prompts).toEqual([])
  expect(config().default_profile).toBe('prod')
  const staging = await cli.run<LoginResult>(Login, ['--profile', 'staging', '--base-url', BASE_URL, '--api-key', '-', '--no-default'], {stdin: `${TEST_KEY}\n`})
  expect(staging.result?.default).toBe(false)
  expect(config().default_profile).toBe('prod')
  await loginTest()
})
