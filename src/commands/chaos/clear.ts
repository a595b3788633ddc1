import {Args} from '@oclif/core'
import type {ChaosRule} from '../../api/types.js'
import {GwCommand, UsageError, type Context} from '../../base/command.js'

export default class ChaosClear extends GwCommand<typeof ChaosClear> {
  static override summary = 'End one fault, or every fault of this account.'
  static override operations = ['clearChaos', 'deleteChaosRule'] as const
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> chaos_123']
  static override args = {id: Args.string({description: 'The rule to end (chaos_...); without it, every rule.'})}

  async run(): Promise<ChaosRule[]> {
    return chaosClear(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw chaos clear` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ChaosClearOptions {
  id?: string
}

export async function chaosClear(ctx: Context, o: ChaosClearOptions): Promise<ChaosRule[]> {
  const client = await ctx.client()
  if (o.id !== undefined && !o.id.startsWith('chaos_')) throw new UsageError(`"${o.id}" is not a chaos rule id; they start with chaos_.`, 'List them with: gw chaos status')
  const ended = o.id !== undefined ? [await client.chaos.end(o.id)] : (await client.chaos.clear()).data
  ctx.print(ended.length === 0 ? 'No faults were on.' : `Ended ${ended.map((r) => r.id).join(', ')}.`)
  return ended
}
