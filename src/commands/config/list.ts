import {keyMode} from '../../config/redact.js'
import {redactSecret} from '../../api/keys.js'
import {describeSource} from '../../config/resolve.js'
import {GwCommand, type Context} from '../../base/command.js'

interface Entry {
  value: string | null
  source: string
}

export interface ConfigListResult {
  config_file: string
  settings: {profile: Entry; base_url: Entry; ca_file: Entry; api_key: Entry; mode: string | null}
  profiles: Record<string, {base_url: string | null; ca_file: string | null; key_storage: string | null; default: boolean}>
}

export default class ConfigList extends GwCommand<typeof ConfigList> {
  static override summary = 'Show the settings in effect and where each came from, then every profile.'
  static override description = 'Precedence: a flag, then its environment variable (GW_PROFILE, GW_BASE_URL, GW_CA_FILE, GW_API_KEY), then the profile.'
  static override examples = ['<%= config.bin %> <%= command.id %>', 'GW_PROFILE=live <%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  async run(): Promise<ConfigListResult> {
    return configList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw config list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ConfigListOptions {

}

export async function configList(ctx: Context, o: ConfigListOptions): Promise<ConfigListResult> {
  const store = ctx.configStore
  const data = store.read()
  const s = ctx.settings()
  const key = await ctx.apiKey()
  const entry = (value: string | undefined, source: string): Entry => ({value: value ?? null, source})
  const result: ConfigListResult = {
    config_file: store.path,
    settings: {
      profile: entry(s.profile.value, describeSource(s.profile)),
      base_url: entry(s.baseUrl.value, describeSource(s.baseUrl)),
      ca_file: entry(s.caFile.value, describeSource(s.caFile)),
      api_key: entry(key.value ? redactSecret(key.value) : undefined, describeSource(key)),
      mode: key.value ? keyMode(key.value) : null,
    },
    profiles: {},
  }
  for (const [name, p] of Object.entries(data.profiles)) {
    result.profiles[name] = {
      base_url: p.base_url ?? null,
      ca_file: p.ca_file ?? null,
      key_storage: p.key_storage ?? null,
      default: data.default_profile === name,
    }
  }

  const c = ctx.color
  const rows: [string, Entry][] = [
    ['profile', result.settings.profile],
    ['base_url', result.settings.base_url],
    ['ca_file', result.settings.ca_file],
    ['api_key', result.settings.api_key],
  ]
  const w = Math.max(...rows.map(([, e]) => (e.value ?? '(not set)').length))
  ctx.print(c.bold('In effect') + c.dim(`  (config file ${store.path})`))
  for (const [name, e] of rows) {
    ctx.print(`  ${name.padEnd(9)} ${(e.value ?? '(not set)').padEnd(w)}  ${c.dim(e.source)}`)
  }
  if (result.settings.mode) ctx.print(`  ${'mode'.padEnd(9)} ${result.settings.mode === 'live' ? c.red('live') : result.settings.mode}`)
  ctx.print('')
  ctx.print(c.bold('Profiles'))
  const names = Object.keys(result.profiles)
  if (!names.length) ctx.print('  (none yet: run `gw login`, or `gw login --local` for `gw serve`)')
  for (const name of names) {
    const p = result.profiles[name]
    const keyText = p.key_storage === 'keyring' ? 'key in keychain' : p.key_storage === 'file' ? 'key in credentials file' : 'logged out'
    ctx.print(`  ${p.default ? '*' : ' '} ${name.padEnd(12)} ${(p.base_url ?? '(no base_url)').padEnd(32)} ${c.dim(keyText)}`)
  }
  return result
}
