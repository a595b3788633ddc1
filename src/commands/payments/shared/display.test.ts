import {describe, expect, it} from 'vitest'
import {payment} from '../../../base/test-support/cli.js'
import {painter} from '../../../output/color.js'
import {renderTable} from '../../../output/table.js'
import {paymentColumns, renderPayment} from './display.js'

describe('detail view', () => {
  it('shows a payment with formatted money, card and attempts', () => {
    const text = renderPayment(payment(), painter(false))
    expect(text.split('\n')[0]).toBe('pay_123  succeeded')
    expect(text).toMatch(/Amount\s+€20\.00 EUR/)
    expect(text).toMatch(/Method\s+card · visa •••• 4242 exp 12\/2030 \(credit, US\)/)
    expect(text).toMatch(/Attempts\s+prov_a approved 12ms/)
    expect(text).not.toMatch(/Next action/)
    expect(text).not.toContain('\u001B[')
  })

  it('shows next_action and failures', () => {
    const text = renderPayment(
      payment({status: 'requires_action', next_action: {type: 'redirect', url: 'https://x/checkout/1'}, failure_code: null}),
      painter(false),
    )
    expect(text).toMatch(/Next action\s+redirect https:\/\/x\/checkout\/1/)
    const failed = renderPayment(payment({status: 'failed', failure_code: 'payment_blocked', failure_message: 'Blocked by risk screening'}), painter(false))
    expect(failed).toMatch(/Failure\s+payment_blocked: Blocked by risk screening/)
  })
})

describe('tables', () => {
  it('draws a cli-table3 table with one row per object', async () => {
    const text = await renderTable([payment(), payment({id: 'pay_456', status: 'failed', amount: 150, currency: 'JPY'})], paymentColumns, painter(false))
    expect(text).toContain('ID')
    expect(text).toContain('pay_123')
    expect(text).toContain('€20.00 EUR')
    expect(text).toContain('¥150 JPY')
    expect(text).not.toContain('\u001B[')
    expect(text.split('\n').filter((l) => l.includes('pay_'))).toHaveLength(2)
  })
})
