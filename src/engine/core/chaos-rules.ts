// Failure on purpose (docs/decisions.md#failure-on-purpose): faults an account switches on to rehearse what a real gateway
// does to its clients now and then. The API: a 500, a 503 or 429 with Retry-After, a slow
// answer, and the nastiest, the work done and committed but the response lost. Providers (see
// chaos-providers.ts): one down, a share of its calls timing out or soft-declining, added
// latency. Webhooks (chaos-webhooks.ts): events delivered twice, held and shuffled, delayed, or
// their first attempts failed. Rules are the account's (test mode only), kept in the store (a
// setting every instance reads through the change feed), applied to a share (`rate`, seedable),
// and always end: after `count` faults or at `until` on the engine clock (10 minutes when
// neither is given), so a forgotten fault cannot break tomorrow's tests. Counts are the store's
// (an atomic counter per rule), so a fleet injects exactly `count` faults between its instances.
import {CHAOS_API_FAULTS, CHAOS_PROVIDER_FAULTS, CHAOS_WEBHOOK_FAULTS, type ChaosApiFaultCreate, type ChaosApiRule, type ChaosProviderFaultCreate, type ChaosProviderRule, type ChaosRule, type ChaosWebhookFaultCreate, type ChaosWebhookRule} from '../../api/types.js'
import {invalid, notFound} from '../domain/errors.js'
import {providerProfile} from '../domain/providers.js'
import {iso} from '../domain/time.js'
import {StoreCache} from './cache.js'
import type {Core} from './core.js'
import type {DeliveryRecord} from './webhook-types.js'

export const CHAOS_RULES_SETTING = 'chaos_rules'
const HITS = (id: string) => `chaos_hits:${id}`
const SEEN = (id: string) => `chaos_seen:${id}`

export const DEFAULT_CHAOS_FOR_S = 600
const MAX_CHAOS_FOR_S = 7 * 86_400
const DEFAULT_SLOW_MS = 2_000
const MAX_SLOW_MS = 30_000
const METHODS = ['GET', 'POST', 'DELETE', '*'] as const
const isMethod = (m: string): m is (typeof METHODS)[number] => (METHODS as readonly string[]).includes(m)

/** The body of POST /v1/chaos/api (validated here: the method and fault may be anything a client sent). */
export type CreateChaosApi = ChaosApiFaultCreate

/** The account's rules, cached until the store says they changed (any instance). */
export class ChaosRules {
  private readonly cache: StoreCache<ChaosRule[]>
  constructor(
    private readonly core: Core,
    /** why a stored rule is not one the API would have made (stored-rows.ts), or undefined */
    private readonly problemOf: (rule: unknown) => string | undefined,
  ) {
    this.cache = new StoreCache(core.store, async () => this.parse(await core.store.getSetting(CHAOS_RULES_SETTING)), {settingPrefix: CHAOS_RULES_SETTING})
  }

  /** The account's stored rules, read defensively (parseRules), what was left out reported once. */
  parse(text: string | undefined): ChaosRule[] {
    return parseRules(text, this.problemOf, (problem) => this.core.contain('setting', problem, 'a stored chaos rule was left out'))
  }

  /** The rules still active (not past `until`), as stored. */
  async active(): Promise<ChaosRule[]> {
    const now = this.core.clock.now().toISOString()
    return (await this.cache.get()).filter((r) => r.until > now)
  }

  /** True when the account is known to have no rule: the request pipeline then skips the check without waiting. */
  get none(): boolean {
    return this.cache.peek()?.length === 0
  }

  /**
   * The fault to inject into this request, if a rule matches and takes it: a share `rate` of the
   * matching requests, until `count` were injected. Cheap when the account has no rule.
   */
  async faultFor(method: string, path: string): Promise<ChaosApiRule | undefined> {
    const rules = await this.cache.get()
    if (rules.length === 0) return undefined
    const now = this.core.clock.now().toISOString()
    for (const r of rules) {
      if (r.kind !== 'api' || r.until <= now || !matches(r, method, path)) continue
      if (await this.take(r)) return r
    }
    return undefined
  }

