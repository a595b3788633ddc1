import {Flags} from '@oclif/core'
import type {ListEnvelope, WebhookEndpoint} from '../../api/types.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import {endpointColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class WebhooksList extends GwCommand<typeof WebhooksList> {
  static override summary = 'List webhook endpoints, newest first.'
  static override operations = ['listWebhookEndpoints'] as const
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --disabled', '<%= config.bin %> <%= command.id %> --all --json']
  static override flags = {
    disabled: Flags.boolean({description: 'Only disabled endpoints (--no-disabled: only enabled ones).', allowNo: true}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<WebhookEndpoint> | WebhookEndpoint[]> {
    return webhooksList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksListOptions extends PagingOptions {
  disabled?: boolean
}

export async function webhooksList(ctx: Context, f: WebhooksListOptions): Promise<ListEnvelope<WebhookEndpoint> | WebhookEndpoint[]> {
  const params = {disabled: f.disabled, ...pageParams(f)}
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'webhook endpoints',
    columns: endpointColumns,
    page: () => client.webhookEndpoints.list(params),
    iterate: () => client.webhookEndpoints.iterate({...params, limit: f.limit ?? 100}),
  })
}
