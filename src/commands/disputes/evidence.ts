import {Flags} from '@oclif/core'
import type {Dispute} from '../../api/types.js'
import {EVIDENCE_PARAMS, NotActionableError, attachedFacts, disputeHint, disputeNow, evidenceCoverage, evidenceFromFlags, explained, isEmptyEvidence, notActionableReason} from './shared/disputes.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import type {GwClient} from '../../client/index.js'
import type {EvidenceParams} from '../../client/params.js'
import {renderDispute, renderEvidencePreview} from './shared/display.js'
import {canOpenEvidenceForm, runEvidenceForm} from './shared/open-form.js'
import {withFlagNames} from '../../base/flag-errors.js'
import {nearMisses} from '../../api/dispute-evidence.js'
import {GwCommand, type Context} from '../../base/command.js'
import {AbortedError, UsageError} from '../../errors.js'

export default class DisputesEvidence extends GwCommand<typeof DisputesEvidence> {
  static override summary = 'Submit evidence for a dispute (one submission per stage).'
  static override operations = ['submitDisputeEvidence'] as const
  static override description = `On a terminal, without evidence flags, a form shows the dispute (reason, amount, stage, deadline) and a checklist of the recognized keys that suit its reason; enter fields as key and value, add HTTPS file URLs, check the preview, and confirm.
Without a terminal (scripts, pipes, --json), give the evidence with --field key=value (repeatable), --file URL (repeatable) and/or --from-file evidence.json ({"fields": {...}, "files": [...]}), plus --yes. On a terminal, flags show a preview and ask before sending unless --yes.
A dispute takes one submission per stage: afterwards it is under_review and nothing can be added. Recognized keys: product_description, customer_communication, tracking_number, shipping_address, refund_policy, service_date; any other key is forwarded as free text.`
  static override examples = [
    {description: 'Fill in the form on a terminal', command: '<%= config.bin %> <%= command.id %> dp_123'},
    {
      description: 'A product that was delivered, from a script',
      command: '<%= config.bin %> <%= command.id %> dp_123 --field tracking_number=1Z999AA10123456784 --field shipping_address="1 Main St, Springfield" --file https://shop.example/pod-1234.pdf --yes',
    },
    {description: 'Evidence kept in a JSON file', command: '<%= config.bin %> <%= command.id %> dp_123 --from-file evidence.json --yes'},
  ]

