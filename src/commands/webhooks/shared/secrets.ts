// Webhook endpoint secrets are shown once by the API (docs/api.md#webhooks). The CLI keeps the one it is
// shown (create, rotate-secret) in the profile's credential storage, beside the API key, so
// `gw listen --load-from-webhooks-api` can sign each endpoint's forwards with it.
import type {WebhookEndpointWithSecret} from '../../../api/types.js'
import type {Context} from '../../../base/context.js'

export async function keepEndpointSecret(ctx: Context, ep: WebhookEndpointWithSecret): Promise<void> {
  if (!ep.secret) return
  const profile = ctx.settings().profile.value
  try {
    await ctx.credentials.saveSecret(profile, ep.id, ep.secret)
    ctx.notice(ctx.errColor.dim(`Kept the secret of ${ep.id} in profile "${profile}"'s credential storage (for gw listen --load-from-webhooks-api); it is not shown again.`))
  } catch (error) {
    ctx.notice(ctx.errColor.yellow(`! Could not keep the secret of ${ep.id} (${(error as Error).message}); gw listen will sign its forwards with the listen secret.`))
  }
}

export async function endpointSecret(ctx: Context, id: string): Promise<string | null> {
  return ctx.credentials.loadSecret(ctx.settings().profile.value, id).catch(() => null)
}
