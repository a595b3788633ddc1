// Secrets are shown once (docs/decisions.md#secrets-at-rest): an answer replayed from its Idempotency-Key (a retry after
// a lost answer, or the same --idempotency-key given again) carries a new key's or signing
// secret's redacted form only, since the engine keeps none. The commands that make secrets say
// so, and how to get a working one.
import {isRedactedSecret} from '../../../api/keys.js'
import type {Context} from '../../../base/context.js'

/** Whether the answer's secret is only its redacted form; if so, says what was made and how to get a working secret (stderr). */
export function replayedWithoutSecret(ctx: Context, secret: string | null | undefined, made: string, fix: string): boolean {
  if (!isRedactedSecret(secret)) return false
  ctx.notice(ctx.errColor.yellow(`! ${made} was made by an earlier request with this Idempotency-Key, and its secret was shown only once (the gateway keeps no copy, so this replay shows ${secret}). ${fix}`))
  return true
}
