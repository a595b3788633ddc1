import {keyMode} from '../config/redact.js'
import {redactSecret} from '../api/keys.js'
import {describeSource} from '../config/resolve.js'
import {renderFields} from '../output/detail.js'
import {GwCommand, type Context} from '../base/command.js'
import {AuthError} from '../errors.js'

export interface WhoamiResult {
  profile: string
  mode: 'test' | 'live' | 'unknown'
  base_url: string | null
  api_key: string
  key_source: string
  ca_file: string | null
  /** the account the key belongs to (null: the API could not be asked) */
  account: {id: string; name: string | null} | null
  /** the key's type and, for a restricted key, its permissions (null: the API could not be asked) */
  key: {id: string; type: string; permissions: string[] | null} | null
}

export default class Whoami extends GwCommand<typeof Whoami> {
  static override summary = 'Show the active profile: mode, base URL and the redacted key.'
  static override operations = ['retrieveCurrentAccount'] as const
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile live --json']

  async run(): Promise<WhoamiResult> {
    return whoami(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw whoami` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WhoamiOptions {

}

export async function whoami(ctx: Context, o: WhoamiOptions): Promise<WhoamiResult> {
  const s = ctx.settings()
  const key = await ctx.apiKey()
  if (!key.value) {
    const unknown = ctx.unknownProfile()
    if (unknown) throw unknown
    throw new AuthError(`Not logged in (profile "${s.profile.value}").`, 'Run `gw login`, or `gw login --local` for the engine started by `gw serve`.')
  }
  const mode = keyMode(key.value)
  const c = ctx.color
  // the account and the key, as the API knows them (a gateway without accounts, or none reachable: left out)
  let account: WhoamiResult['account'] = null
  let apiKey: WhoamiResult['key'] = null
  let unreachable: string | undefined
  if (s.baseUrl.value) {
    try {
      const client = await ctx.client()
      const [a, k] = await Promise.all([client.accounts.current(), client.apiKeys.self()])
      account = {id: a.id, name: a.name}
      apiKey = {id: k.id, type: k.type, permissions: k.permissions}
    } catch (e) {
      unreachable = (e as Error).message
    }
  }
  ctx.print(
    renderFields(
      c.bold(`Profile ${s.profile.value}`),
      [
        ['Mode', mode === 'live' ? c.red('live') : mode],
        ['Base URL', s.baseUrl.value ? `${s.baseUrl.value} ${c.dim(`(${describeSource(s.baseUrl)})`)}` : c.yellow('not set')],
        ['API key', `${redactSecret(key.value)} ${c.dim(`(${describeSource(key)})`)}`],
        ['CA file', s.caFile.value ? `${s.caFile.value} ${c.dim(`(${describeSource(s.caFile)})`)}` : undefined],
        ['Account', account ? `${account.id}${account.name ? ` (${account.name})` : ''}` : unreachable ? c.dim(`not known: ${unreachable}`) : undefined],
        ['Key', apiKey ? `${apiKey.id}, ${apiKey.type}${apiKey.permissions ? `: ${apiKey.permissions.join(', ')}` : ''}` : undefined],
      ],
      c,
    ),
  )
  return {
    profile: s.profile.value,
    mode,
    base_url: s.baseUrl.value ?? null,
    api_key: redactSecret(key.value),
    key_source: describeSource(key),
    ca_file: s.caFile.value ?? null,
    account,
    key: apiKey,
  }
}
