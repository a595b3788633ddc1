import {Flags} from '@oclif/core'
import type {Dispute, DisputeStatus, ListEnvelope} from '../../api/types.js'
import {DISPUTE_REASONS, DISPUTE_STAGES, DISPUTE_STATUSES, byDeadline, disputeNow} from './shared/disputes.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import type {ListDisputesParams} from '../../client/params.js'
import {disputeColumns} from './shared/display.js'
import {startProgress} from '../../ui/progress.js'
import {GwCommand, UsageError, type Context} from '../../base/command.js'

export default class DisputesList extends GwCommand<typeof DisputesList> {
  static override summary = 'List disputes, soonest deadline first, with the time left to respond.'
  static override operations = ['listDisputes'] as const
  static override description = `Fetches one page (20 by default; --all for every page) and shows it sorted by evidence deadline, with the time left ("2d 4h left", "overdue 3h"), or "none" once a dispute is under review or resolved. Deadlines follow the engine's clock in test mode (a notice says when it is ahead of the wall clock). A lost dispute says what lost it: "lost (deadline missed)" or "lost (ruling)".
--status needs_response (in a table) and --sort due sort every matching dispute by deadline, not just one page (it reads every page; --limit then keeps the first N). --reason, --stage and --currency read every page too.
--json prints the API's list envelope as it came (newest first), so cursors keep working; with --sort, --reason, --stage or --currency it prints the matching disputes as a JSON array in the order shown.`
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Disputes waiting for a response', command: '<%= config.bin %> <%= command.id %> --status needs_response'},
    {description: 'The dispute of one payment', command: '<%= config.bin %> <%= command.id %> --payment pay_123'},
    {description: "The lead's queue: every open fraud dispute in euros, soonest deadline first", command: '<%= config.bin %> <%= command.id %> --status needs_response --reason fraudulent --currency EUR --sort due'},
    {description: 'Every dispute as NDJSON', command: '<%= config.bin %> <%= command.id %> --all --json'},
  ]

  static override flags = {
    status: Flags.string({description: 'Only disputes in this status.', options: [...DISPUTE_STATUSES]}),
    payment: Flags.string({description: 'Only disputes of this payment (pay_...).'}),
    reason: Flags.string({description: 'Only disputes with this reason.', options: [...DISPUTE_REASONS]}),
    stage: Flags.string({description: 'Only disputes at this stage.', options: [...DISPUTE_STAGES]}),
    currency: Flags.string({description: 'Only disputes in this currency (ISO 4217, e.g. EUR).', parse: async (v) => v.toUpperCase()}),
    sort: Flags.string({description: 'due: every matching dispute by deadline (soonest first, then the ones without); created: newest first.', options: ['due', 'created']}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<Dispute> | Dispute[]> {
    return disputesList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw disputes list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface DisputesListOptions extends PagingOptions {
  status?: string
  payment?: string
  reason?: string
  stage?: string
  currency?: string
  sort?: string
}

export async function disputesList(ctx: Context, f: DisputesListOptions): Promise<ListEnvelope<Dispute> | Dispute[]> {
  const params: ListDisputesParams = {
    status: f.status as DisputeStatus | undefined,
    payment: f.payment,
    ...pageParams(f),
  }
  const client = await ctx.client()
  // waiting for a response, the soonest deadlines are what an agent needs: every page, by deadline
  const byDue = f.status === 'needs_response' && !ctx.json && !f.all && !f['starting-after'] && !f['ending-before']
  if (f.sort || f.reason || f.stage || f.currency || byDue) return wholeList(ctx, f, params)
  if (ctx.json) {
    // the API's order and envelope, so cursors and NDJSON streaming work as for every list
    return ctx.list({
      all: f.all,
      noun: 'disputes',
      columns: disputeColumns(new Date()),
      page: () => client.disputes.list(params),
      iterate: () => client.disputes.iterate({...params, limit: f.limit ?? 100}),
    })
  }
  let items: Dispute[]
  let result: ListEnvelope<Dispute> | Dispute[]
  if (f.all) {
    items = []
    const progress = await startProgress('Fetching disputes…', {json: false})
    try {
      for await (const d of client.disputes.iterate({...params, limit: f.limit ?? 100})) items.push(d)
    } finally {
      progress.stop()
    }
    result = items
  } else {
    const env = await client.disputes.list(params)
    items = env.data
    result = env
  }
  if (items.length === 0) {
    ctx.print('No disputes.')
    return result
  }
  const now = await disputeNow(ctx, client)
  ctx.print(await ctx.table([...items].sort(byDeadline), disputeColumns(now)))
  // below the table, as payments list says it
  if (!Array.isArray(result) && result.has_more && items.length) ctx.notice(ctx.errColor.dim(`More disputes: add --starting-after ${result.data[result.data.length - 1]!.id}, or --all for every page.`))
  return result
}

/**
 * Every dispute that matches, read across all pages (the API filters status and payment; reason,
 * stage and currency are matched here), sorted as asked, then cut to --limit.
 */
async function wholeList(ctx: Context, o: DisputesListOptions, params: ListDisputesParams): Promise<Dispute[]> {
  if (o['starting-after'] || o['ending-before']) throw new UsageError('--sort, --reason, --stage and --currency read every page: leave out --starting-after and --ending-before.')
  const client = await ctx.client()
  const items: Dispute[] = []
  const progress = await startProgress('Fetching disputes…', {json: ctx.json})
  try {
    for await (const d of client.disputes.iterate({status: params.status, payment: params.payment, limit: 100}))
      if ((!o.reason || d.reason === o.reason) && (!o.stage || d.stage === o.stage) && (!o.currency || d.currency === o.currency)) items.push(d)
  } finally {
    progress.stop()
  }
  // the API's order is newest first; due puts the soonest deadline first
  const sorted = o.sort === 'created' ? items : [...items].sort(byDeadline)
  const shown = o.limit !== undefined ? sorted.slice(0, o.limit) : sorted
  if (ctx.json) return shown
  if (shown.length === 0) {
    ctx.print('No disputes.')
    return shown
  }
  const now = await disputeNow(ctx, client)
  ctx.print(await ctx.table(shown, disputeColumns(now)))
  if (shown.length < sorted.length) ctx.notice(ctx.errColor.dim(`${shown.length} of ${sorted.length} matching disputes shown (--limit ${o.limit}).`))
  return shown
}
