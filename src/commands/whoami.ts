import {keyMode, redactKey} from '../config/redact.js'
import {describeSource} from '../config/resolve.js'
import {renderFields} from '../output/detail.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../base/command.js'
import {AuthError} from '../errors.js'

export interface WhoamiResult {
  profile: string
  mode: 'test' | 'live' | 'unknown'
  base_url: string | null
  api_key: string
  key_source: string
  ca_file: string | null
}

export default class Whoami extends GwCommand<typeof Whoami> {
  static override summary = 'Show the active profile: mode, base URL and the redacted key.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile live --json']

  async run(): Promise<WhoamiResult> {
    return whoami(this.ctx, this.flags, this.args)
  }
}

export async function whoami(ctx: Context, flags: GwFlags<typeof Whoami>, args: GwArgs<typeof Whoami>): Promise<WhoamiResult> {
  const s = ctx.settings()
  const key = await ctx.apiKey()
  if (!key.value) {
    const unknown = ctx.unknownProfile()
    if (unknown) throw unknown
    throw new AuthError(`Not logged in (profile "${s.profile.value}").`, 'Run `gw login`, or `gw login --local` for the engine started by `gw serve`.')
  }
  const mode = keyMode(key.value)
  const c = ctx.color
  ctx.print(
    renderFields(
      c.bold(`Profile ${s.profile.value}`),
      [
        ['Mode', mode === 'live' ? c.red('live') : mode],
        ['Base URL', s.baseUrl.value ? `${s.baseUrl.value} ${c.dim(`(${describeSource(s.baseUrl)})`)}` : c.yellow('not set')],
        ['API key', `${redactKey(key.value)} ${c.dim(`(${describeSource(key)})`)}`],
        ['CA file', s.caFile.value ? `${s.caFile.value} ${c.dim(`(${describeSource(s.caFile)})`)}` : undefined],
      ],
      c,
    ),
  )
  return {
    profile: s.profile.value,
    mode,
    base_url: s.baseUrl.value ?? null,
    api_key: redactKey(key.value),
    key_source: describeSource(key),
    ca_file: s.caFile.value ?? null,
  }
}
