// Wire objects for tests, each with plain values a test overrides where it matters.
import type {Dispute} from '../types.js'

/** A card payment's chargeback needing a response: evidence due 2025-03-08, opened 2025-02-28. */
export function dispute(over: Partial<Dispute> = {}): Dispute {
  return {
    id: 'dp_123',
    object: 'dispute',
    payment: 'pay_123',
    amount: 2000,
    currency: 'EUR',
    reason: 'fraudulent',
    stage: 'chargeback',
    status: 'needs_response',
    evidence_due_by: '2025-03-08T00:00:00.000Z',
    evidence: null,
    livemode: false,
    created_at: '2025-02-28T00:00:00.000Z',
    ...over,
  }
}
