import type {Provider} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {renderProvider} from '../../output/admin.js'

export default class ProvidersGet extends GwCommand<typeof ProvidersGet> {
  static override summary = 'Show one payment provider: methods, currencies, health, auth rate, fees and latency.'
  static override examples = ['<%= config.bin %> <%= command.id %> prov_atlas', '<%= config.bin %> <%= command.id %> prov_atlas --json | jq .auth_rate_7d']
  static override args = {id: idArg('prov_', 'provider', 'List them with: gw providers list')}

  async run(): Promise<Provider> {
    const provider = await (await this.client()).providers.get(this.args.id)
    this.print(renderProvider(provider, this.color))
    return provider
  }
}
