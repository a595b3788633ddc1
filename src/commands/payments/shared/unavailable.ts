// What a restricted key could not read beside a payment (issue 36 item 3): said, never left out
// silently — which part, and the permission that shows it.
import {ApiError} from '../../../client/errors.js'
import type {Context} from '../../../base/command.js'

export interface Unavailable {
  /** what was left out: `refunds`, `disputes`, `webhook attempts` */
  what: string
  /** the permission a key needs to see it */
  permission: string
}

/**
 * `read()`'s answer, or undefined when the key may not make it (403 permission_error): then
 * `unavailable` gains what it would have shown and the permission that shows it. Other errors
 * are errors.
 */
export async function readIfAllowed<T>(read: () => Promise<T>, what: string, permission: string, unavailable: Unavailable[]): Promise<T | undefined> {
  try {
    return await read()
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 403) throw e
    if (!unavailable.some((u) => u.what === what)) unavailable.push({what, permission})
    return undefined
  }
}

/** One line on stderr naming each part left out and its permission. */
export function noticeUnavailable(ctx: Context, unavailable: readonly Unavailable[]): void {
  if (unavailable.length === 0) return
  const parts = unavailable.map((u) => `${u.what} (needs ${u.permission})`).join(', ')
  ctx.notice(ctx.errColor.yellow(`Not shown, this key may not read them: ${parts}. A key with ${unavailable.map((u) => u.permission).join(' and ')} shows them.`))
}
