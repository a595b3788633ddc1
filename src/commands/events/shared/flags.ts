// `--events` / `--type`: event types to include, as the API's `type` filter takes them.
import {Flags} from '@oclif/core'
import {UsageError} from '../../../errors.js'

import {EVENT_TYPES} from '../../../api/event-types.js'
import {closest} from '../../../suggest.js'

export {EVENT_TYPES}

/**
 * Checks one pattern against the known event types, as the engine checks an endpoint's
 * enabled_events: an exact known type, or a prefix ending in `.*` that covers one. A typo
 * would otherwise match nothing and show nothing, forever.
 */
export function checkEventType(t: string, flag: string): void {
  if (t === '*') return
  if (t.endsWith('.*')) {
    const prefix = t.slice(0, -1)
    if (EVENT_TYPES.some((e) => e.startsWith(prefix))) return
    const families = [...new Set(EVENT_TYPES.map((e) => `${e.split('.')[0]}.*`))]
    const near = closest(t, families, 2)
    throw new UsageError(`${flag} "${t}" matches no event type.`, near.length ? `Did you mean ${near.map((n) => `${flag} '${n}'`).join(' or ')}?` : `Prefixes: ${families.join(', ')}.`)
  }
  if (EVENT_TYPES.includes(t)) return
  const near = closest(t, EVENT_TYPES, 2)
  throw new UsageError(
    `${flag} "${t}" is not an event type.`,
    near.length ? `Did you mean ${near.map((n) => `${flag} ${n}`).join(' or ')}? (gw trigger --list shows them all)` : `Event types: ${EVENT_TYPES.join(', ')}; or a prefix such as 'payment.*'.`,
  )
}

const PATTERN = /^[a-z_]+(\.[a-z_]+)*(\.\*)?$/

/**
 * Joins repeated/comma-separated patterns (`payment.succeeded`, `payment.*`, `*`) into the
 * `type` query value; undefined means every event.
 */
export function typeFilter(values: string[] | undefined, flag = '--events'): string | undefined {
  const out: string[] = []
  for (const v of values ?? []) {
    for (const raw of v.split(',')) {
      const t = raw.trim()
      if (!t) continue
      if (t === '*') return undefined
      if (!PATTERN.test(t) || (!t.endsWith('.*') && !t.includes('.')))
        throw new UsageError(`${flag} "${t}" is not an event type or a prefix.`, `e.g. ${flag} payment.succeeded, ${flag} 'payment.*', or several: ${flag} 'payment.*,refund.failed'`)
      checkEventType(t, flag)
      if (!out.includes(t)) out.push(t)
    }
  }
  return out.length ? out.join(',') : undefined
}

export const eventsFilterFlag = Flags.string({
  description: "Only these event types: exact types or prefixes like 'payment.*'; comma-separated or repeated.",
  multiple: true,
})
