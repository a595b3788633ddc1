import {Flags} from '@oclif/core'
import type {Provider, ProviderStatus} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderProvider} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class ProvidersHealth extends GwCommand<typeof ProvidersHealth> {
  static override summary = 'Test helper: force a provider to active, degraded or disabled.'
  static override operations = ['testSetProviderHealth'] as const
  static override description =
    'Routing skips disabled providers and tries degraded ones last. Test mode only (sk_test_ keys); the change emits provider.health.changed.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> prov_atlas --status disabled',
    '<%= config.bin %> <%= command.id %> prov_atlas --status active',
  ]

  static override args = {id: idArg('prov_', 'provider', 'List them with: gw providers list')}
  static override flags = {
    status: Flags.string({description: 'New health status.', options: ['active', 'degraded', 'disabled'], required: true}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Provider> {
    return providersHealth(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw providers health` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ProvidersHealthOptions {
  status: string
  'idempotency-key'?: string
  id: string
}

export async function providersHealth(ctx: Context, f: ProvidersHealthOptions): Promise<Provider> {
  const provider = await (await ctx.client()).providers.setHealth(f.id, f.status as ProviderStatus, {idempotencyKey: f['idempotency-key']})
  ctx.print(renderProvider(provider, ctx.color))
  return provider
}
