import {Flags} from '@oclif/core'
import type {GwEvent, ListEnvelope} from '../../api/types.js'
import {createdFlags, createdParams, listFlags, pageParams, type PagingOptions, type CreatedOptions} from '../../base/flags.js'
import type {ListEventsParams} from '../../client/index.js'
import {typeFilter} from './shared/flags.js'
import {eventColumns} from './shared/format.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class EventsList extends GwCommand<typeof EventsList> {
  static override summary = 'List events, newest first (kept 30 days).'
  static override operations = ['listEvents'] as const
  static override description = "Filter by type (exact, or a prefix such as 'payment.*', several separated by commas) and by creation time. Page on with --starting-after, or fetch every page with --all."
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Payment events only', command: "<%= config.bin %> <%= command.id %> --events 'payment.*'"},
    {description: 'Failures of payments and refunds since a date, as NDJSON', command: "<%= config.bin %> <%= command.id %> --events payment.failed,refund.failed --created-gte 2025-01-01 --all --json"},
    {description: 'Events newer than one you have seen', command: '<%= config.bin %> <%= command.id %> --ending-before evt_123'},
    {description: "A payment's story: its events and its refunds' and disputes' (gw payments timeline adds webhook attempts)", command: '<%= config.bin %> <%= command.id %> --object pay_123'},
  ]

  static override flags = {
    events: Flags.string({char: 't', aliases: ['type'], description: "Only these event types: exact types or prefixes like 'payment.*'; comma-separated or repeated (--type is the old name).", multiple: true}),
    object: Flags.string({description: "Only one object's story: a payment's events and its refunds' and disputes', or a refund's, dispute's or other object's own."}),
    ...createdFlags,
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<GwEvent> | GwEvent[]> {
    return eventsList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw events list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface EventsListOptions extends PagingOptions, CreatedOptions {
  events?: string[]
  object?: string
}

export async function eventsList(ctx: Context, f: EventsListOptions): Promise<ListEnvelope<GwEvent> | GwEvent[]> {
  const params: ListEventsParams = {
    type: typeFilter(f.events),
    object: f.object?.trim() || undefined,
    ...createdParams(f),
    ...pageParams(f),
  }
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'events',
    columns: eventColumns,
    page: () => client.events.list(params),
    iterate: () => client.events.iterate({...params, limit: f.limit ?? 100}),
  })
}
