import {Flags} from '@oclif/core'
import {eventsFilterFlag} from './shared/flags.js'
import {eventsTail} from './shared/tail.js'
import {GwCommand} from '../../base/command.js'

export default class EventsTail extends GwCommand<typeof EventsTail> {
  static override summary = 'Stream events live as they happen.'
  static override operations = ['streamEvents'] as const
  static override description = `On a terminal: a live view (time, type, object id, status, amount); ↑↓ move, Enter shows the event's JSON, space pauses, q quits. In a pipe or with --json: one event per line (NDJSON).
After a dropped connection it reconnects with backoff, resumes from the last event seen and backfills the gap through GET /events (such events are marked: ↺ on screen, "backfilled": true in NDJSON). It says on stderr when it is disconnected and when it is back; it never stops on its own.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Payment events only', command: "<%= config.bin %> <%= command.id %> --events 'payment.*'"},
    {description: 'Start with the last 10 minutes instead of an empty screen', command: '<%= config.bin %> <%= command.id %> --since 10m'},
    {description: 'The last 50 payment events, then live', command: "<%= config.bin %> <%= command.id %> --last 50 --events 'payment.*'"},
    {description: 'Into jq', command: "<%= config.bin %> <%= command.id %> --events payment.failed,refund.failed | jq -c '{id, type, object: .data.object.id}'"},
  ]

  static override flags = {
    events: eventsFilterFlag,
    since: Flags.string({description: 'Start with the events of this last stretch of time on the gateway clock, e.g. 10m, 2h, 1d.', exclusive: ['last']}),
    last: Flags.integer({description: 'Start with the last N events (1 to 1000), then go live.', min: 1, max: 1000, exclusive: ['since']}),
  }

  async run(): Promise<void> {
    return eventsTail(this.ctx, this.flags)
  }
}
