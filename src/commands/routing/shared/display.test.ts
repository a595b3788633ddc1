// The routing trace of `gw payments explain` and `gw routing simulate`, rendered from the wire objects.
import {stripVTControlCharacters} from 'node:util'
import {describe, expect, it} from 'vitest'
import type {PaymentRouting} from '../../../api/types.js'
import {payment} from '../../../base/test-support/cli.js'
import {painter} from '../../../output/color.js'
import {decision, failover, score} from './test-support/routing.js'
import {attemptsByPass, noDecisionText, outcomeText, renderPaymentRouting, renderSimulation, wrapText} from './display.js'

const plain = painter(false)
const T0 = '2026-03-01T10:00:00.000Z'
const T1 = '2026-03-01T10:02:00.000Z'

describe('payments explain: the trace', () => {
  it('says what was chosen and why, the exclusions, each score with its parts, the tie-break and each hop', async () => {
    const out = await renderPaymentRouting(failover(), payment({id: 'pay_123', amount: 4999, provider: 'prov_atlas', reference: 'order-7'}), plain)
    expect(out).toMatch(/^pay_123 {2}succeeded {2}€49\.99 EUR · card · order-7/)
    expect(out).toMatch(/Outcome\s+approved by prov_atlas after 1 failover \(prov_borealis: timeout\)/)
    expect(out).toMatch(/Strategy\s+smart routing: no routing rule matched/)
    expect(out).toMatch(/Chosen\s+prov_borealis, then prov_atlas/)
    expect(out).toMatch(/Excluded\s+prov_cruzeiro\s+does not process EUR\n\s+prov_dhow\s+disabled \(health status\)/)
    expect(out).toContain('0.3 × cost + 0.5 × 7-day rate + 0.1 × currency + 0.1 × method')
    // fee as money with the cost component, the 7-day rate (or the prior without data), currency and method fit
    expect(out).toMatch(/prov_borealis\s+│ 1\s+│ 0\.8650\s+│ €1\.00 EUR · 0\.80\s+│ no data → 85\.0%\s+│ local · 1\s+│ direct · 1/)
    expect(out).toMatch(/prov_atlas\s+│ 2\s+│ 0\.6621\s+│ €1\.75 EUR · 0\.46\s+│ 92\.0%\s+│ cross-border · 0\s+│ partner · 0\.5/)
    expect(out).toMatch(/Tie-break\s+active providers before degraded ones, then the higher score, then the provider id \(no tie here\)/)
    expect(out).toMatch(/│ 1 │ prov_borealis │ timeout\s+│\s+│ soft → next provider │ 3000 ms/)
    expect(out).toMatch(/│ 2 │ prov_atlas\s+│ approved\s+│/)
    expect(out).not.toContain('Routing pass')
  })

  it('a final decline stops routing, and says so', async () => {
    const r = failover()
    r.attempts = [{provider: 'prov_borealis', outcome: 'declined', decline_code: 'card_declined', latency_ms: 210, attempted_at: T0, decline_class: 'final'}]
    const out = await renderPaymentRouting(r, payment({status: 'failed', failure_code: 'card_declined', failure_message: 'The card was declined.'}), plain)
    expect(out).toMatch(/Outcome\s+declined by prov_borealis: card_declined, a final decline, so no other provider was tried/)
    expect(out).toMatch(/Failure\s+card_declined: The card was declined\./)
    expect(out).toMatch(/prov_borealis │ declined │ card_declined │ final → routing stopped/)
  })

  it('one section per routing pass; a resumed pass goes on with the attempt that waited for the customer', async () => {
    const second = decision({
      decided_at: T1,
      providers: [...decision().providers.slice(0, 1), {provider: 'prov_borealis', status: 'active', eligible: false, excluded: 'already_tried'}, ...decision().providers.slice(2)],
      order: ['prov_atlas'],
    })
    const r: PaymentRouting = {
      object: 'payment_routing',
      payment: 'pay_123',
      decisions: [decision(), second],
      attempts: [{provider: 'prov_borealis', outcome: 'approved', decline_code: null, latency_ms: 1981, attempted_at: T0, decline_class: null}],
    }
    expect(attemptsByPass(r).map((a) => a.length)).toEqual([1, 0])
    const out = await renderPaymentRouting(r, payment(), plain)
    expect(out).toMatch(/Routing pass 1 of 2 · decided 2026-03-01 10:00:00Z/)
    expect(out).toMatch(/Routing pass 2 of 2 · decided 2026-03-01 10:02:00Z/)
    const pass2 = out.slice(out.indexOf('Routing pass 2'))
    expect(pass2).toMatch(/Chosen\s+prov_borealis \(attempt 1, pending while the customer acted, goes on first\), then prov_atlas/)
    expect(pass2).toMatch(/prov_borealis\s+already tried for this payment in an earlier pass/)
    expect(pass2).toMatch(/Attempts\s+no new attempt: attempt 1 on prov_borealis went on and ended approved/)
  })

  it('a rule that matched: its id, priority and action; a block tries nothing', async () => {
    const rule = {id: 'rr_1', priority: 5, action: 'block' as const, merchant: 'mer_1', providers: []}
    const blocked = decision({rule, strategy: 'rule_block', order: []})
    const r: PaymentRouting = {object: 'payment_routing', payment: 'pay_123', decisions: [blocked], attempts: []}
    const out = await renderPaymentRouting(r, payment({status: 'failed', failure_code: 'routing_blocked', provider: null as never, provider_attempts: []}), plain)
    expect(out).toMatch(/Outcome\s+blocked by routing rule rr_1: no provider was tried/)
    expect(out).toMatch(/Strategy\s+rule rr_1 \(priority 5, block; merchant mer_1\) blocks this payment/)
    expect(out).toMatch(/Chosen\s+none: blocked by rule rr_1/)
    expect(out).toMatch(/prov_borealis\s+blocked by rule rr_1/)
  })

  it('a prefer rule and a split rule say what they did', async () => {
    const prefer = decision({rule: {id: 'rr_2', priority: 1, action: 'prefer', merchant: null, providers: [{provider: 'prov_atlas'}, {provider: 'prov_cruzeiro'}]}, strategy: 'rule_prefer', order: ['prov_atlas', 'prov_borealis']})
    const a = await renderSimulation(prefer, plain)
    expect(a).toMatch(/rule rr_2 \(priority 1, prefer prov_atlas, prov_cruzeiro; every merchant\) puts its eligible providers first; prov_cruzeiro is not eligible \(see Excluded\); smart routing orders the rest as failover/)
    expect(a).toMatch(/Would try\s+prov_atlas, then prov_borealis/)
    const split = decision({rule: {id: 'rr_3', priority: 1, action: 'split', merchant: null, providers: [{provider: 'prov_atlas', weight: 70}, {provider: 'prov_borealis', weight: 30}]}, strategy: 'rule_split', split_pick: 'prov_atlas', order: ['prov_atlas', 'prov_borealis']})
    expect(await renderSimulation(split, plain)).toMatch(/rule rr_3 \(priority 1, split prov_atlas:70, prov_borealis:30; every merchant\) drew prov_atlas by weight/)
  })

  it('names a tie the tie-break decided, and degraded providers going last', async () => {
    const d = decision({
      scores: [score('prov_atlas', 0.8), score('prov_borealis', 0.8), score('prov_fjord', 0.41, {degraded: true})],
      order: ['prov_atlas', 'prov_borealis', 'prov_fjord'],
    })
    const out = await renderSimulation(d, plain)
    expect(out).toContain('prov_atlas and prov_borealis tie at 0.8000: prov_atlas goes first by provider id')
    expect(out).toContain('prov_fjord is degraded: tried after every active provider')
    expect(out).toMatch(/prov_fjord\s+│ 3\s+│ 0\.4100 degraded ×0\.5/)
    expect(out).not.toContain('no tie here')
  })

  it('no eligible provider, and payments with no routing pass, say why', async () => {
    const none = decision({scores: [], order: [], providers: decision().providers.map((x) => ({...x, eligible: false, excluded: 'currency_not_processed' as const}))})
    const out = await renderSimulation(none, plain)
    expect(out).toMatch(/Would try\s+none: no eligible provider \(the payment fails with no_provider_available\)/)
    expect(out).toContain('No eligible provider to score.')
    expect(noDecisionText(payment({status: 'failed', failure_code: 'payment_blocked'}))).toMatch(/Risk screening blocked it before routing/)
    expect(noDecisionText(payment({id: 'pay_9', status: 'requires_confirmation'}))).toContain('gw payments confirm pay_9')
    expect(noDecisionText(payment({id: 'pay_9', status: 'processing', risk: {score: 70, decision: 'review', checks: {avs_result: 'pass', cvv_result: 'pass'}}}))).toContain('gw payments review pay_9 --approve')
    const empty: PaymentRouting = {object: 'payment_routing', payment: 'pay_9', decisions: [], attempts: []}
    expect(outcomeText(empty, payment({status: 'requires_confirmation', id: 'pay_9'}), plain)).toContain('Not routed yet')
    const blocked = await renderPaymentRouting(empty, payment({id: 'pay_9', status: 'failed', failure_code: 'payment_blocked', failure_message: 'Risk screening blocked the payment.'}), plain)
    expect(blocked).toBe('pay_9  failed  €20.00 EUR · card · order_1\n  Outcome  Risk screening blocked it before routing: no provider was considered.\n  Failure  payment_blocked: Risk screening blocked the payment.')
  })

  it('every provider failing over is named with the failure code', () => {
    const r = failover()
    r.attempts[1] = {provider: 'prov_atlas', outcome: 'error', decline_code: null, latency_ms: 30, attempted_at: T0, decline_class: 'soft'}
    expect(outcomeText(r, payment({status: 'failed', failure_code: 'processing_error'}), plain)).toBe('every provider failed over (processing_error): prov_borealis: timeout, prov_atlas: error')
  })

  it('fits a narrow terminal: no line wider, long lines wrapped under their label', async () => {
    const out = await renderPaymentRouting(failover(), payment({id: 'pay_123', amount: 4999}), plain, {width: 72})
    for (const line of out.split('\n')) expect(stripVTControlCharacters(line).length, line).toBeLessThanOrEqual(72)
    expect(out).toContain('prov_borealis')
    expect(wrapText('a b c d e f g h i j k l m n o p q r s t u v w x y z', 20)).toEqual(['a b c d e f g h i j', 'k l m n o p q r s t', 'u v w x y z'])
  })

  it('colours on a terminal: approved green, the soft class yellow, the final class red', async () => {
    const out = await renderPaymentRouting(failover(), payment(), painter(true))
    expect(out).toContain('\u001B[32mapproved\u001B[39m')
    expect(out).toContain('\u001B[33msoft → next provider\u001B[39m')
  })
})
