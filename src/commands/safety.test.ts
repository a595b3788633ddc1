// Every destructive or redirecting command confirms the same way (docs/decisions.md#confirmations-and-live-keys): y/N on a
// terminal, the typed word "live" with a live key, --yes required without a terminal; nothing is
// sent until confirmed.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {at, cliEnv, json, LIVE_KEY, type CliEnv} from '../base/test-support/cli.js'
import PaymentMethodsDetach from './payment-methods/detach.js'
import RoutingRulesDelete from './routing-rules/delete.js'
import WebhooksDelete from './webhooks/delete.js'
import WebhooksUpdate from './webhooks/update.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const endpoint = {id: 'wh_1', object: 'webhook_endpoint', url: 'https://shop.example/hooks', enabled_events: ['*'], description: null, metadata: {}, disabled: false, livemode: false, created_at: '2026-01-01T00:00:00.000Z'}

/** Counts the requests that change something (the confirmation comes before any of them). */
function changes(): string[] {
  const seen: string[] = []
  cli.pool.intercept({path: '/v1/webhook_endpoints/wh_1', method: 'GET'}).reply(200, endpoint, json).persist()
  for (const [method, path, body] of [
    ['DELETE', '/v1/webhook_endpoints/wh_1', {id: 'wh_1', object: 'webhook_endpoint', deleted: true}],
    ['POST', '/v1/webhook_endpoints/wh_1', {...endpoint, url: 'https://elsewhere.example/hooks'}],
    ['POST', '/v1/payment_methods/pm_1/detach', {id: 'pm_1', object: 'payment_method', type: 'card', card: null, customer: null, billing_details: null, livemode: false, created_at: '2026-01-01T00:00:00.000Z'}],
    ['DELETE', '/v1/routing_rules/rr_1', {id: 'rr_1', object: 'routing_rule', deleted: true}],
  ] as const)
    cli.pool
      .intercept({path, method})
      .reply(() => {
        seen.push(`${method} ${path}`)
        return {statusCode: 200, data: body, responseOptions: json}
      })
      .persist()
  return seen
}

const cases = [
  {name: 'webhooks delete', cmd: WebhooksDelete, args: ['wh_1'], sent: 'DELETE /v1/webhook_endpoints/wh_1', says: 'delete webhook endpoint wh_1'},
  {name: 'webhooks update --url (redirects its deliveries)', cmd: WebhooksUpdate, args: ['wh_1', '--url', 'https://elsewhere.example/hooks'], sent: 'POST /v1/webhook_endpoints/wh_1', says: 'send the events of wh_1 to https://elsewhere.example/hooks instead of https://shop.example/hooks'},
  {name: 'payment-methods detach', cmd: PaymentMethodsDetach, args: ['pm_1'], sent: 'POST /v1/payment_methods/pm_1/detach', says: 'detach payment method pm_1'},
  {name: 'routing-rules delete', cmd: RoutingRulesDelete, args: ['rr_1'], sent: 'DELETE /v1/routing_rules/rr_1', says: 'delete routing rule rr_1'},
] as const

describe.each(cases)('$name', ({cmd, args, sent, says}) => {
  it('without a terminal: refused without --yes, nothing sent; --yes sends it', async () => {
    const seen = changes()
    const no = await cli.run(cmd, [...at(), ...args])
    expect(no.exitCode).toBe(9)
    expect(no.stderr).toContain('without confirmation')
    expect(no.stderr).toContain('--yes')
    expect(seen).toEqual([])
    expect((await cli.run(cmd, [...at(), ...args, '--yes'])).exitCode).toBe(0)
    expect(seen).toEqual([sent])
  })

  it('on a terminal with a test key: asks y/N on stderr, naming what it will do', async () => {
    const seen = changes()
    const no = await cli.run(cmd, [...at(), ...args], {interactive: true, answers: ['']})
    expect(no.exitCode).toBe(9)
    expect(no.prompts.map((q) => q.question).join('\n')).toContain(`This will ${says}`)
    expect(seen).toEqual([])
    expect((await cli.run(cmd, [...at(), ...args], {interactive: true, answers: ['y']})).exitCode).toBe(0)
    expect(seen).toEqual([sent])
  })

  it('with a live key: a "y" is not enough, the typed word "live" is', async () => {
    const seen = changes()
    const y = await cli.run(cmd, [...at(LIVE_KEY), ...args], {interactive: true, answers: ['y']})
    expect(y.exitCode).toBe(9)
    const asked = y.prompts.map((q) => q.question).join('\n')
    expect(asked).toContain('LIVE')
    expect(asked).toContain(`This will ${says}`)
    expect(asked).toContain('Type "live" to continue')
    expect(seen).toEqual([])
    expect((await cli.run(cmd, [...at(LIVE_KEY), ...args], {interactive: true, answers: ['live']})).exitCode).toBe(0)
    expect(seen).toEqual([sent])
  })
})

it('webhooks update without a new URL (events, disable) does not ask', async () => {
  const seen = changes()
  expect((await cli.run(WebhooksUpdate, [...at(), 'wh_1', '--disable'])).exitCode).toBe(0)
  expect((await cli.run(WebhooksUpdate, [...at(), 'wh_1', '--url', 'https://shop.example/hooks', '--events', 'payment.*'])).exitCode).toBe(0)
  expect(seen).toEqual(['POST /v1/webhook_endpoints/wh_1', 'POST /v1/webhook_endpoints/wh_1'])
})
