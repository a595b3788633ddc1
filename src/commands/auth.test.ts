import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {apiKeySelf, BASE_URL, cliEnv, errorBody, TEST_KEY, type CliEnv} from '../base/test-support/cli.js'
import {testHooks} from '../base/command.js'
import {CredentialStore, type Keyring} from '../config/credentials.js'
import ConfigGet from './config/get.js'
import ConfigList from './config/list.js'
import ConfigSet from './config/set.js'
import Login from './login.js'
import type {LoginResult} from './shared/login.js'
import Logout from './logout.js'
import Whoami from './whoami.js'
import PaymentsGet from './payments/get.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

/** the key check of `gw login` (GET /v1/api_keys/self): a secret key */
const okList = () => cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(200, apiKeySelf())
const configFile = () => join(cli.dir, 'config', 'gw', 'config.json')
const credFile = () => join(cli.dir, 'config', 'gw', 'credentials.json')

describe('login', () => {
  it('reads the key from stdin with --api-key -, verifies it, stores it 0600 with one notice, and never prints it', async () => {
    okList()
    const r = await cli.run<LoginResult>(Login, ['--base-url', BASE_URL, '--api-key', '-'], {stdin: `${TEST_KEY}\n`})
    expect(r.exitCode).toBe(0)
    expect(r.result).toEqual({profile: 'default', base_url: BASE_URL, mode: 'test', api_key: 'sk_test_…WXYZ', key_type: 'secret', permissions: null, key_storage: 'file', ca_file: null, verified: true, default: true})
    expect(r.stdout + r.stderr).not.toContain(TEST_KEY)
    expect(r.stdout).toContain('sk_test_…WXYZ')
    expect(r.stderr.match(/No OS keychain/g)).toHaveLength(1)
    expect(statSync(credFile()).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(credFile(), 'utf8')).profiles.default).toBe(TEST_KEY)
    const cfg = JSON.parse(readFileSync(configFile(), 'utf8'))
    expect(cfg).toEqual({default_profile: 'default', profiles: {default: {base_url: BASE_URL, key_storage: 'file'}}})
    expect(readFileSync(configFile(), 'utf8')).not.toContain(TEST_KEY)
  })

  it('asks for the key with a hidden prompt on a terminal', async () => {
    okList()
    const r = await cli.run(Login, ['--base-url', BASE_URL], {interactive: true, answers: [TEST_KEY]})
    expect(r.exitCode).toBe(0)
    expect(r.prompts).toEqual([{question: 'API key (input hidden): ', hidden: true}])
    expect(r.stdout + r.stderr).not.toContain(TEST_KEY)
  })

  it('asks for the base URL too when none is known', async () => {
    okList()
    const r = await cli.run<LoginResult>(Login, [], {interactive: true, answers: [BASE_URL, TEST_KEY]})
    expect(r.exitCode).toBe(0)
    expect(r.prompts.map((p) => p.hidden)).toEqual([false, true])
    expect(r.result?.base_url).toBe(BASE_URL)
  })

  it('stores the key in the keychain when one answers', async () => {
    okList()
    const data = new Map<string, string>()
    const kr: Keyring = {get: async (a) => data.get(a) ?? null, set: async (a, s) => void data.set(a, s), delete: async (a) => data.delete(a)}
    testHooks.credentials = () => new CredentialStore({keyring: async () => kr, notice: () => {}, env: {}})
    const r = await cli.run<LoginResult>(Login, ['--base-url', BASE_URL, '--api-key', '-', '--profile', 'kc'], {stdin: TEST_KEY})
    expect(r.result?.key_storage).toBe('keyring')
    expect(data.get('kc')).toBe(TEST_KEY)
    expect(r.stderr).not.toContain('No OS keychain')
  })

  it('rejects a key the API refuses (exit 3) and saves nothing', async () => {
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(401, errorBody('authentication_error', 'api_key_invalid', 'Invalid API key.'))
    const r = await cli.run(Login, ['--base-url', BASE_URL, '--api-key', '-'], {stdin: TEST_KEY})
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('Nothing was saved')
    expect(() => statSync(configFile())).toThrow()
    expect(r.stderr).not.toContain(TEST_KEY)
  })

  it.each([
    ['pk_test_abcdefghijklmnop', /publishable key/],
    ['hello', /should start with sk_test_ or sk_live_ \(a secret key\), or rk_test_ or rk_live_ \(a restricted key\)/],
  ])('rejects %s with a usage error', async (key, message) => {
    const r = await cli.run(Login, ['--base-url', BASE_URL, '--api-key', '-'], {stdin: key})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(message)
  })

  it('needs a base URL and a key when there is no terminal', async () => {
    const noUrl = await cli.run(Login, ['--api-key', '-'], {stdin: TEST_KEY})
    expect(noUrl.exitCode).toBe(2)
    expect(noUrl.stderr).toContain('--base-url')
    const noKey = await cli.run(Login, ['--base-url', BASE_URL])
    expect(noKey.exitCode).toBe(2)
    expect(noKey.stderr).toContain('--api-key -')
  })

  it('--local reads base_url, CA and key from the engine data dir', async () => {
    const dataDir = join(cli.dir, 'engine')
    mkdirSync(join(dataDir, 'tls'), {recursive: true})
    writeFileSync(join(dataDir, 'tls', 'ca.crt'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')
    writeFileSync(join(dataDir, 'secret_key'), 'sk_test_local_engine_key_9876\n')
    writeFileSync(
      join(dataDir, 'engine.json'),
      JSON.stringify({base_url: BASE_URL, checkout_url: 'https://api.test/checkout', ca_file: join(dataDir, 'tls', 'ca.crt'), secret_key_file: join(dataDir, 'secret_key'), pid: 1, started_at: ''}),
    )
    const r = await cli.run<LoginResult>(Login, ['--local', '--skip-verify'], {env: {GW_DATA_DIR: dataDir}})
    expect(r.exitCode).toBe(0)
    expect(r.result).toMatchObject({profile: 'local', base_url: BASE_URL, ca_file: join(dataDir, 'tls', 'ca.crt'), mode: 'test'})
    expect(r.stdout + r.stderr).not.toContain('sk_test_local_engine_key_9876')
    const cfg = JSON.parse(readFileSync(configFile(), 'utf8'))
    expect(cfg.default_profile).toBe('local')
    expect(cfg.profiles.local).toMatchObject({base_url: BASE_URL, data_dir: dataDir})
  })

  it('--local without an engine explains how to start one', async () => {
    const r = await cli.run(Login, ['--local'], {env: {GW_DATA_DIR: join(cli.dir, 'nothing')}})
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('gw serve')
  })
})

describe('after login', () => {
  async function login(profile = 'default') {
    okList()
    const r = await cli.run(Login, ['--base-url', BASE_URL, '--api-key', '-', '--profile', profile], {stdin: TEST_KEY})
    expect(r.exitCode).toBe(0)
  }

  it('commands use the saved profile', async () => {
    await login()
    let auth = ''
    cli.pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply((o) => {
      auth = (o.headers as Record<string, string>).authorization
      return {statusCode: 200, data: {id: 'pay_1', object: 'payment', amount: 1, currency: 'EUR', status: 'succeeded', payment_method: 'card', provider_attempts: [], metadata: {}}}
    })
    const r = await cli.run(PaymentsGet, ['pay_1'])
    expect(r.exitCode).toBe(0)
    expect(auth).toBe(`Bearer ${TEST_KEY}`)
  })

  it('whoami shows mode, base URL and the redacted key', async () => {
    await login()
    const r = await cli.run(Whoami, [])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('test')
    expect(r.stdout).toContain(BASE_URL)
    expect(r.stdout).toContain('sk_test_…WXYZ')
    expect(r.stdout).not.toContain(TEST_KEY)
    const j = await cli.run(Whoami, ['--json'])
    expect(JSON.parse(j.stdout)).toMatchObject({profile: 'default', mode: 'test', base_url: BASE_URL, api_key: 'sk_test_…WXYZ', key_source: 'credentials file (profile default)'})
  })

  it('whoami without a login exits 3', async () => {
    const r = await cli.run(Whoami, [])
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('gw login')
  })

  it('logout forgets the key, keeps the base URL; a second logout says not logged in', async () => {
    await login()
    const r = await cli.run(Logout, [])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(readFileSync(credFile(), 'utf8')).profiles).toEqual({})
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).profiles.default).toEqual({base_url: BASE_URL})
    expect((await cli.run(Whoami, [])).exitCode).toBe(3)
    const again = await cli.run(Logout, [])
    expect(again.exitCode).toBe(1)
    expect(again.stderr).toContain('not logged in')
  })

  it('config list shows each value and where it came from: profile, env, flag', async () => {
    await login('local')
    const fromProfile = await cli.run<{settings: Record<string, {value: string; source: string}>}>(ConfigList, ['--json'])
    expect(fromProfile.result?.settings).toMatchObject({
      profile: {value: 'local', source: 'config default_profile'},
      base_url: {value: BASE_URL, source: 'profile local'},
      api_key: {value: 'sk_test_…WXYZ', source: 'credentials file (profile local)'},
    })
    const fromEnv = await cli.run<{settings: Record<string, {value: string; source: string}>}>(ConfigList, ['--json'], {env: {GW_BASE_URL: 'https://env.test/v1', GW_API_KEY: 'sk_test_env_key_abcdefgh'}})
    expect(fromEnv.result?.settings.base_url).toEqual({value: 'https://env.test/v1', source: 'env GW_BASE_URL'})
    expect(fromEnv.result?.settings.api_key).toEqual({value: 'sk_test_…efgh', source: 'env GW_API_KEY'})
    const fromFlag = await cli.run<{settings: Record<string, {value: string; source: string}>}>(ConfigList, ['--json', '--base-url', 'https://flag.test/v1'], {env: {GW_BASE_URL: 'https://env.test/v1'}})
    expect(fromFlag.result?.settings.base_url).toEqual({value: 'https://flag.test/v1', source: 'flag'})
    const human = await cli.run(ConfigList, [])
    expect(human.stdout).toMatch(/base_url\s+https:\/\/api\.test\/v1\s+profile local/)
    expect(human.stdout).toMatch(/\* local/)
    expect(human.stdout).not.toContain(TEST_KEY)
  })

  it('config set/get change and read a profile setting', async () => {
    await login()
    const set = await cli.run(ConfigSet, ['base_url', 'https://other.test/v1'])
    expect(set.exitCode).toBe(0)
    const get = await cli.run(ConfigGet, ['base_url'])
    expect(get.stdout.trim()).toBe('https://other.test/v1')
    const bad = await cli.run(ConfigSet, ['base_url', 'http://other.test/v1'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('not https')
    const key = await cli.run(ConfigSet, ['api_key', 'sk_test_xxxxxxxxxxxx'])
    expect(key.exitCode).toBe(2)
    expect(key.stderr).toContain('gw login')
    const unknown = await cli.run(ConfigSet, ['colour', 'red'])
    expect(unknown.exitCode).toBe(2)
    const ca = await cli.run(ConfigSet, ['ca_file', '/no/such/ca.pem'])
    expect(ca.exitCode).toBe(2)
    const unsetGet = await cli.run(ConfigGet, ['ca_file'])
    expect(unsetGet.exitCode).toBe(1)
    expect(unsetGet.stderr).toContain('ca_file is not set')
  })

  it('config set default_profile switches the active profile', async () => {
    await login('a')
    await login('b')
    expect((await cli.run<{profile: string}>(Whoami, ['--json'])).result?.profile).toBe('b')
    await cli.run(ConfigSet, ['default_profile', 'a'])
    expect((await cli.run<{profile: string}>(Whoami, ['--json'])).result?.profile).toBe('a')
    expect((await cli.run<{profile: string}>(Whoami, ['--json'], {env: {GW_PROFILE: 'b'}})).result?.profile).toBe('b')
  })
})