  /** The active rules of one kind (no draw taken). */
  async ofKind<K extends ChaosRule['kind']>(kind: K): Promise<Extract<ChaosRule, {kind: K}>[]> {
    if (this.none) return []
    const now = this.core.clock.now().toISOString()
    return (await this.cache.get()).filter((r): r is Extract<ChaosRule, {kind: K}> => r.kind === kind && r.until > now)
  }

  /**
   * Whether this rule faults the call at hand: a share `rate` of the calls it matches (the n-th
   * call's draw, seeded or random), until `count` faults were injected (the store's counters).
   */
  async take(r: ChaosRule): Promise<boolean> {
    if (r.rate < 1) {
      const n = await this.core.store.addToSetting(SEEN(r.id), 1)
      if (draw(r.seed, n) >= r.rate) return false
    }
    if (r.count !== null) {
      const hits = await this.core.store.addToSetting(HITS(r.id), 1)
      if (hits > r.count) return false
    }
    return true
  }

  /** How many faults a rule has injected (its count's share taken), for status. */
  async injected(r: ChaosRule): Promise<number | null> {
    if (r.count === null) return null
    return Math.min(r.count, Number((await this.core.store.getSetting(HITS(r.id))) ?? '0'))
  }
}

/**
 * The stored rules. Read defensively (docs/decisions.md#failures-are-contained): a rule that is not one the API would have made
 * (a store written around it) is left out, and `bad` hears why, instead of failing every request
 * of the account.
 */
export function parseRules(text: string | undefined, problemOf: (rule: unknown) => string | undefined, bad: (problem: string) => void = () => {}): ChaosRule[] {
  if (!text) return []
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    bad(`chaos_rules is not JSON: '${text.slice(0, 40)}'`)
    return []
  }
  if (!Array.isArray(v)) {
    bad('chaos_rules is not an array')
    return []
  }
  return v.filter((r, i) => {
    const problem = problemOf(r)
    if (problem) bad(`chaos_rules[${i}]: ${problem}`)
    return problem === undefined
  }) as ChaosRule[]
}

/** `/payments`, `/payments/*` (one segment), `/payments/**` (any depth below); a trailing slash is ignored. */
export function matches(r: Pick<ChaosApiRule, 'method' | 'path'>, method: string, path: string): boolean {
  if (r.method !== '*' && r.method !== method) return false
  const want = r.path.replace(/\/+$/, '').split('/')
  const got = path.replace(/\/+$/, '').split('/')
  for (let i = 0; i < want.length; i++) {
    if (want[i] === '**') return got.length > i
    if (i >= got.length) return false
    if (want[i] !== '*' && want[i] !== got[i]) return false
  }
  return want.length === got.length
}

/** A number in [0, 1) for the n-th matching request: seeded (the same sequence every run) or random. */
export function draw(seed: number | null, n: number): number {
  if (seed === null) return Math.random()
  // mulberry32 of (seed, n)
  let t = (seed ^ Math.imul(n, 0x9e3779b1)) >>> 0
  t = (t + 0x6d2b79f5) >>> 0
  let x = Math.imul(t ^ (t >>> 15), t | 1)
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
  return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296
}

