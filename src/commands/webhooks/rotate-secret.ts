import type {WebhookEndpoint} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderSecretNotice} from '../../events/format.js'
import {keepEndpointSecret} from '../../base/webhook-secrets.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class WebhooksRotateSecret extends GwCommand<typeof WebhooksRotateSecret> {
  static override summary = "Replace an endpoint's signing secret; prints the new one once."
  static override description = 'Deliveries from now on are signed with the new secret only. To switch without dropping any, let your receiver accept both secrets for a while (verifySignature takes a list).'
  static override examples = ['<%= config.bin %> <%= command.id %> wh_123', '<%= config.bin %> <%= command.id %> wh_123 --json | jq -r .secret']
  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}
  static override flags = {'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<WebhookEndpoint> {
    return webhooksRotateSecret(this.ctx, this.flags, this.args)
  }
}

export async function webhooksRotateSecret(ctx: Context, flags: GwFlags<typeof WebhooksRotateSecret>, args: GwArgs<typeof WebhooksRotateSecret>): Promise<WebhookEndpoint> {
  const ep = await (await ctx.client()).webhookEndpoints.rotateSecret(args.id, {idempotencyKey: flags['idempotency-key']})
  ctx.rememberSecret(ep.secret)
  await keepEndpointSecret(ctx, ep)
  if (ep.secret) ctx.print(`${ep.id}: new secret.\n${renderSecretNotice(ep.secret, ctx.color)}`)
  return ep
}
