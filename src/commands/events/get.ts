import type {GwEvent} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderEvent} from './shared/format.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class EventsGet extends GwCommand<typeof EventsGet> {
  static override summary = 'Show one event and the object it carries.'
  static override operations = ['retrieveEvent'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %> evt_123',
    {description: 'The object the event carries, with jq', command: '<%= config.bin %> <%= command.id %> evt_123 --json | jq .data.object'},
  ]

  static override args = {id: idArg('evt_', 'event', 'List recent events with: gw events list')}

  async run(): Promise<GwEvent> {
    return eventsGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw events get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface EventsGetOptions {
  id: string
}

export async function eventsGet(ctx: Context, o: EventsGetOptions): Promise<GwEvent> {
  const event = await (await ctx.client()).events.get(o.id)
  ctx.print(renderEvent(event, ctx.color))
  return event
}
