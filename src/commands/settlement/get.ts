import type {SettlementReport} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {lineColumns, renderSettlementReport} from '../../output/settlement.js'
import {renderTable} from '../../output/table.js'

export default class SettlementGet extends GwCommand<typeof SettlementGet> {
  static override summary = 'Show one settlement report: totals and its lines.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> stl_123',
    {description: 'The totals only, with jq', command: '<%= config.bin %> <%= command.id %> stl_123 --json | jq "{gross, refunds, fees, net, adjustments, payout_amount}"'},
  ]

  static override args = {id: idArg('stl_', 'settlement report', 'List reports with: gw settlement list')}

  async run(): Promise<SettlementReport> {
    const report = await (await this.client()).settlementReports.get(this.args.id)
    if (!this.json) {
      this.print(renderSettlementReport(report, this.color))
      if (report.lines.length) this.print('\n' + (await renderTable(report.lines, lineColumns, this.color)))
      this.notice(this.errColor.dim(`Download it as CSV with: gw settlement download ${report.id} --output ${report.id}.csv`))
    }
    return report
  }
}
