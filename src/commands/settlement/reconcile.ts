import {Flags} from '@oclif/core'
import {currencyFlag} from '../../base/flags.js'
import {GwCommand} from '../../base/command.js'
import {UsageError} from '../../errors.js'
import type {ReconcileResult} from './shared/reconcile-report.js'
import {BANK_EXAMPLE, ORDERS_EXAMPLE, settlementReconcile} from './shared/run-reconcile.js'

const dateFlag = Flags.custom<string>({
  parse: async (input, _ctx, opts) => {
    const t = input.trim()
    const ok = /^\d{4}-\d{2}-\d{2}$/.test(t) && !Number.isNaN(Date.parse(t)) && new Date(`${t}T00:00:00Z`).toISOString().startsWith(t)
    if (!ok) throw new UsageError(`--${opts.name} "${input}" is not a date.`, `Use YYYY-MM-DD (UTC), e.g. --${opts.name} 2025-01-31.`)
    return t
  },
})

export default class SettlementReconcile extends GwCommand<typeof SettlementReconcile> {
  static override summary = "Match the period's settlement reports to your orders, and its payouts to your bank credits."
  static override description = `The last stage of the acquiring chain: every payment line of the period's settlement reports is matched to an order by reference, amount and currency; with --bank, every payout that references those reports to a bank credit of its amount and currency on or after its arrival date (up to 5 days later).
Prints a summary (matched; in reports but not in orders; in orders but never settled; amount and currency mismatches; duplicates; unpaid payouts; fees and dispute debits per currency) and writes every finding to --out as CSV. Exits 0 only when everything matches, 1 when there are findings (for CI), 2 when a file cannot be used.

--orders: CSV with a header and at least reference,amount,currency (amount in minor units: 2000 = 20.00 EUR; other columns are ignored):
  ${ORDERS_EXAMPLE.replace('\n', '\n  ')}
--bank: CSV with a header and at least date,amount,currency (date YYYY-MM-DD, amount in minor units; other columns, like description, are ignored):
  ${BANK_EXAMPLE.replace('\n', '\n  ')}

The period is --from to --to (UTC days, both included); without them, the latest day that has settlement reports. Reports for a day are built at 02:00 UTC the next day (on the engine clock in test mode). Both files are streamed: a file of millions of orders reconciles in bounded memory.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --orders orders.csv',
    {description: 'A week, with the bank statement, every finding written to a CSV', command: '<%= config.bin %> <%= command.id %> --orders orders.csv --from 2025-03-01 --to 2025-03-07 --bank bank.csv --out mismatches.csv'},
    {description: 'In CI: fail the job on any mismatch', command: '<%= config.bin %> <%= command.id %> --orders orders.csv --from 2025-03-01 --to 2025-03-01 --out mismatches.csv || exit 1'},
    {description: 'The counts only, with jq', command: '<%= config.bin %> <%= command.id %> --orders orders.csv --json | jq .summary.counts'},
  ]

  static override flags = {
    orders: Flags.string({description: 'CSV of your orders: a header with at least reference,amount,currency (amount in minor units).', required: true}),
    from: dateFlag({description: 'First day of the period, YYYY-MM-DD (UTC). Default: --to, or the latest day with reports.'}),
    to: dateFlag({description: 'Last day of the period, YYYY-MM-DD (UTC). Default: the latest day with reports (or --from).'}),
    currency: currencyFlag({description: 'Only reports, orders and payouts in this currency.'}),
    bank: Flags.string({description: 'CSV of your bank credits: a header with at least date,amount,currency (amount in minor units).'}),
    out: Flags.string({char: 'o', description: 'Write every finding to this CSV file (columns: kind, reference, payment, report, payout, expected_amount, actual_amount, currency, detail).'}),
  }

  async run(): Promise<ReconcileResult> {
    return settlementReconcile(this.ctx, this.flags)
  }
}
