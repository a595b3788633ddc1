import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Account, AccountWithKeys, ApiKey, ApiKeyWithSecret} from '../../api/types.js'
import {at, cliEnv, errorBody, json, type CliEnv} from '../../base/test-support/cli.js'
import KeysCreate, {parsePermissionsFlag} from '../keys/create.js'
import KeysList from '../keys/list.js'
import KeysRevoke from '../keys/revoke.js'
import KeysRoll from '../keys/roll.js'
import AccountsCreate from './create.js'
import AccountsDelete from './delete.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const account = (over: Partial<AccountWithKeys> = {}): Account & Partial<AccountWithKeys> => ({id: 'acct_new', object: 'account', name: 'ci', metadata: {}, livemode: false, created_at: '2026-11-24T00:00:00.000Z', ...over})
const key = (over: Partial<ApiKeyWithSecret> = {}): ApiKey & Partial<ApiKeyWithSecret> => ({
  id: 'key_1',
  object: 'api_key',
  type: 'restricted',
  name: 'support',
  redacted: 'rk_test_…abcd',
  permissions: ['payments:read'],
  status: 'active',
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
  livemode: false,
  created_at: '2026-11-24T00:00:00.000Z',
  ...over,
})

describe('gw accounts', () => {
  it('create prints the account with its keys once; --json is the API object; --login saves a profile for it', async () => {
    const seen: unknown[] = []
    cli.pool
      .intercept({path: '/v1/accounts', method: 'POST'})
      .reply((o) => {
        seen.push(JSON.parse(String(o.body)))
        return {statusCode: 201, data: account({secret_key: 'sk_test_newaccount0000000000000000000', publishable_key: 'pk_test_newaccount0000000000000000000'}), responseOptions: json}
      })
      .times(2)
    const r = await cli.run<Account>(AccountsCreate, [...at(), '--name', 'ci', '--metadata', 'job=42', '--login', 'ci-42'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(seen[0]).toEqual({name: 'ci', metadata: {job: '42'}})
    expect(r.stdout).toContain('sk_test_newaccount0000000000000000000')
    expect(r.stderr).toMatch(/shown this once/)
    expect(r.stderr).toMatch(/Saved profile "ci-42" for acct_new/)
    const config = readFileSync(join(cli.dir, 'config', 'gw', 'config.json'), 'utf8')
    expect(JSON.parse(config).profiles['ci-42']).toMatchObject({base_url: 'https://api.test/v1'})
    expect(config).not.toContain('sk_test_newaccount')
    const j = await cli.run<Account>(AccountsCreate, [...at(), '--json'])
    expect(JSON.parse(j.stdout)).toMatchObject({id: 'acct_new', secret_key: expect.stringMatching(/^sk_test_/)})
  })

  it("a key of another account is refused with the API's 403, exit 3, and says what it needs", async () => {
    cli.pool.intercept({path: '/v1/accounts', method: 'POST'}).reply(403, {
      error: {...errorBody('permission_error', 'permission_denied', "Accounts are managed with a key of the engine's own account (acct_default).").error, permission: 'accounts:write'},
    })
    const r = await cli.run(AccountsCreate, [...at(), '--name', 'x'])
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toMatch(/engine's own account/)
    expect(r.stderr).toMatch(/gw keys create/)
  })

  it('delete refuses without --yes when there is no terminal, and says what goes', async () => {
    const r = await cli.run(AccountsDelete, [...at(), 'acct_new'])
    expect(r.exitCode).toBe(9)
    expect(r.stderr).toMatch(/--yes/)
    cli.pool.intercept({path: '/v1/accounts/acct_new', method: 'DELETE'}).reply(200, {id: 'acct_new', object: 'account', deleted: true}, json)
    const ok = await cli.run(AccountsDelete, [...at(), 'acct_new'], {interactive: true, answers: ['y']})
    expect(ok.exitCode).toBe(0)
    expect(ok.prompts[0]!.question).toMatch(/every payment, event, webhook endpoint and key/)
  })
})

describe('gw keys', () => {
  it('--permissions is checked before anything is sent: levels, resources, near misses', () => {
    expect(parsePermissionsFlag('disputes:write, payments:read,*:read')).toEqual(['disputes:write', 'payments:read', '*:read'])
    expect(() => parsePermissionsFlag('payment:read')).toThrow(/no resource "payment"/)
    try {
      parsePermissionsFlag('payment:read')
    } catch (e) {
      expect((e as {hint?: string}).hint).toBe('Did you mean payments:read?')
    }
    expect(() => parsePermissionsFlag('payments:wirte')).toThrow(/the level is read or write/)
    expect(() => parsePermissionsFlag('payments')).toThrow(/not resource:level/)
  })

  it('create sends a restricted key with its permissions and shows the secret once', async () => {
    const seen: unknown[] = []
    cli.pool.intercept({path: '/v1/api_keys', method: 'POST'}).reply((o) => {
      seen.push(JSON.parse(String(o.body)))
      return {statusCode: 201, data: key({secret: 'rk_test_secretsecretsecretsecretabcd'}), responseOptions: json}
    })
    const r = await cli.run<ApiKey>(KeysCreate, [...at(), '--name', 'support', '--permissions', 'disputes:write,payments:read,refunds:write'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(seen[0]).toEqual({type: 'restricted', name: 'support', permissions: ['disputes:write', 'payments:read', 'refunds:write']})
    expect(r.stdout).toContain('rk_test_secretsecretsecretsecretabcd')
    expect((await cli.run(KeysCreate, [...at(), '--name', 'x'])).exitCode).toBe(2)
    expect((await cli.run(KeysCreate, [...at(), '--type', 'secret', '--permissions', 'payments:read'])).exitCode).toBe(2)
    expect((await cli.run(KeysCreate, [...at(), '--permissions', 'paymnts:read'])).stderr).toMatch(/Did you mean payments:read/)
  })

  it('list marks the key in use', async () => {
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(200, key({id: 'key_me', type: 'secret', permissions: null, redacted: 'sk_test_…mine'}), json)
    cli.pool.intercept({path: (p) => p === '/v1/api_keys' || p.startsWith('/v1/api_keys?'), method: 'GET'}).reply(200, {object: 'list', url: '/v1/api_keys', data: [key(), key({id: 'key_me', type: 'secret', permissions: null})], has_more: false}, json)
    const r = await cli.run(KeysList, [...at()], {tty: 160})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/key_me \(in use\)/)
    expect(r.stdout).toMatch(/payments:read/)
  })

  it('roll without an id rolls the key in use and says until when the old one works', async () => {
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(200, key({id: 'key_me', type: 'secret', permissions: null, redacted: 'sk_test_…mine'}), json)
    const seen: unknown[] = []
    cli.pool.intercept({path: '/v1/api_keys/key_me/roll', method: 'POST'}).reply((o) => {
      seen.push(JSON.parse(String(o.body)))
      return {statusCode: 200, data: key({id: 'key_new', type: 'secret', permissions: null, secret: 'sk_test_rolledrolledrolledrolledabcd'}), responseOptions: json}
    })
    cli.pool.intercept({path: '/v1/api_keys/key_me', method: 'GET'}).reply(200, key({id: 'key_me', type: 'secret', permissions: null, expires_at: '2026-11-25T00:00:00.000Z'}), json)
    const r = await cli.run<ApiKeyWithSecret>(KeysRoll, [...at(), '--expires-in', '1h'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(seen[0]).toEqual({expires_in: 3600})
    expect(r.stderr).toMatch(/keeps working until 2026-11-25T00:00:00.000Z/)
    expect(r.result?.secret).toBe('sk_test_rolledrolledrolledrolledabcd')
    expect((await cli.run(KeysRoll, [...at(), '--expires-in', '8d'])).exitCode).toBe(2)
  })

  it('revoke warns when it is the key in use', async () => {
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(200, key({id: 'key_me'}), json)
    cli.pool.intercept({path: '/v1/api_keys/key_me/revoke', method: 'POST'}).reply(200, key({id: 'key_me', status: 'revoked'}), json)
    const r = await cli.run(KeysRevoke, [...at(), 'key_me'], {interactive: true, answers: ['y']})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.prompts[0]!.question).toMatch(/the key this profile uses/)
    expect(r.stderr).toMatch(/That was the key in use/)
  })
})

describe('a replay without the secret (secrets are shown once)', () => {
  const replayed = {headers: {...json.headers, 'idempotent-replayed': 'true'}}

  it('keys create says the key was made, its secret shown once, and how to get a working one', async () => {
    cli.pool.intercept({path: '/v1/api_keys', method: 'POST'}).reply(201, key({secret: 'rk_test_…abcd'}), replayed)
    const r = await cli.run<ApiKey>(KeysCreate, [...at(), '--permissions', 'payments:read', '--idempotency-key', 'again'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/The key key_1 was made by an earlier request with this Idempotency-Key, and its secret was shown only once/)
    expect(r.stderr).toContain('gw keys roll key_1 --expires-in 0')
    expect(r.stderr).not.toMatch(/hand it over now/)
  })

  it('keys roll of the key in use keeps the profile as it is and says to roll the new key', async () => {
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(200, key({id: 'key_me', type: 'secret', permissions: null, redacted: 'sk_test_…mine'}), json)
    cli.pool.intercept({path: '/v1/api_keys/key_me/roll', method: 'POST'}).reply(200, key({id: 'key_new', type: 'secret', permissions: null, secret: 'sk_test_…abcd'}), replayed)
    const r = await cli.run<ApiKey>(KeysRoll, [...at()])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/The new key key_new \(rolled from key_me\) was made by an earlier request/)
    expect(r.stderr).toContain('gw keys roll key_new --expires-in 0')
    expect(r.stderr).not.toMatch(/Saved the new key/)
  })

  it('accounts create saves no profile with a redacted key and says to delete the account and create another', async () => {
    cli.pool.intercept({path: '/v1/accounts', method: 'POST'}).reply(201, account({secret_key: 'sk_test_…abcd', publishable_key: 'pk_test_…wxyz'}), replayed)
    const r = await cli.run<Account>(AccountsCreate, [...at(), '--login', 'ci-43', '--idempotency-key', 'again'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/The account acct_new was made by an earlier request/)
    expect(r.stderr).toContain('profile "ci-43" was not saved')
    expect(r.stderr).toContain('gw accounts delete acct_new')
    expect(r.stderr).not.toMatch(/Saved profile/)
  })
})
