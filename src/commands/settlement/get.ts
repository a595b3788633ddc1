import type {SettlementReport} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {lineColumns, renderSettlementReport} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class SettlementGet extends GwCommand<typeof SettlementGet> {
  static override summary = 'Show one settlement report: totals and its lines.'
  static override operations = ['retrieveSettlementReport'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %> stl_123',
    {description: 'The totals only, with jq', command: '<%= config.bin %> <%= command.id %> stl_123 --json | jq "{gross, refunds, fees, net, adjustments, payout_amount}"'},
  ]

  static override args = {id: idArg('stl_', 'settlement report', 'List reports with: gw settlement list')}

  async run(): Promise<SettlementReport> {
    return settlementGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw settlement get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface SettlementGetOptions {
  id: string
}

export async function settlementGet(ctx: Context, o: SettlementGetOptions): Promise<SettlementReport> {
  const report = await (await ctx.client()).settlementReports.get(o.id)
  if (!ctx.json) {
    ctx.print(renderSettlementReport(report, ctx.color))
    if (report.lines.length) ctx.print('\n' + (await ctx.table(report.lines, lineColumns)))
    ctx.notice(ctx.errColor.dim(`Download it as CSV with: gw settlement download ${report.id} --output ${report.id}.csv`))
  }
  return report
}
