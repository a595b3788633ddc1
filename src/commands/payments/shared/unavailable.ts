// What could not be read beside a payment (docs/decisions.md#a-payments-whole-story): said, never left out silently —
// which part, and the permission that shows it (or the error that stopped it).
import {ApiError} from '../../../client/errors.js'
import type {Context} from '../../../base/command.js'

export interface Unavailable {
  /** what was left out: `refunds`, `disputes`, `webhook attempts` */
  what: string
  /** the permission a key needs to see it, when the key may not (403) */
  permission?: string
  /** why else it could not be read (a network error, a 5xx) */
  error?: string
}

/**
 * `read()`'s answer, or undefined when it could not be read: then `unavailable` gains what it
 * would have shown, with the permission that shows it when the key may not (403 permission_error)
 * or the error's message otherwise. The payment itself was read: a part beside it never fails it.
 */
export async function readIfAllowed<T>(read: () => Promise<T>, what: string, permission: string, unavailable: Unavailable[]): Promise<T | undefined> {
  try {
    return await read()
  } catch (e) {
    if (!unavailable.some((u) => u.what === what))
      unavailable.push(e instanceof ApiError && e.status === 403 ? {what, permission} : {what, error: e instanceof Error ? e.message : String(e)})
    return undefined
  }
}

/** A line on stderr for what a key may not read, naming the permissions that show it; one for each part an error stopped. */
export function noticeUnavailable(ctx: Context, unavailable: readonly Unavailable[]): void {
  const denied = unavailable.filter((u) => u.permission)
  if (denied.length > 0)
    ctx.notice(ctx.errColor.yellow(`Not shown, this key may not read them: ${denied.map((u) => `${u.what} (needs ${u.permission})`).join(', ')}. A key with ${denied.map((u) => u.permission).join(' and ')} shows them.`))
  for (const u of unavailable) if (u.error) ctx.notice(ctx.errColor.yellow(`Not shown: ${u.what} could not be read (${u.error}).`))
}
