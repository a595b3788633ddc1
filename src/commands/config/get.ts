import {Args} from '@oclif/core'
import {redactSecret} from '../../api/keys.js'
import {describeSource} from '../../config/resolve.js'
import {CONFIG_KEYS, isConfigKey} from '../../config/store.js'
import {GwCommand, type Context} from '../../base/command.js'
import {GwError, UsageError} from '../../errors.js'

export default class ConfigGet extends GwCommand<typeof ConfigGet> {
  static override summary = 'Print one setting as it is in effect (flag, env, then profile).'
  static override description = `Keys: ${Object.entries(CONFIG_KEYS).map(([k, v]) => `${k} (${v.description})`).join('; ')}.`
  static override examples = ['<%= config.bin %> <%= command.id %> base_url', '<%= config.bin %> <%= command.id %> ca_file --profile local', '<%= config.bin %> <%= command.id %> api_key   # redacted, with where it comes from']
  static override args = {key: Args.string({description: 'Setting name (api_key shows the key redacted, as config list does).', required: true, options: [...Object.keys(CONFIG_KEYS), 'api_key']})}

  async run(): Promise<{key: string; value: string; source: string; profile: string}> {
    return configGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw config get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ConfigGetOptions {
  key: string
}

export async function configGet(ctx: Context, o: ConfigGetOptions): Promise<{key: string; value: string; source: string; profile: string}> {
  const key = o.key
  const s = ctx.settings()
  if (key === 'api_key') {
    // the key as `config list` shows it: redacted, never whole, with its source
    const k = await ctx.apiKey()
    if (!k.value) {
      const unknown = ctx.unknownProfile()
      if (unknown) throw unknown
      throw new GwError(`No API key for profile "${s.profile.value}".`, {hint: 'Log in with `gw login` (or `gw login --local`), or set GW_API_KEY.'})
    }
    const value = redactSecret(k.value)
    ctx.print(value)
    return {key, value, source: describeSource(k), profile: s.profile.value}
  }
  if (!isConfigKey(key)) throw new UsageError(`Unknown key "${key}".`)
  let value: string | undefined
  let source: string
  if (key === 'default_profile') {
    value = ctx.configStore.read().default_profile
    source = 'config'
  } else {
    const setting = key === 'base_url' ? s.baseUrl : s.caFile
    value = setting.value
    source = describeSource(setting)
  }
  if (value === undefined) throw new GwError(`${key} is not set${key === 'default_profile' ? '' : ` for profile "${s.profile.value}"`}.`, {hint: `Set it with: gw config set ${key} VALUE`})
  ctx.print(value)
  return {key, value, source, profile: s.profile.value}
}
