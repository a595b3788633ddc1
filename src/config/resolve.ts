// Resolves the settings a command runs with. Precedence: flag, then environment variable,
// then the profile, then a default. Every value remembers where it came from, which
// `gw config list` shows.
import {CredentialStore} from './credentials.js'
import {ConfigStore, DEFAULT_PROFILE, type Profile} from './store.js'

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'keyring' | 'file' | 'stdin' | 'unset'

export interface Setting<V> {
  value: V | undefined
  source: Source
  /** e.g. the env var name, or the profile name */
  detail?: string
}

/** What the command line set explicitly (not through env: oclif merges those). */
export interface FlagInputs {
  profile?: string
  apiKey?: string
  baseUrl?: string
  caFile?: string
}

export const ENV = {
  profile: 'GW_PROFILE',
  apiKey: 'GW_API_KEY',
  baseUrl: 'GW_BASE_URL',
  caFile: 'GW_CA_FILE',
} as const

export interface Resolved {
  profile: Setting<string> & {value: string}
  profileData: Profile | undefined
  baseUrl: Setting<string>
  caFile: Setting<string>
}

export function resolveProfile(flags: FlagInputs, env: NodeJS.ProcessEnv, store: ConfigStore): Resolved {
  const data = store.read()
  let profile: Setting<string> & {value: string}
  if (flags.profile) profile = {value: flags.profile, source: 'flag'}
  else if (env[ENV.profile]) profile = {value: env[ENV.profile]!, source: 'env', detail: ENV.profile}
  else if (data.default_profile) profile = {value: data.default_profile, source: 'profile', detail: 'default_profile'}
  else profile = {value: DEFAULT_PROFILE, source: 'default'}
  const profileData = data.profiles[profile.value]
  const pick = (flag: string | undefined, envName: string, fromProfile: string | undefined): Setting<string> => {
    if (flag) return {value: flag, source: 'flag'}
    if (env[envName]) return {value: env[envName], source: 'env', detail: envName}
    if (fromProfile) return {value: fromProfile, source: 'profile', detail: profile.value}
    return {value: undefined, source: 'unset'}
  }
  return {
    profile,
    profileData,
    baseUrl: pick(flags.baseUrl, ENV.baseUrl, profileData?.base_url),
    caFile: pick(flags.caFile, ENV.caFile, profileData?.ca_file),
  }
}

/** The API key: `--api-key` (or `-` = stdin), then GW_API_KEY, then the profile's stored key. */
export async function resolveApiKey(
  flags: FlagInputs,
  env: NodeJS.ProcessEnv,
  resolved: Resolved,
  creds: CredentialStore,
  readStdin: () => Promise<string>,
): Promise<Setting<string>> {
  const fromInput = async (value: string, source: Source, detail?: string): Promise<Setting<string>> => {
    if (value === '-') {
      const key = (await readStdin()).trim()
      return {value: key || undefined, source: 'stdin'}
    }
    return {value: value.trim(), source, detail}
  }
  if (flags.apiKey) return fromInput(flags.apiKey, 'flag')
  if (env[ENV.apiKey]) return fromInput(env[ENV.apiKey]!, 'env', ENV.apiKey)
  if (resolved.profileData?.key_storage) {
    const stored = await creds.load(resolved.profile.value, resolved.profileData.key_storage)
    if (stored) return {value: stored.key, source: stored.storage, detail: resolved.profile.value}
  }
  return {value: undefined, source: 'unset'}
}

export function describeSource(s: Setting<unknown>): string {
  switch (s.source) {
    case 'flag':
      return 'flag'
    case 'env':
      return `env ${s.detail}`
    case 'profile':
      return s.detail === 'default_profile' ? 'config default_profile' : `profile ${s.detail}`
    case 'keyring':
      return `keychain (profile ${s.detail})`
    case 'file':
      return `credentials file (profile ${s.detail})`
    case 'stdin':
      return 'stdin'
    case 'default':
      return 'default'
    default:
      return '-'
  }
}
