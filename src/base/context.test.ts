// A command's body is a plain function of a Context: tested here without oclif, on buffers.
import {describe, expect, it} from 'vitest'
import {paymentsGet} from '../commands/payments/get.js'
import {paymentsList} from '../commands/payments/list.js'
import {AbortedError} from '../errors.js'
import {at, BASE, cliEnv, mockApiPerTest, json, payment} from './test-support/cli.js'
import {testContext} from './test-support/context.js'
import {GwCommand} from './command.js'

const api = mockApiPerTest('gw-ctx-')

describe('command bodies as plain functions', () => {
  it('payments get: the client, settings and renderer come from the context', async () => {
    api.mock.get(BASE).intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(200, payment(), json)
    const t = testContext({dispatcher: api.mock, env: api.env()})
    const p = await paymentsGet(t.ctx, {id: 'pay_123'})
    expect(p.id).toBe('pay_123')
    expect(t.stdout()).toMatch(/^pay_123 {2}succeeded/)
    expect(t.stdout()).toMatch(/Amount\s+€20\.00 EUR/)
    await t.ctx.close()
  })

  it('under --json the body prints nothing itself; the base prints the result', async () => {
    api.mock.get(BASE).intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(200, payment(), json)
    const t = testContext({dispatcher: api.mock, env: api.env(), json: true})
    await paymentsGet(t.ctx, {id: 'pay_123'})
    expect(t.stdout()).toBe('')
  })

  it('payments list fits a 60-column terminal given by the context', async () => {
    api.mock.get(BASE).intercept({path: (p) => p.startsWith('/v1/payments'), method: 'GET'}).reply(200, {object: 'list', url: '/v1/payments', data: [payment()], has_more: false}, json)
    const t = testContext({dispatcher: api.mock, env: api.env(), tty: 60})
    await paymentsList(t.ctx, {all: false})
    for (const line of t.stdout().trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(60)
    expect(t.stdout()).toContain('pay_123')
  })
})

describe('the base command', () => {
  class Quiet extends GwCommand<typeof Quiet> {
    async run(): Promise<void> {
      throw new AbortedError('Canceled; no evidence was submitted.', undefined, {quiet: true})
    }
  }

  it('an error already said on screen exits with its code and prints nothing more (defect 10: one cancel message)', async () => {
    const cli = await cliEnv()
    try {
      const r = await cli.run(Quiet, [...at()])
      expect(r.exitCode).toBe(9)
      expect(r.stderr).toBe('')
    } finally {
      await cli.cleanup()
    }
  })
})
