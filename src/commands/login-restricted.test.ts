// A support agent's restricted key logs in (docs/decisions.md#api-keys): `gw login` takes rk_ keys, checks them
// against GET /api_keys/self (any key may call it), and says what they may do; `--local` with a key
// given saves that key, never the engine's.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {apiKeySelf, BASE_URL, cliEnv, errorBody, type CliEnv} from '../base/test-support/cli.js'
import ConfigSet from './config/set.js'
import Login from './login.js'
import type {LoginResult} from './shared/login.js'
import Whoami, {type WhoamiResult} from './whoami.js'

const RK = 'rk_test_support_0123456789abcdef4J4N'
const ENGINE_KEY = 'sk_test_local_engine_key_9876_ENGN'
const PERMS = ['disputes:write', 'payments:read', 'refunds:write', 'events:read']

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const credentials = () => JSON.parse(readFileSync(join(cli.dir, 'config', 'gw', 'credentials.json'), 'utf8')).profiles as Record<string, string>
const config = () => JSON.parse(readFileSync(join(cli.dir, 'config', 'gw', 'config.json'), 'utf8'))

/** GET /v1/api_keys/self answering for the key presented (the restricted one, or the engine's). */
function keysAnswer() {
  const seen: string[] = []
  cli.pool
    .intercept({path: '/v1/api_keys/self', method: 'GET'})
    .reply((o) => {
      const auth = (o.headers as Record<string, string>).authorization
      seen.push(auth)
      return {statusCode: 200, data: auth === `Bearer ${RK}` ? apiKeySelf(PERMS) : apiKeySelf()}
    })
    .persist()
  return seen
}

