import {readFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {explainSignature, type VerifyReport} from './shared/explain.js'
import {GwCommand, type Context} from '../../base/command.js'
import {ExitCode, UsageError} from '../../errors.js'

export default class WebhooksVerify extends GwCommand<typeof WebhooksVerify> {
  static override summary = 'Check a webhook signature offline, and explain why it fails.'
  static override description = `Recomputes the Service-Signature over the payload file's exact bytes, like a receiver must. On failure it says why: a malformed header, a wrong secret, a body that was re-serialised or pretty-printed (the compact form matches), a trailing newline, or a timestamp outside the tolerance (and how far). Exits 0 when valid, 1 otherwise. Needs no API key.`

  static override examples = [
    {description: 'A saved delivery', command: "<%= config.bin %> <%= command.id %> --secret whsec_... --header 't=1700000000,v1=5257a8...' --payload-file body.json"},
    {description: 'A delivery from hours ago: skip the time check', command: "<%= config.bin %> <%= command.id %> --secret \"$WHSEC\" --header \"$SIG\" --payload-file body.json --tolerance 0"},
    {description: 'Body from stdin', command: "cat body.json | <%= config.bin %> <%= command.id %> --secret \"$WHSEC\" --header \"$SIG\" --payload-file -"},
  ]

  static override flags = {
    secret: Flags.string({description: "The endpoint's signing secret (whsec_...).", env: 'GW_WEBHOOK_SECRET', required: true}),
    header: Flags.string({description: 'The Service-Signature header value: t=...,v1=...', required: true}),
    'payload-file': Flags.string({description: 'File with the raw request body ("-" reads stdin).', required: true}),
    tolerance: Flags.integer({description: 'Seconds the timestamp may be from now, either way (0 skips the check).', default: 300, min: 0}),
    now: Flags.integer({description: 'Check as if it were this unix time (seconds), e.g. when the delivery was received.'}),
  }

  async run(): Promise<VerifyReport> {
    return webhooksVerify(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks verify` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksVerifyOptions {
  secret: string
  header: string
  'payload-file': string
  tolerance: number
  now?: number
}

export async function webhooksVerify(ctx: Context, f: WebhooksVerifyOptions): Promise<VerifyReport> {
  let payload: Buffer
  if (f['payload-file'] === '-') payload = Buffer.from(await ctx.readStdin(), 'utf8')
  else {
    try {
      payload = readFileSync(f['payload-file'])
    } catch (e) {
      throw new UsageError(`Cannot read --payload-file ${f['payload-file']}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`)
    }
  }
  const header = f.header.replace(/^\s*service-signature\s*:\s*/i, '')
  ctx.rememberSecret(f.secret)
  const report = explainSignature({payload, header, secret: f.secret, tolerance: f.tolerance, now: f.now === undefined ? undefined : f.now * 1000})
  const c = ctx.color
  if (report.valid) ctx.print(`${c.green('✓')} ${report.message}`)
  else {
    ctx.print(`${c.red('✗')} ${c.bold(report.verdict.replaceAll('_', ' '))}: ${report.message}`)
    for (const h of report.hints) ctx.print(`  ${c.dim('•')} ${h}`)
  }
  // the report is the result (--json prints it); the exit code says it failed
  if (!report.valid) ctx.exitCode = ExitCode.ERROR
  return report
}
