import {Args, Flags} from '@oclif/core'
import type {ChaosProviderFaultCreate, ChaosRule} from '../../api/types.js'
import {GwCommand, UsageError, type Context} from '../../base/command.js'
import {announce, ending, parseLatency, parseRate} from './shared/rules.js'

export default class ChaosProvider extends GwCommand<typeof ChaosProvider> {
  static override summary = "Rehearse a provider failing: take it down, or make a share of its calls time out, soft-decline or slow down (test keys)."
  static override operations = ['createChaosProviderFault'] as const
  static override description = `For this account only. Routing fails over to the next provider inside the same call, as after a real failure: provider_attempts, gw payments explain and the provider's 7-day rate show it. A provider taken --down fails every call and is marked degraded (a provider.health.changed event) at the first failure, and active again when the fault ends.
Every fault ends: after --count faults, or --for (engine clock; 10m when neither is given). One fault per command; see them with gw chaos status, end them with gw chaos clear. Provider ids: gw providers list.`
  static override examples = [
    {description: 'A provider down for ten minutes of engine time', command: '<%= config.bin %> <%= command.id %> prov_1 --down --for 10m'},
    {description: 'Three calls in ten time out, the same ones every run', command: '<%= config.bin %> <%= command.id %> prov_1 --timeout-rate 0.3 --seed 7'},
    {description: 'The next 5 authorizations declined softly (try_again_later)', command: '<%= config.bin %> <%= command.id %> prov_1 --soft-decline-rate 1 --count 5'},
    {description: '800 ms more on every call (past the provider\'s timeout: a timeout)', command: '<%= config.bin %> <%= command.id %> prov_1 --latency 800ms'},
  ]

  static override args = {provider: Args.string({description: 'The provider (prov_...): gw providers list.', required: true})}

  static override flags = {
    down: Flags.boolean({description: 'Every call fails with a provider error; the provider is marked degraded until the fault ends.', exclusive: ['timeout-rate', 'soft-decline-rate', 'latency']}),
    'timeout-rate': Flags.string({description: 'The share of calls that time out, 0 to 1.', exclusive: ['down', 'soft-decline-rate', 'latency']}),
    'soft-decline-rate': Flags.string({description: 'The share of authorizations declined softly (try_again_later), 0 to 1.', exclusive: ['down', 'timeout-rate', 'latency']}),
    latency: Flags.string({description: 'Added to every call, really waited: 800ms, 2s.', exclusive: ['down', 'timeout-rate', 'soft-decline-rate']}),
    count: Flags.integer({description: 'How many faults, then it ends (not with --down).', min: 1}),
    for: Flags.string({description: 'How long it lasts on the engine clock: 90s, 10m, 2h (default 10m without --count).'}),
    seed: Flags.integer({description: 'Fault the same calls every run (with a rate below 1).'}),
  }

  async run(): Promise<ChaosRule> {
    return chaosProvider(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw chaos provider` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ChaosProviderOptions {
  down?: boolean
  'timeout-rate'?: string
  'soft-decline-rate'?: string
  latency?: string
  count?: number
  for?: string
  seed?: number
  provider: string
}

export async function chaosProvider(ctx: Context, o: ChaosProviderOptions): Promise<ChaosRule> {
  if (!o.provider.startsWith('prov_')) throw new UsageError(`"${o.provider}" is not a provider id; they start with prov_.`, 'List them with: gw providers list')
  let body: ChaosProviderFaultCreate
  if (o.down) {
    if (o.count !== undefined) throw new UsageError('--down lasts for a while, not a count: give --for (e.g. --for 10m).')
    body = {provider: o.provider, fault: 'down'}
  } else if (o['timeout-rate'] !== undefined) body = {provider: o.provider, fault: 'timeout', rate: parseRate(o['timeout-rate'], '--timeout-rate')}
  else if (o['soft-decline-rate'] !== undefined) body = {provider: o.provider, fault: 'soft_decline', rate: parseRate(o['soft-decline-rate'], '--soft-decline-rate')}
  else if (o.latency !== undefined) body = {provider: o.provider, fault: 'latency', latency_ms: parseLatency(o.latency)}
  else throw new UsageError('Say what goes wrong: --down, --timeout-rate R, --soft-decline-rate R or --latency 800ms.', `e.g. gw chaos provider ${o.provider} --down --for 10m`)
  return announce(ctx, await (await ctx.client()).chaos.addProviderFault({...body, ...ending(o)}))
}
