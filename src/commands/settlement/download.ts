import {writeFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {idArg} from '../../base/flags.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class SettlementDownload extends GwCommand<typeof SettlementDownload> {
  static override summary = 'Download a settlement report as CSV (one row per line, each with the payment reference).'
  static override description = 'Writes the CSV to --output, or to stdout without it. Amounts are minor units of the row currency.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> stl_123 --output stl_123.csv',
    {description: 'To stdout, e.g. into another tool', command: '<%= config.bin %> <%= command.id %> stl_123 | column -s, -t'},
  ]

  static override enableJsonFlag = false
  static override args = {id: idArg('stl_', 'settlement report', 'List reports with: gw settlement list')}
  static override flags = {
    output: Flags.string({char: 'o', description: 'File to write the CSV to (default: stdout).'}),
  }

  async run(): Promise<{id: string; output: string | null; bytes: number}> {
    return settlementDownload(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw settlement download` takes: its flags and arguments by name (run() passes them as parsed). */
export interface SettlementDownloadOptions {
  output?: string
  id: string
}

export async function settlementDownload(ctx: Context, o: SettlementDownloadOptions): Promise<{id: string; output: string | null; bytes: number}> {
  const csv = await (await ctx.client()).settlementReports.csv(o.id)
  const out = o.output
  if (!out) {
    ctx.io.stdout.write(csv)
    return {id: o.id, output: null, bytes: Buffer.byteLength(csv)}
  }
  try {
    writeFileSync(out, csv)
  } catch (error) {
    throw new UsageError(`Cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`)
  }
  const rows = Math.max(0, csv.trimEnd().split('\n').length - 1)
  ctx.notice(`Wrote ${out} (${rows} row${rows === 1 ? '' : 's'}).`)
  return {id: o.id, output: out, bytes: Buffer.byteLength(csv)}
}
