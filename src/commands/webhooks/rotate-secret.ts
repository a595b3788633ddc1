import type {WebhookEndpoint} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderSecretNotice} from '../../events/format.js'

export default class WebhooksRotateSecret extends GwCommand<typeof WebhooksRotateSecret> {
  static override summary = "Replace an endpoint's signing secret; prints the new one once."
  static override description = 'Deliveries from now on are signed with the new secret only. To switch without dropping any, let your receiver accept both secrets for a while (verifySignature takes a list).'
  static override examples = ['<%= config.bin %> <%= command.id %> wh_123', '<%= config.bin %> <%= command.id %> wh_123 --json | jq -r .secret']
  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}
  static override flags = {'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<WebhookEndpoint> {
    const ep = await (await this.client()).webhookEndpoints.rotateSecret(this.args.id, {idempotencyKey: this.flags['idempotency-key']})
    this.rememberSecret(ep.secret)
    if (ep.secret) this.print(`${ep.id}: new secret.\n${renderSecretNotice(ep.secret, this.color)}`)
    return ep
  }
}
