// Where API keys live. First choice: the OS keychain through @napi-rs/keyring (service `gw`,
// account = profile name), imported lazily. Where no keychain answers (headless Linux, CI)
// or with --insecure-storage: $XDG_CONFIG_HOME/gw/credentials.json, mode 0600, with one
// notice on stderr — the way `gh` does it.
import {chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname} from 'node:path'
import {credentialsFile} from './paths.js'
import type {KeyStorage} from './store.js'

export interface Keyring {
  get(account: string): Promise<string | null>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<boolean>
}

const SERVICE = 'gw'
const KEYRING_TIMEOUT_MS = 3000

/** The OS keychain, or an exception when the platform has none. */
export async function loadOsKeyring(): Promise<Keyring> {
  const {AsyncEntry} = await import('@napi-rs/keyring')
  const entry = (account: string) => new AsyncEntry(SERVICE, account)
  const signal = () => AbortSignal.timeout(KEYRING_TIMEOUT_MS)
  return {
    get: (account) => entry(account).getPassword(signal()).then((v) => v ?? null),
    set: (account, secret) => entry(account).setPassword(secret, signal()),
    delete: (account) => entry(account).deleteCredential(signal()),
  }
}

interface CredentialsFile {
  /** profile -> API key */
  profiles: Record<string, string>
  /** profile -> name (wh_...) -> secret */
  secrets: Record<string, Record<string, string>>
}

export interface CredentialStoreOptions {
  file?: string
  /** how to reach the keychain; tests inject a fake */
  keyring?: () => Promise<Keyring>
  /** stderr sink for the plain-file notice */
  notice?: (message: string) => void
  env?: NodeJS.ProcessEnv
}

export class CredentialStore {
  readonly file: string
  private readonly keyring: () => Promise<Keyring>
  private readonly notice: (message: string) => void
  private readonly keyringDisabled: boolean

  constructor(opts: CredentialStoreOptions = {}) {
    const env = opts.env ?? process.env
    this.file = opts.file ?? credentialsFile(env)
    this.keyring = opts.keyring ?? loadOsKeyring
    this.notice = opts.notice ?? ((m) => process.stderr.write(m + '\n'))
    // GW_NO_KEYRING=1: behave as if no keychain answered (CI, tests on a developer machine)
    this.keyringDisabled = env.GW_NO_KEYRING === '1' || env.GW_NO_KEYRING === 'true'
  }

  /** Stores a key; returns where it went. */
  async save(profile: string, key: string, opts: {insecureStorage?: boolean} = {}): Promise<KeyStorage> {
    if (opts.insecureStorage) {
      this.notice(`! Storing the API key for profile "${profile}" in plain text in ${this.file} (readable only by you), as --insecure-storage asked.`)
    } else {
      try {
        if (this.keyringDisabled) throw new Error('GW_NO_KEYRING is set')
        const kr = await this.keyring()
        await kr.set(profile, key)
        // some backends accept a write they cannot read back; trust only a round trip
        if ((await kr.get(profile)) === key) {
          this.removeFromFile(profile)
          return 'keyring'
        }
      } catch {
        // no keychain answers: fall through to the file
      }
      this.notice(
        `! No OS keychain is available; the API key for profile "${profile}" is stored in plain text in ${this.file} (readable only by you).`,
      )
    }
    const data = this.readFile()
    data.profiles[profile] = key
    this.writeFile(data)
    return 'file'
  }

  /** The key of a profile, looked up where the profile says it lives (both places if unknown). */
  async load(profile: string, storage?: KeyStorage): Promise<{key: string; storage: KeyStorage} | null> {
    if (storage !== 'file' && !this.keyringDisabled) {
      try {
        const key = await (await this.keyring()).get(profile)
        if (key) return {key, storage: 'keyring'}
      } catch {
        // no keychain
      }
    }
    if (storage !== 'keyring' || this.keyringDisabled) {
      const key = this.readFile().profiles[profile]
      if (key) return {key, storage: 'file'}
    }
    return null
  }

  /** Forgets a profile's key in both places; true when something was removed. */
  async remove(profile: string): Promise<boolean> {
    let removed = false
    if (!this.keyringDisabled) {
      try {
        removed = await (await this.keyring()).delete(profile)
      } catch {
        // no keychain
      }
    }
    return this.removeFromFile(profile) || removed
  }

  // ----- other secrets of a profile: webhook endpoint signing secrets (whsec_...), kept when
  // `gw webhooks create` / `rotate-secret` show them, so `gw listen --load-from-webhooks-api`
  // can sign each endpoint's forwards the way the engine does. Keychain account
  // "<profile>/<name>"; in the file, under "secrets". Never printed again.

  /** Stores a named secret of a profile; returns where it went (no notice: the API key's said it). */
  async saveSecret(profile: string, name: string, secret: string): Promise<KeyStorage> {
    const account = `${profile}/${name}`
    if (!this.keyringDisabled) {
      try {
        const kr = await this.keyring()
        await kr.set(account, secret)
        if ((await kr.get(account)) === secret) {
          this.removeSecretFromFile(profile, name)
          return 'keyring'
        }
      } catch {
        // no keychain: the file
      }
    }
    const data = this.readFile()
    ;(data.secrets[profile] ??= {})[name] = secret
    this.writeFile(data)
    return 'file'
  }

  async loadSecret(profile: string, name: string): Promise<string | null> {
    if (!this.keyringDisabled) {
      try {
        const v = await (await this.keyring()).get(`${profile}/${name}`)
        if (v) return v
      } catch {
        // no keychain
      }
    }
    return this.readFile().secrets[profile]?.[name] ?? null
  }

  async removeSecret(profile: string, name: string): Promise<boolean> {
    let removed = false
    if (!this.keyringDisabled) {
      try {
        removed = await (await this.keyring()).delete(`${profile}/${name}`)
      } catch {
        // no keychain
      }
    }
    return this.removeSecretFromFile(profile, name) || removed
  }

  private removeSecretFromFile(profile: string, name: string): boolean {
    const data = this.readFile()
    if (!data.secrets[profile] || !(name in data.secrets[profile]!)) return false
    delete data.secrets[profile]![name]
    if (Object.keys(data.secrets[profile]!).length === 0) delete data.secrets[profile]
    this.writeFile(data)
    return true
  }

  private removeFromFile(profile: string): boolean {
    const data = this.readFile()
    if (!(profile in data.profiles)) return false
    delete data.profiles[profile]
    this.writeFile(data)
    return true
  }

  private readFile(): CredentialsFile {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<CredentialsFile>
      return {profiles: parsed.profiles ?? {}, secrets: parsed.secrets ?? {}}
    } catch {
      return {profiles: {}, secrets: {}}
    }
  }

  private writeFile(full: CredentialsFile): void {
    // the file keeps its old shape ({profiles}) until a secret is stored
    const data = Object.keys(full.secrets).length ? full : {profiles: full.profiles}
    mkdirSync(dirname(this.file), {recursive: true, mode: 0o700})
    const tmp = `${this.file}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', {mode: 0o600})
    renameSync(tmp, this.file)
    chmodSync(this.file, 0o600)
  }
}
