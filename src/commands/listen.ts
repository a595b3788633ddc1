import {Flags} from '@oclif/core'
import {eventsFilterFlag} from './events/shared/flags.js'
import {listen, type ListenResult} from './events/shared/listen.js'
import {GwCommand} from '../base/command.js'

export default class Listen extends GwCommand<typeof Listen> {
  static override summary = 'Forward events to a local server, signed like real webhooks.'
  static override description = `Streams events from the gateway and POSTs each event's exact JSON to --forward-to with a Service-Signature header made with this profile's listen secret (whsec_..., created once and kept in the profile; shown at start, or with --print-secret). Your server verifies it exactly as it would a real delivery.
Forwards run concurrently (--concurrency, default 32); failed ones are retried with backoff. While your server is down every event is held (each is listed), and they are all sent, oldest first, the moment it answers again. The last forwarded event is kept per profile, so after a disconnect, a sleep or a restart, listen backfills what it missed (marked "backfilled") and no event is lost. Ctrl-C stops it.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --forward-to localhost:3000/webhooks',
    {description: 'Only payment events, with an extra header', command: "<%= config.bin %> <%= command.id %> --forward-to localhost:3000/webhooks --events 'payment.*' --headers 'X-Env: dev'"},
    {description: 'A local HTTPS server with a self-signed certificate', command: '<%= config.bin %> <%= command.id %> --forward-to https://localhost:8443/hook --skip-verify'},
    {description: 'The secret for your server, without listening', command: 'export WHSEC=$(<%= config.bin %> <%= command.id %> --print-secret)'},
    {description: "Forward to each configured endpoint's path, signed with its own secret", command: '<%= config.bin %> <%= command.id %> --forward-to localhost:3000 --load-from-webhooks-api'},
    {description: 'Delivery results as NDJSON', command: '<%= config.bin %> <%= command.id %> --forward-to localhost:3000/webhooks --json | jq -c "{event, status_code, latency_ms}"'},
    {description: 'From a test harness: a secret it chose, every event in the log, a ready line to wait for', command: '<%= config.bin %> <%= command.id %> --forward-to localhost:3000/webhooks --secret whsec_test_harness --from-start --json'},
  ]

  static override flags = {
    'forward-to': Flags.string({char: 'f', description: 'Where to POST events: localhost:3000/path, http://... or https://... (no scheme: http for localhost).'}),
    events: eventsFilterFlag,
    headers: Flags.string({char: 'H', description: 'Extra request header "Key: Value"; repeat or separate with commas.', multiple: true}),
    'skip-verify': Flags.boolean({description: "Don't verify the certificate of an https:// --forward-to (a self-signed local server)."}),
    'print-secret': Flags.boolean({description: 'Print the listen signing secret and exit.'}),
    'from-now': Flags.boolean({description: 'Forget the saved position: skip events created while listen was not running.', exclusive: ['from-start']}),
    'from-start': Flags.boolean({description: 'Forward every event still in the log (30 days) first, then the new ones: a payment made just before listen started is not missed.', exclusive: ['from-now']}),
    secret: Flags.string({description: "Sign forwarded events with this secret (whsec_...) instead of the profile's listen secret: a harness that starts listen chooses it."}),
    'load-from-webhooks-api': Flags.boolean({
      description: "Forward to the paths of this profile's enabled webhook endpoints (at --forward-to's host), each with its own event types, signed with the secret gw kept when it created or rotated the endpoint.",
    }),
    concurrency: Flags.integer({description: 'Forwards in flight at once per target (default 32); ordering is not guaranteed anyway.', min: 1, max: 256}),
  }

  async run(): Promise<ListenResult> {
    return listen(this.ctx, this.flags)
  }
}
