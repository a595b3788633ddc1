import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {CredentialStore, type Keyring} from './credentials.js'
import {configDir} from './paths.js'
import {keyMode, scrub} from './redact.js'
import {redactSecret} from '../api/keys.js'
import {describeSource, resolveApiKey, resolveProfile} from './resolve.js'
import {ConfigStore} from './store.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-config-'))
})
afterEach(() => rmSync(dir, {recursive: true, force: true}))

const mode = (p: string) => statSync(p).mode & 0o777

function fakeKeyring(): Keyring & {data: Map<string, string>} {
  const data = new Map<string, string>()
  return {
    data,
    get: async (a) => data.get(a) ?? null,
    set: async (a, s) => void data.set(a, s),
    delete: async (a) => data.delete(a),
  }
}

describe('paths', () => {
  it('uses $XDG_CONFIG_HOME/gw, else ~/.config/gw', () => {
    expect(configDir({XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/a'})).toBe('/x/cfg/gw')
    expect(configDir({HOME: '/home/a'})).toBe('/home/a/.config/gw')
    // a relative XDG_CONFIG_HOME is invalid per the spec and ignored
    expect(configDir({XDG_CONFIG_HOME: 'rel', HOME: '/home/a'})).toBe('/home/a/.config/gw')
  })
})

describe('redaction', () => {
  it('shows only the prefix and the last 4 characters, as the engine does (one rule: redactSecret in src/api/keys.ts)', () => {
    const key = 'sk_test_abcdefghijklmnopqrstuvwxyz'
    expect(redactSecret(key)).toBe('sk_test_…wxyz')
    expect(redactSecret(key)).not.toContain('abcdefgh')
    expect(redactSecret('sk_live_0123456789abcdef')).toBe('sk_live_…cdef')
    // a string of no known prefix shows its last four only
    expect(redactSecret('garbage-token-123456')).toBe('…3456')
  })
  it('never shows a short key whole', () => {
    expect(redactSecret('sk_test_ab')).not.toBe('sk_test_ab')
    expect(redactSecret('')).toBe('')
  })
  it('scrubs a key out of any text', () => {
    const key = 'sk_live_0123456789abcdef'
    expect(scrub(`bad key ${key}!`, key)).toBe('bad key sk_live_…cdef!')
  })
  it('tells the mode from the prefix', () => {
    expect(keyMode('sk_test_x')).toBe('test')
    expect(keyMode('sk_live_x')).toBe('live')
    expect(keyMode('pk_test_x')).toBe('unknown')
  })
})

describe('ConfigStore', () => {
  it('returns an empty config when the file is missing, and writes it 0600 in a 0700 dir', () => {
    const store = new ConfigStore(join(dir, 'gw', 'config.json'))
    expect(store.read()).toEqual({profiles: {}})
    store.updateProfile('local', {base_url: 'https://127.0.0.1:8443/v1', ca_file: '/tmp/ca.crt'})
    store.setDefaultProfile('local')
    expect(store.read()).toEqual({default_profile: 'local', profiles: {local: {base_url: 'https://127.0.0.1:8443/v1', ca_file: '/tmp/ca.crt'}}})
    expect(mode(store.path)).toBe(0o600)
    expect(mode(join(dir, 'gw'))).toBe(0o700)
  })

  it('removes a field set to undefined', () => {
    const store = new ConfigStore(join(dir, 'config.json'))
    store.updateProfile('p', {base_url: 'https://a/v1', ca_file: '/ca'})
    store.updateProfile('p', {ca_file: undefined})
    expect(store.profile('p')).toEqual({base_url: 'https://a/v1'})
  })

  it('explains a corrupt file', () => {
    const path = join(dir, 'config.json')
    writeFileSync(path, '{nope')
    expect(() => new ConfigStore(path).read()).toThrow(/not valid JSON/)
  })
})

describe('CredentialStore', () => {
  it('stores the key in the keychain when one answers, with no notice and no file', async () => {
    const kr = fakeKeyring()
    const notices: string[] = []
    const store = new CredentialStore({file: join(dir, 'credentials.json'), keyring: async () => kr, notice: (m) => notices.push(m), env: {}})
    expect(await store.save('default', 'sk_test_secret_1234')).toBe('keyring')
    expect(kr.data.get('default')).toBe('sk_test_secret_1234')
    expect(notices).toEqual([])
    expect(() => statSync(store.file)).toThrow()
    expect(await store.load('default', 'keyring')).toEqual({key: 'sk_test_secret_1234', storage: 'keyring'})
  })

  it('falls back to a 0600 file with exactly one notice when the keychain throws', async () => {
    const notices: string[] = []
    const store = new CredentialStore({
      file: join(dir, 'gw', 'credentials.json'),
      keyring: async () => {
        throw new Error("Couldn't access platform storage")
      },
      notice: (m) => notices.push(m),
      env: {},
    })
    expect(await store.save('default', 'sk_test_secret_1234')).toBe('file')
    expect(notices).toHaveLength(1)
    expect(notices[0]).toContain('credentials.json')
    expect(notices[0]).not.toContain('sk_test_secret_1234')
    expect(mode(store.file)).toBe(0o600)
    expect(JSON.parse(readFileSync(store.file, 'utf8'))).toEqual({profiles: {default: 'sk_test_secret_1234'}})
    expect(await store.load('default', 'file')).toEqual({key: 'sk_test_secret_1234', storage: 'file'})
  })

  it('falls back when the keychain accepts a write it cannot read back', async () => {
    const notices: string[] = []
    const store = new CredentialStore({
      file: join(dir, 'credentials.json'),
      keyring: async () => ({get: async () => null, set: async () => {}, delete: async () => false}),
      notice: (m) => notices.push(m),
      env: {},
    })
    expect(await store.save('p', 'sk_test_secret_1234')).toBe('file')
    expect(notices).toHaveLength(1)
  })

  it('--insecure-storage skips the keychain', async () => {
    const kr = fakeKeyring()
    const notices: string[] = []
    const store = new CredentialStore({file: join(dir, 'credentials.json'), keyring: async () => kr, notice: (m) => notices.push(m), env: {}})
    expect(await store.save('p', 'sk_test_secret_1234', {insecureStorage: true})).toBe('file')
    expect(kr.data.size).toBe(0)
    expect(notices).toHaveLength(1)
  })

  it('remove() forgets the key in both places', async () => {
    const kr = fakeKeyring()
    const store = new CredentialStore({file: join(dir, 'credentials.json'), keyring: async () => kr, notice: () => {}, env: {}})
    await store.save('a', 'sk_test_aaaaaaaaaaaa')
    await store.save('b', 'sk_test_bbbbbbbbbbbb', {insecureStorage: true})
    expect(await store.remove('a')).toBe(true)
    expect(await store.remove('b')).toBe(true)
    expect(await store.remove('c')).toBe(false)
    expect(await store.load('a')).toBeNull()
    expect(await store.load('b')).toBeNull()
  })
})

describe('resolve: flag, then env, then profile', () => {
  function setup() {
    const store = new ConfigStore(join(dir, 'config.json'))
    store.updateProfile('local', {base_url: 'https://local/v1', ca_file: '/ca.crt', key_storage: 'file'})
    store.updateProfile('other', {base_url: 'https://other/v1'})
    store.setDefaultProfile('local')
    const creds = new CredentialStore({file: join(dir, 'credentials.json'), keyring: async () => fakeKeyring(), notice: () => {}, env: {GW_NO_KEYRING: '1'}})
    return {store, creds}
  }

  it('uses the default profile when nothing else says', async () => {
    const {store, creds} = setup()
    await creds.save('local', 'sk_test_from_profile_1234')
    const r = resolveProfile({}, {}, store)
    expect(r.profile).toEqual({value: 'local', source: 'profile', detail: 'default_profile'})
    expect(r.baseUrl).toMatchObject({value: 'https://local/v1', source: 'profile'})
    const key = await resolveApiKey({}, {}, r, creds, async () => '')
    expect(key).toMatchObject({value: 'sk_test_from_profile_1234', source: 'file'})
    expect(describeSource(key)).toBe('credentials file (profile local)')
  })

  it('env beats the profile, and a flag beats env', async () => {
    const {store, creds} = setup()
    const env = {GW_PROFILE: 'other', GW_BASE_URL: 'https://env/v1', GW_API_KEY: 'sk_test_from_env_12345'}
    const r = resolveProfile({}, env, store)
    expect(r.profile).toMatchObject({value: 'other', source: 'env'})
    expect(r.baseUrl).toMatchObject({value: 'https://env/v1', source: 'env', detail: 'GW_BASE_URL'})
    expect((await resolveApiKey({}, env, r, creds, async () => '')).source).toBe('env')

    const r2 = resolveProfile({profile: 'local', baseUrl: 'https://flag/v1'}, env, store)
    expect(r2.profile.source).toBe('flag')
    expect(r2.baseUrl).toMatchObject({value: 'https://flag/v1', source: 'flag'})
    expect(r2.caFile).toMatchObject({value: '/ca.crt', source: 'profile'})
    const key = await resolveApiKey({apiKey: 'sk_test_from_flag_123'}, env, r2, creds, async () => '')
    expect(key).toMatchObject({value: 'sk_test_from_flag_123', source: 'flag'})
  })

  it('--api-key - reads stdin', async () => {
    const {store, creds} = setup()
    const key = await resolveApiKey({apiKey: '-'}, {}, resolveProfile({}, {}, store), creds, async () => 'sk_test_from_stdin_1234\n')
    expect(key).toEqual({value: 'sk_test_from_stdin_1234', source: 'stdin'})
  })

  it('falls back to the profile "default" with nothing configured', () => {
    const r = resolveProfile({}, {}, new ConfigStore(join(dir, 'none.json')))
    expect(r.profile).toEqual({value: 'default', source: 'default'})
    expect(r.baseUrl.source).toBe('unset')
  })
})
