import {Flags} from '@oclif/core'
import type {WebhookEndpoint} from '../../api/types.js'
import {idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {parseMetadata} from '../../base/parse.js'
import {renderEndpoint, renderSecretNotice} from './shared/display.js'
import {enabledEvents, urlFlag, WEBHOOK_PARAMS} from './shared/flags.js'
import {keepEndpointSecret} from './shared/secrets.js'
import {replayedWithoutSecret} from '../keys/shared/shown-once.js'
import {withFlagNames} from '../../base/flag-errors.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class WebhooksCreate extends GwCommand<typeof WebhooksCreate> {
  static override summary = 'Create a webhook endpoint; prints its signing secret once.'
  static override operations = ['createWebhookEndpoint'] as const
  static override description = `The endpoint receives every event type in --events (default: all, *). Each delivery is signed with the endpoint's whsec_ secret in the Service-Signature header; verify it with the package's verifySignature() or \`gw webhooks verify\`.
In test mode the engine delivers to loopback HTTPS URLs (https://localhost:...) without checking their certificate, so a self-signed local receiver works.`

  static override examples = [
    {description: 'Every event', command: '<%= config.bin %> <%= command.id %> --url https://shop.example/webhooks'},
    {description: 'Payments and refund failures only', command: "<%= config.bin %> <%= command.id %> --url https://shop.example/webhooks --events 'payment.*' --events refund.failed"},
    {description: 'A local HTTPS receiver, secret into a file', command: '<%= config.bin %> <%= command.id %> --url https://localhost:4443/hook --json | jq -r .secret > .whsec'},
  ]

  static override flags = {
    url: urlFlag({required: true}),
    events: Flags.string({description: "Event types to deliver: *, types, or prefixes like 'payment.*'; comma-separated or repeated (default *).", multiple: true}),
    description: Flags.string({description: 'What the endpoint is for.'}),
    metadata: metadataFlag,
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<WebhookEndpoint> {
    return webhooksCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksCreateOptions {
  url: string
  events?: string[]
  description?: string
  metadata?: string[]
  'idempotency-key'?: string
}

export async function webhooksCreate(ctx: Context, f: WebhooksCreateOptions): Promise<WebhookEndpoint> {
  const metadata = parseMetadata(f.metadata)
  const client = await ctx.client()
  const ep = await withFlagNames(WEBHOOK_PARAMS, () =>
    client.webhookEndpoints.create(
      {url: f.url, enabled_events: enabledEvents(f.events) ?? ['*'], ...(f.description ? {description: f.description} : {}), ...(metadata ? {metadata} : {})},
      {idempotencyKey: f['idempotency-key']},
    ),
  )
  if (replayedWithoutSecret(ctx, ep.secret, `The endpoint ${ep.id}`, `Rotate its secret for a working one: gw webhooks rotate-secret ${ep.id} --expires-in 0`)) {
    if (!ctx.json) ctx.print(renderEndpoint(ep, ctx.color))
    return ep
  }
  ctx.rememberSecret(ep.secret)
  await keepEndpointSecret(ctx, ep)
  if (!ctx.json) {
    ctx.print(renderEndpoint(ep, ctx.color))
    ctx.print('')
    if (ep.secret) ctx.print(renderSecretNotice(ep.secret, ctx.color))
  }
  return ep
}
