// Simulated providers (test mode): the first implementation of ProviderConnection.
// Deterministic: latency comes from a hash of (payment id, provider id, operation) and is
// only reported, never slept; outcomes follow the test cards and test amounts of docs/api.md#test-cards-and-amounts
// and docs/decisions.md#test-cards-beyond-the-contracts.
import {parseCardNumber} from '../domain/cards.js'
import {PROVIDERS, providerServes, type ProviderProfile} from '../domain/providers.js'
import type {
  AuthorizeRequest,
  CaptureRequest,
  ProviderConnection,
  ProviderResult,
  RefundRequest,
} from '../ports/provider.js'

/** The first provider tried times out (retriable); the failover provider approves. */
export const TIMEOUT_TEST_AMOUNT = 4999
/** Final decline `card_declined`, never retried. */
export const DECLINE_TEST_AMOUNT = 4002

/** FNV-1a, 32 bit. */
export function hash32(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * Latency between p50 and p99 of the profile, skewed towards p50 (cube of a uniform draw),
 * and always below the timeout.
 */
export function simulatedLatency(profile: ProviderProfile, key: string): number {
  const u = hash32(`${key}|${profile.id}`) / 2 ** 32
  const {p50_ms, p99_ms} = profile.latency
  const ms = Math.round(p50_ms + (p99_ms - p50_ms) * u ** 3)
  return Math.min(ms, profile.timeout_ms - 1)
}

export class SimulatedProvider implements ProviderConnection {
  readonly id: string

  constructor(readonly profile: ProviderProfile) {
    this.id = profile.id
  }

  private latency(payment_id: string, operation: string): number {
    return simulatedLatency(this.profile, `${payment_id}|${operation}`)
  }

  async authorize(req: AuthorizeRequest): Promise<ProviderResult> {
    const latency_ms = this.latency(req.payment_id, 'authorize')
    if (!providerServes(this.profile, req.payment_method, req.currency)) {
      return {outcome: 'error', decline_code: null, latency_ms}
    }
    if (req.amount === TIMEOUT_TEST_AMOUNT && req.route_index === 0) {
      return {outcome: 'timeout', decline_code: null, latency_ms: this.profile.timeout_ms}
    }
    if (req.amount === DECLINE_TEST_AMOUNT) return {outcome: 'declined', decline_code: 'card_declined', latency_ms}
    if (req.card?.number !== undefined) {
      const parsed = parseCardNumber(req.card.number)
      if (!parsed.ok) return {outcome: 'declined', decline_code: 'invalid_account', latency_ms}
      const test = parsed.card.test
      if (test.kind === 'decline') return {outcome: 'declined', decline_code: test.code, latency_ms}
    }
    return {outcome: 'approved', decline_code: null, latency_ms}
  }

  async capture(req: CaptureRequest): Promise<ProviderResult> {
    return {outcome: 'approved', decline_code: null, latency_ms: this.latency(req.payment_id, `capture:${req.amount}`)}
  }

  async incrementAuthorization(req: {payment_id: string; amount: number; currency: string}): Promise<ProviderResult> {
    return {outcome: 'approved', decline_code: null, latency_ms: this.latency(req.payment_id, `increment:${req.amount}`)}
  }

  async void(req: {payment_id: string}): Promise<ProviderResult> {
    return {outcome: 'approved', decline_code: null, latency_ms: this.latency(req.payment_id, 'void')}
  }

  async refund(req: RefundRequest): Promise<ProviderResult> {
    const latency_ms = this.latency(req.payment_id, `refund:${req.refund_id}`)
    if (req.card?.number !== undefined) {
      const parsed = parseCardNumber(req.card.number)
      if (parsed.ok && parsed.card.test.kind === 'refund_fails') {
        return {outcome: 'declined', decline_code: 'refund_failed', latency_ms}
      }
    }
    return {outcome: 'approved', decline_code: null, latency_ms}
  }
}

/** One simulated connection per provider profile, keyed by provider id. */
export function createSimulatedProviders(profiles: readonly ProviderProfile[] = PROVIDERS): Map<string, ProviderConnection> {
  return new Map(profiles.map((p) => [p.id, new SimulatedProvider(p)]))
}