describe('gw login with a restricted key', () => {
  it('takes an rk_test_ key from stdin, checks it with /api_keys/self (no payments:read needed) and says what it may do', async () => {
    const seen = keysAnswer()
    const r = await cli.run<LoginResult>(Login, ['--profile', 'support', '--base-url', BASE_URL, '--api-key', '-'], {stdin: RK})
    expect(r.stderr).not.toContain('does not look like')
    expect(r.exitCode).toBe(0)
    expect(seen).toEqual([`Bearer ${RK}`])
    expect(r.result).toMatchObject({profile: 'support', mode: 'test', key_type: 'restricted', permissions: PERMS, api_key: 'rk_test_…4J4N', verified: true})
    expect(r.stdout).toContain('Logged in to https://api.test/v1 as profile "support" (test mode, restricted key rk_test_…4J4N')
    expect(r.stdout).toContain(`It may: ${PERMS.join(', ')}.`)
    expect(r.stdout + r.stderr).not.toContain(RK)
    expect(credentials().support).toBe(RK)
  })

  it('an rk_live_ key is a live key: a named profile, not the default without asking', async () => {
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(200, apiKeySelf(PERMS, {livemode: true}))
    const r = await cli.run<LoginResult>(Login, ['--profile', 'support-live', '--base-url', BASE_URL, '--api-key', '-'], {stdin: 'rk_live_support_0123456789abcdefLIVE'})
    expect(r.exitCode).toBe(0)
    expect(r.result).toMatchObject({mode: 'live', key_type: 'restricted', default: false})
  })

  it('refuses a publishable key, naming both kinds the CLI takes', async () => {
    const r = await cli.run(Login, ['--base-url', BASE_URL, '--api-key', '-'], {stdin: 'pk_test_abcdefghijklmnop'})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('publishable key')
    expect(r.stderr).toContain('restricted key (rk_test_..., rk_live_...)')
  })

  it('a key the API refuses saves nothing', async () => {
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(401, errorBody('authentication_error', 'api_key_revoked', 'This API key was revoked.'))
    const r = await cli.run(Login, ['--profile', 'support', '--base-url', BASE_URL, '--api-key', '-'], {stdin: RK})
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('Nothing was saved')
  })

  it('a server without /api_keys/self (404) is checked with a page of payments instead', async () => {
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'route_unknown', 'Unrecognized request URL (GET /v1/api_keys/self).'))
    cli.pool.intercept({path: (p) => p.startsWith('/v1/payments?'), method: 'GET'}).reply(200, {object: 'list', url: '/v1/payments', data: [], has_more: false})
    const r = await cli.run<LoginResult>(Login, ['--base-url', BASE_URL, '--api-key', '-'], {stdin: 'sk_test_unit_0123456789abcdefWXYZ'})
    expect(r.exitCode).toBe(0)
    expect(r.result).toMatchObject({verified: true, key_type: 'secret', permissions: null})
  })

  describe('--local', () => {
    function engineDir(): string {
      const dataDir = join(cli.dir, 'engine')
      mkdirSync(join(dataDir, 'tls'), {recursive: true})
      writeFileSync(join(dataDir, 'tls', 'ca.crt'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')
      writeFileSync(join(dataDir, 'secret_key'), `${ENGINE_KEY}\n`)
      writeFileSync(
        join(dataDir, 'engine.json'),
        JSON.stringify({base_url: BASE_URL, checkout_url: 'https://api.test/checkout', ca_file: join(dataDir, 'tls', 'ca.crt'), secret_key_file: join(dataDir, 'secret_key'), pid: 1, started_at: ''}),
      )
      return dataDir
    }

    it('with --api-key - saves the key it was given (the restricted one), never the engine key', async () => {
      const dataDir = engineDir()
      const seen = keysAnswer()
      const r = await cli.run<LoginResult>(Login, ['--local', '--profile', 'support', '--api-key', '-'], {stdin: RK, env: {GW_DATA_DIR: dataDir}})
      expect(r.exitCode).toBe(0)
      expect(seen).toEqual([`Bearer ${RK}`])
      expect(r.result).toMatchObject({profile: 'support', base_url: BASE_URL, ca_file: join(dataDir, 'tls', 'ca.crt'), key_type: 'restricted', api_key: 'rk_test_…4J4N'})
      expect(r.stdout).toContain('rk_test_…4J4N')
      expect(r.stdout + r.stderr).not.toContain('sk_test_')
      expect(credentials().support).toBe(RK)
      expect(JSON.stringify(credentials())).not.toContain(ENGINE_KEY)
      expect(config().profiles.support).toMatchObject({base_url: BASE_URL, data_dir: dataDir})
    })

    it('without a key given, still saves the engine key', async () => {
      const dataDir = engineDir()
      const seen = keysAnswer()
      const r = await cli.run<LoginResult>(Login, ['--local'], {env: {GW_DATA_DIR: dataDir}})
      expect(r.exitCode).toBe(0)
      expect(seen).toEqual([`Bearer ${ENGINE_KEY}`])
      expect(credentials().local).toBe(ENGINE_KEY)
    })
  })

  it('whoami shows the mode and what the restricted key may do', async () => {
    keysAnswer()
    expect((await cli.run(Login, ['--profile', 'support', '--base-url', BASE_URL, '--api-key', '-'], {stdin: RK})).exitCode).toBe(0)
    cli.pool.intercept({path: '/v1/account', method: 'GET'}).reply(200, {id: 'acct_default', object: 'account', name: null, metadata: {}, livemode: false, created_at: '2025-01-01T00:00:00Z'})
    const r = await cli.run<WhoamiResult>(Whoami, ['--profile', 'support'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/Mode\s+test/)
    expect(r.stdout).toMatch(new RegExp(`Key\\s+key_unit_1, restricted: ${PERMS.join(', ')}`))
    expect(r.result).toMatchObject({mode: 'test', key: {type: 'restricted', permissions: PERMS}})
  })

  it('config set api_key points to gw login, which takes restricted keys', async () => {
    const r = await cli.run(ConfigSet, ['api_key', RK])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('restricted (rk_)')
    expect(r.stderr).toContain('gw login --profile NAME --base-url URL --api-key -')
    expect(r.stderr).not.toContain(RK)
  })
})
