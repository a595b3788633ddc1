import {Flags} from '@oclif/core'
import type {WebhookEndpoint} from '../../api/types.js'
import {parseDuration} from '../../base/parse.js'
import {UsageError} from '../../errors.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderSecretNotice} from './shared/display.js'
import {keepEndpointSecret} from './shared/secrets.js'
import {replayedWithoutSecret} from '../keys/shared/shown-once.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class WebhooksRotateSecret extends GwCommand<typeof WebhooksRotateSecret> {
  static override summary = "Replace an endpoint's signing secret; prints the new one once."
  static override operations = ['rotateWebhookEndpointSecret'] as const
  static override description =
    'The new secret signs every delivery from now on, and the previous one no longer does (one v1 in the Service-Signature header). With --expires-in the previous secret keeps signing alongside the new one for that long (two v1 values; receivers that check every v1 accept either), so a receiver you have deployed keeps verifying until you redeploy it with the new secret. A receiver that reads the header into a map keeps only the last v1 (the previous secret): rotate without an overlap for it.'
  static override examples = [
    {description: 'Rotate: the new secret signs from now on', command: '<%= config.bin %> <%= command.id %> wh_123'},
    {description: 'The old secret keeps signing for a day (time to redeploy the receiver)', command: '<%= config.bin %> <%= command.id %> wh_123 --expires-in 24h'},
    {description: 'A week to redeploy the receiver', command: '<%= config.bin %> <%= command.id %> wh_123 --expires-in 7d'},
    '<%= config.bin %> <%= command.id %> wh_123 --json | jq -r .secret',
  ]
  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}
  static override flags = {
    'expires-in': Flags.string({description: 'How long the previous secret keeps signing alongside the new one (engine clock): 30m, 24h, 7d at most. [default: 0, the new secret alone from now on]', env: 'GW_EXPIRES_IN'}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<WebhookEndpoint> {
    return webhooksRotateSecret(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks rotate-secret` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksRotateSecretOptions {
  'expires-in'?: string
  'idempotency-key'?: string
  id: string
}

export async function webhooksRotateSecret(ctx: Context, o: WebhooksRotateSecretOptions): Promise<WebhookEndpoint> {
  let expiresIn: number | undefined
  if (o['expires-in'] !== undefined) {
    expiresIn = o['expires-in'].trim() === '0' ? 0 : parseDuration(o['expires-in'], '--expires-in')
    if (expiresIn > 7 * 86_400) throw new UsageError(`--expires-in is at most 7d, got "${o['expires-in']}".`, 'e.g. --expires-in 24h')
  }
  const ep = await (await ctx.client()).webhookEndpoints.rotateSecret(o.id, {idempotencyKey: o['idempotency-key'], expiresIn})
  if (replayedWithoutSecret(ctx, ep.secret, `The new secret of ${ep.id}`, `Rotate it again for a working one: gw webhooks rotate-secret ${ep.id}`)) return ep
  ctx.rememberSecret(ep.secret)
  await keepEndpointSecret(ctx, ep)
  if (ep.secret) {
    const until = ep.previous_secret_expires_at
    ctx.print(
      `${ep.id}: new secret.${until ? ` Until ${until} (engine clock) deliveries are signed with the previous secret too: redeploy your receiver with the new one before then.` : ' The previous secret no longer signs.'}\n${renderSecretNotice(ep.secret, ctx.color)}`,
    )
  }
  return ep
}
