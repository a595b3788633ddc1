import {Flags} from '@oclif/core'
import type {ChaosRule, ChaosWebhookFaultCreate} from '../../api/types.js'
import {parseDuration} from '../../base/parse.js'
import {GwCommand, UsageError, type Context} from '../../base/command.js'
import {announce, ending, parseRate} from './shared/rules.js'

export default class ChaosWebhooks extends GwCommand<typeof ChaosWebhooks> {
  static override summary = 'Rehearse unruly webhooks: events delivered twice, out of order, late, or after failed attempts (test keys).'
  static override operations = ['createChaosWebhookFault'] as const
  static override description = `Shapes the deliveries created while it is on, for every endpoint of this account or one (--endpoint). Webhook deliveries are not guaranteed in order and may be duplicated: this makes that happen. Every delivery is still signed when sent and recorded in the delivery log (gw webhooks deliveries), marked with the rule.
--fail-first N fails the first N attempts of each delivery on purpose (nothing is sent) and the retry schedule takes over (1 min, 5 min, 30 min, ...: advance the test clock to see them).
Every fault ends: after --count deliveries, or --for (engine clock; 10m when neither is given). One fault per command; see them with gw chaos status, end them with gw chaos clear.`
  static override examples = [
    {description: 'Half the events delivered twice', command: '<%= config.bin %> <%= command.id %> --duplicate-rate 0.5'},
    {description: 'Deliveries held up to 30 s at random, so they arrive out of order', command: '<%= config.bin %> <%= command.id %> --shuffle --window 30s'},
    {description: 'Every delivery 30 s late', command: '<%= config.bin %> <%= command.id %> --delay 30s'},
    {description: 'The first 3 attempts of each delivery to one endpoint fail', command: '<%= config.bin %> <%= command.id %> --fail-first 3 --endpoint wh_123'},
  ]

  static override flags = {
    'duplicate-rate': Flags.string({description: 'The share of events delivered twice, 0 to 1.', exclusive: ['shuffle', 'delay', 'fail-first']}),
    shuffle: Flags.boolean({description: 'Hold each delivery a random time within --window, so they arrive out of order.', exclusive: ['duplicate-rate', 'delay', 'fail-first']}),
    window: Flags.string({description: 'With --shuffle: the longest hold, e.g. 30s (default 10s).'}),
    delay: Flags.string({description: 'Hold every delivery this long (engine clock): 30s, 5m.', exclusive: ['duplicate-rate', 'shuffle', 'fail-first']}),
    'fail-first': Flags.integer({description: 'Fail the first N attempts of each delivery (1 to 10).', min: 1, max: 10, exclusive: ['duplicate-rate', 'shuffle', 'delay']}),
    endpoint: Flags.string({description: 'Only this endpoint\'s deliveries (wh_...); default every endpoint.'}),
    count: Flags.integer({description: 'How many deliveries to shape, then it ends.', min: 1}),
    for: Flags.string({description: 'How long it lasts on the engine clock: 90s, 10m, 2h (default 10m without --count).'}),
    seed: Flags.integer({description: 'The same deliveries and holds every run.'}),
  }

  async run(): Promise<ChaosRule> {
    return chaosWebhooks(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw chaos webhooks` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ChaosWebhooksOptions {
  'duplicate-rate'?: string
  shuffle?: boolean
  window?: string
  delay?: string
  'fail-first'?: number
  endpoint?: string
  count?: number
  for?: string
  seed?: number
}

export async function chaosWebhooks(ctx: Context, o: ChaosWebhooksOptions): Promise<ChaosRule> {
  if (o.window !== undefined && !o.shuffle) throw new UsageError('--window goes with --shuffle.')
  if (o.endpoint !== undefined && !o.endpoint.startsWith('wh_')) throw new UsageError(`"${o.endpoint}" is not a webhook endpoint id; they start with wh_.`, 'List them with: gw webhooks list')
  let body: ChaosWebhookFaultCreate
  if (o['duplicate-rate'] !== undefined) body = {fault: 'duplicate', rate: parseRate(o['duplicate-rate'], '--duplicate-rate')}
  else if (o.shuffle) body = {fault: 'shuffle', ...(o.window !== undefined ? {delay_seconds: parseDuration(o.window, '--window')} : {})}
  else if (o.delay !== undefined) body = {fault: 'delay', delay_seconds: parseDuration(o.delay, '--delay')}
  else if (o['fail-first'] !== undefined) body = {fault: 'fail_first', attempts: o['fail-first']}
  else throw new UsageError('Say what happens to deliveries: --duplicate-rate R, --shuffle, --delay 30s or --fail-first N.', 'e.g. gw chaos webhooks --duplicate-rate 0.5')
  if (o.endpoint !== undefined) body.endpoint = o.endpoint
  return announce(ctx, await (await ctx.client()).chaos.addWebhookFault({...body, ...ending(o)}))
}
