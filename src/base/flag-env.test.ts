import {Flags} from '@oclif/core'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Payment} from '../api/types.js'
import PaymentsCreate from '../commands/payments/create.js'
import PaymentsList from '../commands/payments/list.js'
import PaymentsReview from '../commands/payments/review.js'
import Login from '../commands/login.js'
import {flagEnvName, flagsForParse, listsFromEnv, NO_ENV_FLAGS, RESERVED_ENV, withFlagEnv} from './flag-env.js'
import {apiKeySelf, at, capturePostBodies, cliEnv, json, payment, type CliEnv} from './test-support/cli.js'

describe('flag env names', () => {
  it('GW_ and the flag name in upper snake case', () => {
    expect(flagEnvName('amount')).toBe('GW_AMOUNT')
    expect(flagEnvName('forward-to')).toBe('GW_FORWARD_TO')
    expect(flagEnvName('payment-method-id')).toBe('GW_PAYMENT_METHOD_ID')
  })

  it('fills env where a flag has none, keeps a flag’s own, and skips --idempotency-key', () => {
    const shared = Flags.string({description: 'shared'})
    const input = {
      amount: shared,
      'api-key': Flags.string({env: 'GW_SERVE_API_KEY'}),
      'idempotency-key': Flags.string(),
      'max-retries': Flags.string(),
    }
    const out = withFlagEnv(input)
    expect(out.amount.env).toBe('GW_AMOUNT')
    expect(out['api-key'].env).toBe('GW_SERVE_API_KEY')
    expect(out['idempotency-key'].env).toBeUndefined()
    expect(Object.keys(NO_ENV_FLAGS)).toEqual(['idempotency-key'])
    // GW_MAX_RETRIES already means something else
    expect(RESERVED_ENV).toContain('GW_MAX_RETRIES')
    expect(out['max-retries'].env).toBeUndefined()
    // shared definitions are copied, never changed
    expect(shared.env).toBeUndefined()
  })

  it('a variable gives way to the command line: typed alternatives, missing prerequisites, a boolean "0"', () => {
    const flags = withFlagEnv({
      amount: Flags.string({exclusive: ['display-amount']}),
      'display-amount': Flags.string({exclusive: ['amount']}),
      approve: Flags.boolean({exactlyOne: ['approve', 'block']}),
      block: Flags.boolean({exactlyOne: ['approve', 'block']}),
      local: Flags.boolean(),
      'data-dir': Flags.string({dependsOn: ['local']}),
      confirm: Flags.boolean({allowNo: true}),
    })
    const env = {GW_AMOUNT: '2000', GW_APPROVE: '0', GW_DATA_DIR: '/tmp/engine', GW_CONFIRM: 'false'}
    const plain = flagsForParse(flags, [], env)
    expect(plain.amount.env).toBe('GW_AMOUNT')
    expect(plain.approve.env).toBeUndefined() // "0" is the same as not set
    expect(plain['data-dir'].env).toBeUndefined() // no --local
    expect(plain.confirm.env).toBe('GW_CONFIRM') // --[no-]confirm: "false" means --no-confirm

    const typed = flagsForParse(flags, ['--display-amount', '5.00', '--local', '--block'], {...env, GW_APPROVE: '1'})
    expect(typed.amount.env).toBeUndefined()
    expect(typed.approve.env).toBeUndefined()
    expect(typed['data-dir'].env).toBe('GW_DATA_DIR')
    expect(flagsForParse(flags, [], {GW_APPROVE: 'yes'}).approve.env).toBe('GW_APPROVE')
    expect(flagsForParse(flags, [], {GW_DATA_DIR: '/x', GW_LOCAL: '1'})['data-dir'].env).toBe('GW_DATA_DIR')
    // the flag itself typed: oclif takes the typed value
    expect(flagsForParse(flags, ['--amount', '5'], env).amount.env).toBe('GW_AMOUNT')
  })

  it('a repeatable flag read from a variable becomes a list', () => {
    const flags = {metadata: Flags.string({multiple: true}), events: Flags.string({multiple: true, delimiter: ','}), name: Flags.string()}
    const values: Record<string, unknown> = {metadata: 'order=42', events: 'a, b', name: 'x'}
    listsFromEnv(flags, values)
    expect(values).toEqual({metadata: ['order=42'], events: ['a', 'b'], name: 'x'})
  })
})

describe('commands read their flags from GW_ variables', () => {
  let cli: CliEnv
  beforeEach(async () => {
    cli = await cliEnv()
  })
  afterEach(async () => {
    await cli.cleanup()
  })

  const capturePost = (path: string, reply: object, status = 201) => capturePostBodies(cli, path, reply, status)

  it('payments create takes --amount, --currency, --card and --metadata from the environment', async () => {
    const seen = capturePost('/v1/payments', payment())
    const env = {GW_AMOUNT: '2000', GW_CURRENCY: 'eur', GW_CARD: '4242424242424242', GW_METADATA: 'order=42'}
    const r = await cli.run<Payment>(PaymentsCreate, [...at()], {env})
    expect(r.exitCode).toBe(0)
    expect(seen[0]).toMatchObject({amount: 2000, currency: 'EUR', payment_method: 'card', metadata: {order: '42'}})

    // the command line wins over the environment, and over a variable of an alternative flag
    await cli.run(PaymentsCreate, [...at(), '--amount', '500'], {env})
    expect(seen[1]).toMatchObject({amount: 500})
    const alt = await cli.run(PaymentsCreate, [...at(), '--display-amount', '7.50'], {env})
    expect(alt.exitCode).toBe(0)
    expect(seen[2]).toMatchObject({amount: 750})
  })

  it('a bad value from the environment is a usage error naming the flag', async () => {
    const r = await cli.run(PaymentsList, [...at()], {env: {GW_LIMIT: '500'}})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--limit')
  })

  it('exactly-one choices: GW_APPROVE picks one; a typed --block wins; GW_APPROVE=0 is not a choice', async () => {
    const seen = capturePost('/v1/test_helpers/payments/pay_123/review', payment(), 200)
    await cli.run(PaymentsReview, [...at(), 'pay_123'], {env: {GW_APPROVE: '1'}})
    await cli.run(PaymentsReview, [...at(), 'pay_123', '--block'], {env: {GW_APPROVE: '1'}})
    expect(seen).toEqual([{decision: 'approve'}, {decision: 'block'}])
    const none = await cli.run(PaymentsReview, [...at(), 'pay_123'], {env: {GW_APPROVE: '0'}})
    expect(none.exitCode).toBe(2)
    expect(seen).toHaveLength(2)
  })

  it('GW_DATA_DIR does not make `login --data-dir` apply without --local', async () => {
    cli.pool.intercept({path: '/v1/api_keys/self', method: 'GET'}).reply(200, apiKeySelf(), json)
    const r = await cli.run(Login, ['--base-url', 'https://api.test/v1', '--api-key', 'sk_test_unit_0123456789abcdefWXYZ'], {env: {GW_DATA_DIR: '/nonexistent/engine'}})
    expect(r.stderr).not.toContain('--data-dir')
    expect(r.exitCode).toBe(0)
  })
})