/** Validates a new API fault into a rule (the engine clock gives it its end). */
export function apiRule(b: CreateChaosApi, id: string, now: Date): ChaosApiRule {
  const method = (b.method ?? '*').toUpperCase()
  if (!isMethod(method)) throw invalid('method', `method must be one of ${METHODS.join(', ')}; got '${b.method}'.`)
  if (!/^\/[A-Za-z0-9_\-*/{}]*$/.test(b.path)) throw invalid('path', `path is an API path under /v1 such as /payments, /payments/* or /refunds/**; got '${b.path}'.`)
  const path = b.path.replace(/^\/v1(?=\/)/, '')
  if (!CHAOS_API_FAULTS.includes(b.fault)) throw invalid('fault', `fault must be one of ${CHAOS_API_FAULTS.join(', ')}; got '${b.fault}'.`)
  const rate = rateOf(b, 'matching requests')
  checkCommon(b)
  checkOption(b.latency_ms, 'latency_ms', b.fault === 'slow', 'the slow fault', 1, MAX_SLOW_MS)
  return {
    id,
    object: 'chaos_rule',
    kind: 'api',
    method,
    path,
    fault: b.fault,
    rate,
    latency_ms: b.fault === 'slow' ? (b.latency_ms ?? DEFAULT_SLOW_MS) : null,
    ...ending(b, now),
  }
}

/** The parts every rule's body shares: how often and for how long. */
export interface ChaosCommon {
  rate?: number
  count?: number
  for_seconds?: number
  seed?: number
}

export function checkCommon(b: ChaosCommon): void {
  if (b.count !== undefined && !(Number.isInteger(b.count) && b.count >= 1)) throw invalid('count', `count must be a whole number of faults, 1 or more; got ${b.count}.`)
  if (b.for_seconds !== undefined && !(Number.isInteger(b.for_seconds) && b.for_seconds >= 1 && b.for_seconds <= MAX_CHAOS_FOR_S))
    throw invalid('for_seconds', `for_seconds must be 1 to ${MAX_CHAOS_FOR_S} (7 days): every fault ends; got ${b.for_seconds}.`)
  if (b.seed !== undefined && !Number.isInteger(b.seed)) throw invalid('seed', `seed must be a whole number; got ${b.seed}.`)
}

/** The count, seed and end of a new rule: a count alone ends it when spent, at the latest after the longest window. */
export function ending(b: ChaosCommon, now: Date): {count: number | null; seed: number | null; created_at: string; until: string} {
  const forS = b.for_seconds ?? (b.count !== undefined ? MAX_CHAOS_FOR_S : DEFAULT_CHAOS_FOR_S)
  return {count: b.count ?? null, seed: b.seed ?? null, created_at: now.toISOString(), until: new Date(now.getTime() + forS * 1000).toISOString()}
}

/** A number that goes with some faults only, within bounds: a 400 naming it otherwise. */
export function checkOption(v: number | undefined, param: string, applies: boolean, faults: string, min: number, max: number, note = ''): void {
  if (v === undefined) return
  if (!applies) throw invalid(param, `${param} applies to ${faults} only.`)
  if (!(Number.isInteger(v) && v >= min && v <= max)) throw invalid(param, `${param} must be ${min} to ${max}${note}; got ${v}.`)
}

/** The share of a new rule, validated. */
export function rateOf(b: ChaosCommon, what: string): number {
  const rate = b.rate ?? 1
  if (!(rate > 0 && rate <= 1)) throw invalid('rate', `rate is the share of ${what} to fault, more than 0 and at most 1; got ${b.rate}.`)
  return rate
}

// ---------------------------------------------------------------- provider and webhook rules

const DEFAULT_LATENCY_MS = 1000
const MAX_LATENCY_MS = 30_000

export function providerRule(b: ChaosProviderFaultCreate, id: string, now: Date): ChaosProviderRule {
  const p = providerProfile(b.provider)
  if (!p) throw notFound('provider', b.provider, 'provider')
  if (!CHAOS_PROVIDER_FAULTS.includes(b.fault)) throw invalid('fault', `fault must be one of ${CHAOS_PROVIDER_FAULTS.join(', ')}; got '${b.fault}'.`)
  if (b.fault === 'down' && (b.rate !== undefined || b.count !== undefined))
    throw invalid(b.rate !== undefined ? 'rate' : 'count', 'A provider is down for a while, for every call: give for_seconds, not a rate or a count (use the timeout fault for a share of calls).')
  const rate = rateOf(b, 'calls')
  checkCommon(b)
  checkOption(b.latency_ms, 'latency_ms', b.fault === 'latency', 'the latency fault', 1, MAX_LATENCY_MS)
  return {
    id,
    object: 'chaos_rule',
    kind: 'provider',
    provider: p.id,
    fault: b.fault,
    rate,
    latency_ms: b.fault === 'latency' ? (b.latency_ms ?? DEFAULT_LATENCY_MS) : null,
    ...ending(b, now),
  }
}