describe('local profile', () => {
  it('follows the engine when it restarts on another port', async () => {
    const dataDir = join(cli.dir, 'engine2')
    mkdirSync(join(dataDir, 'tls'), {recursive: true})
    writeFileSync(join(dataDir, 'tls', 'ca.crt'), 'x')
    writeFileSync(join(dataDir, 'secret_key'), `${TEST_KEY}\n`)
    const info = (url: string) =>
      JSON.stringify({base_url: url, checkout_url: '', ca_file: join(dataDir, 'tls', 'ca.crt'), secret_key_file: join(dataDir, 'secret_key'), pid: 1, started_at: ''})
    writeFileSync(join(dataDir, 'engine.json'), info('https://old.test/v1'))
    expect((await cli.run(Login, ['--local', '--skip-verify'], {env: {GW_DATA_DIR: dataDir}})).exitCode).toBe(0)
    writeFileSync(join(dataDir, 'engine.json'), info(BASE_URL))
    cli.pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(200, {id: 'pay_1', object: 'payment', amount: 1, currency: 'EUR', status: 'succeeded', payment_method: 'card', provider_attempts: [], metadata: {}})
    const r = await cli.run(PaymentsGet, ['pay_1', '--verbose'])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain(`local engine now at ${BASE_URL}`)
  })
})
