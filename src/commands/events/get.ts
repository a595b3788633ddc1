import type {GwEvent} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {renderEvent} from '../../events/format.js'

export default class EventsGet extends GwCommand<typeof EventsGet> {
  static override summary = 'Show one event and the object it carries.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> evt_123',
    {description: 'The object the event carries, with jq', command: '<%= config.bin %> <%= command.id %> evt_123 --json | jq .data.object'},
  ]

  static override args = {id: idArg('evt_', 'event', 'List recent events with: gw events list')}

  async run(): Promise<GwEvent> {
    const event = await (await this.client()).events.get(this.args.id)
    this.print(renderEvent(event, this.color))
    return event
  }
}
