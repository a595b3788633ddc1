import type {Provider} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderProvider} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class ProvidersGet extends GwCommand<typeof ProvidersGet> {
  static override summary = 'Show one payment provider: methods, currencies, health, auth rate, fees and latency.'
  static override operations = ['retrieveProvider'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> prov_atlas', '<%= config.bin %> <%= command.id %> prov_atlas --json | jq .auth_rate_7d']
  static override args = {id: idArg('prov_', 'provider', 'List them with: gw providers list')}

  async run(): Promise<Provider> {
    return providersGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw providers get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ProvidersGetOptions {
  id: string
}

export async function providersGet(ctx: Context, o: ProvidersGetOptions): Promise<Provider> {
  const provider = await (await ctx.client()).providers.get(o.id)
  ctx.print(renderProvider(provider, ctx.color))
  return provider
}
