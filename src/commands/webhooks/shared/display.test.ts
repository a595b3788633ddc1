// A delivery a chaos rule shaped (docs/decisions.md#failure-on-purpose) says so, in the list and in the detail view; a
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

describe('the endpoints list on a narrow terminal', () => {
  it('keeps WHY whole: the URL and events give way, then the created date and the events go', async () => {
    const {fitColumns, renderTable} = await import('../../../output/table.js')
    const {endpointColumns} = await import('./display.js')
    const {ApiError} = await import('../../../client/errors.js')
    const {apiErrorHint} = await import('../../../output/errors.js')
    const ep = {id: 'wh_1', object: 'webhook_endpoint', url: 'https://shop.example/a/very/long/path/to/the/webhooks/receiver', enabled_events: ['payment.succeeded', 'refund.succeeded'], disabled: true, disabled_reason: 'failing', status: 'failing', failing_since: '2026-01-01T00:00:00.000Z', description: null, metadata: {}, livemode: false, created_at: '2026-01-01T00:00:00.000Z'} as never
    const row = endpointColumns.row(ep, p)
    const why = row[4]!
    expect(why).toContain('no successful delivery since')
    const {keep, widths} = fitColumns(endpointColumns.head, [row], 90, endpointColumns.fit)
    const at = keep.indexOf(4)
    expect(at).toBeGreaterThan(0)
    expect(widths?.[at] ?? why.length).toBeGreaterThanOrEqual(why.length)
    expect(await renderTable([ep], endpointColumns, p, {width: 90})).toContain(why)
    // replaying to it: the CLI's command to enable it, not a raw API call
    const err = new ApiError({status: 400, type: 'invalid_request_error', code: 'webhook_endpoint_disabled', message: 'Webhook endpoint wh_1 is disabled; enable it (update it with disabled: false) before replaying to it.'})
    expect(apiErrorHint(err)).toBe('Enable it first: gw webhooks update wh_1 --enable')
  })
})
