// `--events` / `--type`: event types to include, as the API's `type` filter takes them.
import {Flags} from '@oclif/core'
import {UsageError} from '../errors.js'

export {EVENT_TYPES} from '../api/event-types.js'

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
      if (!out.includes(t)) out.push(t)
    }
  }
  return out.length ? out.join(',') : undefined
}

export const eventsFilterFlag = Flags.string({
  description: "Only these event types: exact types or prefixes like 'payment.*'; comma-separated or repeated.",
  multiple: true,
})
