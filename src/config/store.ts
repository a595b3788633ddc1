// The config file ($XDG_CONFIG_HOME/gw/config.json): named profiles and the default profile.
// It never holds a key; keys live in the OS keychain or credentials.json (credentials.ts).
import {chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {dirname} from 'node:path'
import {GwError} from '../errors.js'
import {configFile} from './paths.js'

export type KeyStorage = 'keyring' | 'file'

export interface Profile {
  base_url?: string
  /** PEM file of a CA to trust for this profile (the local engine's CA) */
  ca_file?: string
  /** where this profile's key is stored; absent when logged out */
  key_storage?: KeyStorage
  /** the engine data dir, for a profile made by `gw login --local` */
  data_dir?: string
  /** `gw listen`'s signing secret (whsec_...), created on first use and kept */
  listen_secret?: string
}

export interface ConfigData {
  default_profile?: string
  profiles: Record<string, Profile>
}

export const DEFAULT_PROFILE = 'default'

/** Keys `gw config get|set` accept: per profile unless marked global. */
export const CONFIG_KEYS = {
  base_url: {scope: 'profile', description: 'API base URL, https://HOST[:PORT]/v1'},
  ca_file: {scope: 'profile', description: 'PEM file of an extra CA to trust (a local engine)'},
  default_profile: {scope: 'global', description: 'profile used when neither --profile nor GW_PROFILE is set'},
} as const

export type ConfigKey = keyof typeof CONFIG_KEYS

export function isConfigKey(k: string): k is ConfigKey {
  return Object.hasOwn(CONFIG_KEYS, k)
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

export function validProfileName(name: string): boolean {
  return PROFILE_NAME.test(name)
}

export class ConfigStore {
  constructor(readonly path: string = configFile()) {}

  read(): ConfigData {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {profiles: {}}
      throw error
    }
    let data: Partial<ConfigData>
    try {
      data = JSON.parse(text) as Partial<ConfigData>
    } catch {
      throw new GwError(`The config file ${this.path} is not valid JSON.`, {hint: 'Fix or delete it, then run `gw login` again.'})
    }
    return {...data, profiles: data.profiles && typeof data.profiles === 'object' ? data.profiles : {}}
  }

  write(data: ConfigData): void {
    mkdirSync(dirname(this.path), {recursive: true, mode: 0o700})
    const tmp = `${this.path}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', {mode: 0o600})
    renameSync(tmp, this.path)
    chmodSync(this.path, 0o600)
  }

  profile(name: string): Profile | undefined {
    return this.read().profiles[name]
  }

  /** Merges `patch` into a profile (undefined values delete the field) and saves. */
  updateProfile(name: string, patch: Partial<Record<keyof Profile, string | undefined>>): Profile {
    const data = this.read()
    const next: Record<string, unknown> = {...data.profiles[name]}
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k]
      else next[k] = v
    }
    data.profiles[name] = next as Profile
    this.write(data)
    return data.profiles[name]
  }

  setDefaultProfile(name: string): void {
    const data = this.read()
    data.default_profile = name
    this.write(data)
  }
}
