import {existsSync} from 'node:fs'
import {resolve} from 'node:path'
import {Args} from '@oclif/core'
import {CONFIG_KEYS, isConfigKey, validProfileName} from '../../config/store.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class ConfigSet extends GwCommand<typeof ConfigSet> {
  static override summary = 'Change a setting of the profile (or default_profile); an empty value removes it.'
  static override description = `Keys: ${Object.entries(CONFIG_KEYS).map(([k, v]) => `${k} (${v.description})`).join('; ')}. API keys are not settings: use \`gw login\`.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> base_url https://gateway.example/v1',
    '<%= config.bin %> <%= command.id %> base_url https://staging.example/v1 --profile staging',
    '<%= config.bin %> <%= command.id %> default_profile local',
    {description: 'Remove a CA file', command: '<%= config.bin %> <%= command.id %> ca_file ""'},
  ]

  static override args = {
    key: Args.string({description: 'Setting name.', required: true}),
    value: Args.string({description: 'New value ("" removes it).', required: true}),
  }

  async run(): Promise<{key: string; value: string | null; profile: string | null}> {
    return configSet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw config set` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ConfigSetOptions {
  key: string
  value: string
}

export async function configSet(ctx: Context, o: ConfigSetOptions): Promise<{key: string; value: string | null; profile: string | null}> {
  const {key, value} = o
  if (key === 'api_key' || key === 'api-key') {
    throw new UsageError(
      'API keys are not stored in the config file: `gw login` checks a key and keeps it in the OS keychain.',
      'Secret (sk_) and restricted (rk_) keys alike: `gw login --profile NAME --base-url URL` asks for it hidden, or pipe it: printf %s "$KEY" | gw login --profile NAME --base-url URL --api-key -',
    )
  }
  if (!isConfigKey(key)) throw new UsageError(`Unknown key "${key}".`, `Keys: ${Object.keys(CONFIG_KEYS).join(', ')}.`)
  const store = ctx.configStore
  if (key === 'default_profile') {
    if (!validProfileName(value)) throw new UsageError(`"${value}" is not a valid profile name.`)
    if (!store.profile(value)) ctx.notice(`! No profile "${value}" exists yet; create it with \`gw login --profile ${value}\`.`)
    store.setDefaultProfile(value)
    ctx.print(`default_profile = ${value}`)
    return {key, value, profile: null}
  }
  const profile = ctx.settings().profile.value
  let next: string | undefined = value === '' ? undefined : value
  if (next !== undefined && key === 'base_url') next = ctx.checkBaseUrl(next, 'the value')
  if (next !== undefined && key === 'ca_file') {
    next = resolve(next)
    if (!existsSync(next)) throw new UsageError(`ca_file ${next} does not exist.`, 'Give the path of a PEM certificate file.')
  }
  store.updateProfile(profile, {[key]: next})
  ctx.print(next === undefined ? `Removed ${key} from profile "${profile}".` : `${key} = ${next} (profile "${profile}")`)
  return {key, value: next ?? null, profile}
}
