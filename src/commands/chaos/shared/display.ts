// Chaos rules (docs/decisions.md#failure-on-purpose) as a table and as sentences: what is faulted, how often, and when it ends.
import type {ChaosApiRule, ChaosRule} from '../../../api/types.js'
import type {Columns} from '../../../output/table.js'

const date = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z')
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/** The fault, as a person says it. */
function faultText(r: ChaosRule): string {
  switch (r.kind) {
    case 'api':
      return r.fault === 'slow' ? `slow ${r.latency_ms} ms` : r.fault
    case 'provider':
      return r.fault === 'latency' ? `latency ${r.latency_ms} ms` : r.fault === 'soft_decline' ? 'soft decline' : r.fault
    case 'webhooks':
      return r.fault === 'delay' ? `delay ${r.delay_seconds} s` : r.fault === 'shuffle' ? `shuffle within ${r.delay_seconds} s` : r.fault === 'fail_first' ? `fail first ${r.attempts}` : r.fault
  }
}

/** What the rule applies to. */
function target(r: ChaosRule): string {
  switch (r.kind) {
    case 'api':
      return `${r.method} /v1${r.path}`
    case 'provider':
      return `provider ${r.provider}`
    case 'webhooks':
      return r.endpoint === null ? 'webhooks, every endpoint' : `webhooks to ${r.endpoint}`
  }
}

export const chaosColumns: Columns<ChaosRule> = {
  head: ['ID', 'FAULT', 'APPLIES TO', 'RATE', 'FAULTS', 'ENDS'],
  row: (r, p) => [
    r.id,
    p.yellow(faultText(r)),
    target(r),
    r.rate === 1 ? 'every one' : `${Math.round(r.rate * 100)}%${r.seed !== null ? ` (seed ${r.seed})` : ''}`,
    r.count === null ? `${r.injected ?? ''}`.trim() || '-' : `${r.injected ?? 0} of ${r.count}`,
    date(r.until),
  ],
}

/** One line for a rule just switched on. */
export function describeRule(r: ChaosRule): string {
  const unit = r.kind === 'api' ? 'such request' : r.kind === 'provider' ? 'such call' : 'such delivery'
  const end = r.count !== null ? `for the next ${plural(r.count, unit)}, ending at the latest ${date(r.until)}` : `until ${date(r.until)} (engine clock)`
  return `${r.id}: ${what(r)}, ${end}.`
}

/** "every X ... fails" or "30% of Xs ... fail": the noun and its verb agree with the share. */
function share(r: ChaosRule, noun: string, nouns: string): {which: string; v: (one: string, many: string) => string} {
  const every = r.rate === 1
  return {which: every ? `every ${noun}` : `${Math.round(r.rate * 100)}% of ${nouns}`, v: (one, many) => (every ? one : many)}
}

function what(r: ChaosRule): string {
  switch (r.kind) {
    case 'api':
      return apiWhat(r)
    case 'provider': {
      if (r.fault === 'down') return `${r.provider} is down: every call fails with a provider error and it is marked degraded, routing fails over to the next provider`
      const {which, v} = r.fault === 'soft_decline' ? share(r, 'authorization', 'authorizations') : share(r, 'authorization and refund call', 'authorization and refund calls')
      if (r.fault === 'timeout') return `${which} to ${r.provider} ${v('times', 'time')} out, routing fails over to the next provider`
      if (r.fault === 'soft_decline') return `${which} at ${r.provider} ${v('is', 'are')} declined softly (try_again_later), routing fails over to the next provider`
      return `${which} to ${r.provider} ${v('answers', 'answer')} ${r.latency_ms} ms later (a timeout past the provider's limit)`
    }
    case 'webhooks': {
      const to = r.endpoint === null ? '' : ` to ${r.endpoint}`
      if (r.fault === 'duplicate') {
        const {which, v} = share(r, 'event', 'events')
        return `${which}${to} ${v('is', 'are')} delivered twice (two deliveries, each signed and logged)`
      }
      const {which, v} = share(r, 'delivery', 'deliveries')
      if (r.fault === 'shuffle') return `${which}${to} ${v('is', 'are')} held up to ${r.delay_seconds} s at random, so they arrive out of order`
      if (r.fault === 'delay') return `${which}${to} ${v('is', 'are')} held ${r.delay_seconds} s (engine clock)`
      return `the first ${plural(r.attempts ?? 1, 'attempt')} of ${which}${to} fail on purpose (logged, nothing sent), then the retry schedule takes over`
    }
  }
}

function apiWhat(r: ChaosApiRule): string {
  const which = r.rate === 1 ? 'every' : `${Math.round(r.rate * 100)}% of`
  const done = r.fault === 'slow' ? `slowed by ${r.latency_ms} ms` : r.fault === 'response_lost' ? 'done, then left without a response (the connection dropped)' : `answered ${r.fault}`
  return `${which} ${r.method === '*' ? '' : `${r.method} `}/v1${r.path} request ${done}`
}