const DEFAULT_SHUFFLE_WINDOW_S = 10
const MAX_DELAY_S = 86_400
const MAX_FAIL_FIRST = 10
/** A duplicate follows its original this much later (engine time), so it arrives second. */
const DUPLICATE_AFTER_MS = 1000

export function webhookRule(b: ChaosWebhookFaultCreate, id: string, now: Date): ChaosWebhookRule {
  if (!CHAOS_WEBHOOK_FAULTS.includes(b.fault)) throw invalid('fault', `fault must be one of ${CHAOS_WEBHOOK_FAULTS.join(', ')}; got '${b.fault}'.`)
  const rate = rateOf(b, 'deliveries')
  checkCommon(b)
  const usesDelay = b.fault === 'delay' || b.fault === 'shuffle'
  checkOption(b.delay_seconds, 'delay_seconds', usesDelay, 'the delay and shuffle faults', 1, MAX_DELAY_S, ' (a day)')
  if (b.fault === 'delay' && b.delay_seconds === undefined) throw invalid('delay_seconds', 'The delay fault needs delay_seconds: how long each delivery is held, e.g. 30.')
  checkOption(b.attempts, 'attempts', b.fault === 'fail_first', 'the fail_first fault', 1, MAX_FAIL_FIRST)
  return {
    id,
    object: 'chaos_rule',
    kind: 'webhooks',
    endpoint: b.endpoint ?? null,
    fault: b.fault,
    rate,
    delay_seconds: usesDelay ? (b.delay_seconds ?? DEFAULT_SHUFFLE_WINDOW_S) : null,
    attempts: b.fault === 'fail_first' ? (b.attempts ?? 1) : null,
    ...ending(b, now),
  }
}

/** The outbox's deliveries as the account's webhook faults shape them (the same array when none is active). */
export async function shapeDeliveries(core: Core, deliveries: DeliveryRecord[], now: Date): Promise<DeliveryRecord[]> {
  const rules = await core.chaos.ofKind('webhooks')
  if (rules.length === 0) return deliveries
  const out: DeliveryRecord[] = []
  for (const d of deliveries) {
    out.push(d)
    for (const r of rules) {
      if ((r.endpoint !== null && r.endpoint !== d.endpoint) || !(await core.chaos.take(r))) continue
      d.chaos = r.id
      switch (r.fault) {
        case 'delay':
          d.next_attempt_at = iso(new Date(Date.parse(d.next_attempt_at!) + r.delay_seconds! * 1000))
          break
        case 'shuffle': {
          // the n-th delivery shaped gets the n-th hold of the seed's sequence: the same holds every run
          const n = await core.store.addToSetting(`chaos_seen:${r.id}:holds`, 1)
          const hold = Math.floor(draw(r.seed, n) * r.delay_seconds! * 1000)
          d.next_attempt_at = iso(new Date(now.getTime() + hold))
          break
        }
        case 'fail_first':
          d._x = {...d._x, fail_first: r.attempts!}
          break
        case 'duplicate':
          out.push({...d, id: core.ids.next('whd'), attempts: [], chaos: r.id, next_attempt_at: iso(new Date(Date.parse(d.next_attempt_at!) + DUPLICATE_AFTER_MS)), _x: {...d._x}})
          break
      }
    }
  }
  return out
}