  static override args = {id: idArg('dp_', 'dispute')}
  static override flags = {
    field: Flags.string({description: 'Evidence field key=value; repeat for more keys.', multiple: true}),
    file: Flags.string({description: 'HTTPS URL of an evidence file (receipt, proof of delivery); repeatable.', multiple: true}),
    'from-file': Flags.string({description: 'JSON file {"fields": {...}, "files": [...]}; "-" reads stdin. --field and --file add to it.'}),
    'free-text': Flags.boolean({description: 'Send keys that look like a mistyped recognized key (custmer_communication) as they are, as free text, without asking.'}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Dispute> {
    return disputesEvidence(this.ctx, {...this.flags, ...this.args})
  }

}

/** What `gw disputes evidence` takes: its flags and arguments by name (run() passes them as parsed). */
export interface DisputesEvidenceOptions {
  yes?: boolean
  field?: string[]
  file?: string[]
  'from-file'?: string
  'free-text'?: boolean
  'idempotency-key'?: string
  id: string
}

export async function disputesEvidence(ctx: Context, f: DisputesEvidenceOptions): Promise<Dispute> {
  const id = f.id
  const given = Boolean(f.field?.length || f.file?.length || f['from-file'] !== undefined)
  const client = await ctx.client()
  let ev: EvidenceParams
  if (!given) {
    if (!ctx.interactive() || !canOpenEvidenceForm({json: ctx.json})) {
      throw new UsageError(
        'No evidence given, and no terminal for the form.',
        `Pass --field key=value, --file https://... and/or --from-file evidence.json, with --yes, e.g. gw disputes evidence ${id} --field tracking_number=1Z999 --yes`,
      )
    }
    const dp = await actionable(client, id)
    const [now, facts] = await Promise.all([disputeNow(ctx, client), attachedFacts(client, dp)])
    const form = await runEvidenceForm({dispute: dp, now, facts})
    if (!form) throw new AbortedError('Canceled; no evidence was submitted.', undefined, {quiet: true})
    ev = form
  } else {
    ev = await evidenceFromFlags({fields: f.field, files: f.file, fromFile: f['from-file'], readStdin: () => ctx.readStdin()})
    if (isEmptyEvidence(ev)) throw new UsageError('The evidence is empty: give at least one field or one file.', 'e.g. --field customer_communication="Emails of 3 May" --file https://shop.example/receipt.pdf')
    await checkNearMisses(ctx, ev, f)
    if (!f.yes) {
      if (!ctx.interactive()) {
        throw new AbortedError(
          'Refusing to submit evidence without confirmation: a dispute takes one submission per stage.',
          'Check the evidence, then re-run with --yes (nothing was sent).',
        )
      }
      const dp = await actionable(client, id)
      ctx.notice(renderEvidencePreview(dp, ev, ctx.errColor, await attachedFacts(client, dp)))
      const answer = await ctx.prompt('Submit this evidence? [y/N] ', {hidden: false})
      if (!/^y(es)?$/i.test(answer.trim())) throw new AbortedError('Not submitted.')
    }
  }
  // a 400 about a value typed as --field/--file names the flag (fields.x is --field x)
  const flagged = given && f['from-file'] === undefined
  const send = () => client.disputes.submitEvidence(id, ev, {idempotencyKey: f['idempotency-key']})
  const dp = await explained(client, id, () => (flagged ? withFlagNames(EVIDENCE_PARAMS, send) : send()))
  if (!ctx.json) {
    ctx.print(renderDispute(dp, new Date(), ctx.color))
    const cov = evidenceCoverage(dp.reason, ev.fields)
    const covered = cov.checklist.filter((c) => c.covered).map((c) => c.key)
    const summary = `Submitted at the ${dp.stage} stage. Covers ${covered.length ? covered.join(', ') : 'none of the checklist'}${cov.missing.length ? `; not covered: ${cov.missing.join(', ')}` : ''}.`
    ctx.notice(ctx.errColor.dim([summary, disputeHint(dp)].filter(Boolean).join(' ')))
  }
  return dp
}

/** The dispute, or a clear error when it cannot take evidence (before anything is typed or sent). */
async function actionable(client: GwClient, id: string): Promise<Dispute> {
  const dp = await client.disputes.get(id)
  const why = notActionableReason(dp)
  if (why) throw new NotActionableError(`${id} cannot take evidence now.`, why)
  return dp
}

/**
 * A key one typo away from a recognized one (custmer_communication) is almost surely a mistake,
 * and a stage takes one submission: say "did you mean" and have it confirmed before anything is
 * sent (docs/decisions.md#disputes-and-evidence). On a terminal gw asks; without one (or with --yes) it refuses unless
 * --free-text says the keys are meant as they are.
 */
async function checkNearMisses(ctx: Context, ev: EvidenceParams, f: {yes?: boolean; 'free-text'?: boolean; 'from-file'?: string}): Promise<void> {
  const misses = nearMisses(Object.keys(ev.fields))
  if (misses.length === 0 || f['free-text']) return
  const where = (k: string) => (f['from-file'] !== undefined ? `"${k}" (in --from-file)` : `--field ${k}`)
  const said = misses.map(([typed, meant]) => `${where(typed)}: did you mean ${meant}?`)
  if (!ctx.interactive() || f.yes || ctx.yes)
    throw new UsageError(
      said.join('\n'),
      `Any key is accepted, but ${misses.length === 1 ? 'this one is' : 'these are'} one typo from a recognized key, and a stage takes one submission. Fix the key, or pass --free-text to send it as it is (nothing was sent).`,
    )
  for (const line of said) ctx.notice(ctx.errColor.yellow(`! ${line}`))
  const answer = await ctx.prompt(`Send ${misses.map(([k]) => k).join(', ')} as free text anyway? [y/N] `, {hidden: false})
  if (!/^y(es)?$/i.test(answer.trim())) throw new AbortedError(`Not submitted: fix the key (${misses.map(([k, m]) => `${k} → ${m}`).join(', ')}) and run it again.`)
}
