import {Args, Flags} from '@oclif/core'
import {trigger, type FixtureRow, type TriggerResult} from './events/shared/trigger.js'
import {GwCommand} from '../base/command.js'

export default class Trigger extends GwCommand<typeof Trigger> {
  static override summary = 'Test mode: make the gateway emit an event by running the real API flow behind it.'
  static override description = `Each event type has a fixture: a file of API calls, test helpers and clock advances that cause it (gw trigger --list shows them). It prints what it created and the events that fired, which reach webhook endpoints and \`gw listen\` like any other.
--fixture FILE runs your own fixture file, Stripe-style: {"fixtures": [{"name": "payment", "path": "/v1/payments", "method": "post", "params": {...}}, {"name": "refund", "path": "/v1/refunds", "method": "post", "params": {"payment": "\${payment:id}"}}]}. A later call uses an earlier response with \${name:path}; \${reference}, \${exp_year} and \${today} are filled in. The built-in fixtures are such files (fixtures/ in the package).
--override key=value sets a field of the main call (the step marked "main", else the first POST); --override name:key=value sets a field of the step with that name (nested keys with dots or brackets; key:=JSON for raw JSON). Some fixtures advance the engine clock (refunds 30 minutes, settlement 2 days, merchant KYB 61 s).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> payment.succeeded',
    {description: 'A bigger payment in another currency', command: '<%= config.bin %> <%= command.id %> payment.succeeded --override amount=5000 --override currency=USD'},
    {description: 'A failed refund (advances the clock 30 minutes)', command: '<%= config.bin %> <%= command.id %> refund.failed'},
    {description: 'Your own flow from a fixture file, with an override for its "refund" step', command: '<%= config.bin %> <%= command.id %> --fixture checkout-and-refund.json --override refund:amount=500'},
    {description: 'Every fixture', command: '<%= config.bin %> <%= command.id %> --list'},
  ]

  static override args = {
    event: Args.string({description: 'Event type to trigger, e.g. payment.succeeded (see --list).'}),
  }

  static override flags = {
    list: Flags.boolean({description: 'List the event types that can be triggered and what each does.'}),
    fixture: Flags.string({description: 'Run this fixture file (JSON: a list of API calls; see the description).', exclusive: ['list']}),
    override: Flags.string({description: 'key=value for the main call (amount=5000, currency=USD, metadata.order=42), or step:key=value for a named step.', multiple: true}),
  }

  async run(): Promise<TriggerResult | FixtureRow[]> {
    return trigger(this.ctx, this.flags, this.args.event)
  }
}
