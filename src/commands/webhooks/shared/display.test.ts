// A delivery a chaos rule shaped (issue 29) says so, in the list and in the detail view; a
// failed-on-purpose attempt shows its reason.
import {describe, expect, it} from 'vitest'
import type {WebhookDelivery} from '../../../api/types.js'
import {painter} from '../../../output/color.js'
import {deliveryAttemptColumns, deliveryColumns, renderDelivery} from './display.js'

const p = painter(false)
const attempt = {at: '2026-01-01T00:00:00.000Z', status_code: null, error: 'chaos_fail_first' as const, error_message: 'Failed on purpose by chaos rule chaos_1 (attempt 1 of 2 to fail); nothing was sent.', latency_ms: 0, response_excerpt: null}
const delivery = (over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 'whd_1', object: 'webhook_delivery', event: 'evt_1', event_type: 'payment.succeeded', endpoint: 'wh_1', status: 'failed_retrying', attempts: [attempt],
  next_attempt_at: '2026-01-01T00:01:00.000Z', undeliverable_reason: null, livemode: false, created_at: '2026-01-01T00:00:00.000Z', ...over,
})

describe('deliveries shaped by chaos', () => {
  it('the list marks them and shows the reason of the last attempt', () => {
    const row = deliveryColumns.row(delivery({chaos: 'chaos_1'}), p)
    expect(row[0]).toBe('whd_1 [chaos]')
    expect(row[5]).toContain('chaos_fail_first')
    expect(deliveryColumns.row(delivery(), p)[0]).toBe('whd_1')
  })

  it('the detail names the rule, and the attempt says it failed on purpose', () => {
    expect(renderDelivery(delivery({chaos: 'chaos_1'}), p)).toMatch(/Chaos\s+shaped by chaos_1/)
    expect(renderDelivery(delivery(), p)).not.toContain('Chaos')
    expect(deliveryAttemptColumns.row({...attempt, n: 1}, p)[2]).toContain('Failed on purpose by chaos rule chaos_1')
  })
})
