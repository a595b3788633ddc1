// Failure on purpose (issue 29): faults an account switches on to rehearse what a real gateway
// does to its clients now and then. The API: a 500, a 503 or 429 with Retry-After, a slow
// answer, and the nastiest, the work done and committed but the response lost. Providers (see
// chaos-providers.ts): one down, a share of its calls timing out or soft-declining, added
// latency. Webhooks (chaos-webhooks.ts): events delivered twice, held and shuffled, delayed, or
// their first attempts failed. Rules are the account's (test mode only), kept in the store (a
// setting every instance reads through the change feed), applied to a share (`rate`, seedable),
// and always end: after `count` faults or at `until` on the engine clock (10 minutes when
// neither is given), so a forgotten fault cannot break tomorrow's tests. Counts are the store's
// (an atomic counter per rule), so a fleet injects exactly `count` faults between its instances.
import {CHAOS_API_FAULTS, type ChaosApiFaultCreate, type ChaosApiRule, type ChaosRule} from '../../api/types.js'
import {invalid, notFound} from '../domain/errors.js'
import {StoreCache} from './cache.js'
import type {Core} from './core.js'
import type {Unit} from './unit.js'

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
 * The stored rules. Read defensively (issue 33): a rule that is not one the API would have made
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

// ---------------------------------------------------------------- use cases

export async function rulesIn(u: Unit): Promise<ChaosRule[]> {
  // one change to the rules at a time (the lock is the store's, held until the unit commits)
  await u.lock('chaos_rules')
  return u.core.chaos.parse(await u.core.store.getSetting(CHAOS_RULES_SETTING))
}

export function write(u: Unit, rules: ChaosRule[]): void {
  // spent and ended rules go when the rules next change
  const now = u.now.toISOString()
  u.setting(CHAOS_RULES_SETTING, JSON.stringify(rules.filter((r) => r.until > now)))
}

export async function addApiFault(u: Unit, b: CreateChaosApi): Promise<ChaosRule> {
  return addRule(u, apiRule(b, u.core.ids.next('chaos'), u.now))
}

/** Adds a validated rule to the account's. */
export async function addRule<R extends ChaosRule>(u: Unit, rule: R): Promise<R> {
  const rules = await rulesIn(u)
  write(u, [...rules, rule])
  return rule
}

/** What ending a rule undoes (a provider marked degraded by a down rule recovers), registered by the kinds that need it. */
const onEnd: ((u: Unit, r: ChaosRule) => Promise<void>)[] = []
export function whenRuleEnds(fn: (u: Unit, r: ChaosRule) => Promise<void>): void {
  onEnd.push(fn)
}

/** Ends one rule (`id`) or every rule of the account; returns what was active. */
export async function clearChaos(u: Unit, id?: string): Promise<ChaosRule[]> {
  const rules = await rulesIn(u)
  const now = u.now.toISOString()
  if (id !== undefined && !rules.some((r) => r.id === id && r.until > now)) throw notFound('chaos rule', id, 'id')
  const cleared = rules.filter((r) => (id === undefined || r.id === id) && r.until > now)
  write(u, id === undefined ? [] : rules.filter((r) => r.id !== id))
  for (const r of cleared) for (const fn of onEnd) await fn(u, r)
  return cleared
}

/** The active rules, each with how many faults it injected. */
export async function chaosStatus(core: Core): Promise<ChaosRule[]> {
  const rules = await core.chaos.active()
  return Promise.all(rules.map(async (r) => ({...r, injected: await core.chaos.injected(r)})))
}
