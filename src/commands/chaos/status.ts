import type {ChaosRule} from '../../api/types.js'
import {chaosColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class ChaosStatus extends GwCommand<typeof ChaosStatus> {
  static override summary = 'The faults switched on for this account, with how many each injected and when it ends.'
  static override operations = ['listChaos'] as const
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  async run(): Promise<ChaosRule[]> {
    return chaosStatus(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw chaos status` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ChaosStatusOptions {

}

export async function chaosStatus(ctx: Context, o: ChaosStatusOptions): Promise<ChaosRule[]> {
  const rules = (await (await ctx.client()).chaos.list()).data
  if (rules.length === 0) ctx.print('No faults are on.')
  else ctx.print(await ctx.table(rules, chaosColumns))
  return rules
}
