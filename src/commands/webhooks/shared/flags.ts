// Flags shared by `gw webhooks create|update`.
import {Flags} from '@oclif/core'
import type {ParamFlags} from '../../../base/flag-errors.js'
import {UsageError} from '../../../errors.js'
import {EVENT_TYPES} from '../../events/shared/flags.js'

export const urlFlag = Flags.custom<string>({
  description: 'HTTPS URL the events are POSTed to.',
  parse: async (input) => {
    let u: URL
    try {
      u = new URL(input.trim())
    } catch {
      throw new UsageError(`--url "${input}" is not an absolute URL.`, 'e.g. --url https://shop.example/webhooks')
    }
    if (u.protocol !== 'https:')
      throw new UsageError(`--url must be https: webhooks are delivered over TLS only.`, `Use https://${u.host}${u.pathname}; for a plain-HTTP local server use \`gw listen --forward-to ${u.host}${u.pathname}\`.`)
    return u.toString()
  },
})

/** `--events` for endpoints: `*`, event types, `prefix.*`; comma-separated or repeated. */
export function enabledEvents(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined
  const out: string[] = []
  for (const v of values)
    for (const raw of v.split(',')) {
      const t = raw.trim()
      if (!t) continue
      if (t !== '*' && !/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/.test(t))
        throw new UsageError(`--events "${t}" is not an event type.`, `Use *, a prefix such as payment.*, or types: ${EVENT_TYPES.join(', ')}.`)
      // the engine checks the types (it knows its own; the 400 names --events, exit 2)
      if (!out.includes(t)) out.push(t)
    }
  if (out.length === 0) throw new UsageError('--events needs at least one event type, or * for all.')
  return out
}

/** An endpoint's API params and the flags of `gw webhooks create` / `update` that set them. */
export const WEBHOOK_PARAMS: ParamFlags = {url: '--url', enabled_events: '--events', 'enabled_events.': '--events', description: '--description', metadata: '--metadata', 'metadata.': '--metadata'}
