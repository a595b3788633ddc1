import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {ListEnvelope, Payment} from '../../api/types.js'
import {at, capturePosts, cliEnv, errorBody, json, LIVE_KEY, payment, TEST_KEY, type CliEnv} from '../../base/test-support/cli.js'
import PaymentsAction from './action.js'
import PaymentsCancel from './cancel.js'
import PaymentsCapture from './capture.js'
import PaymentsConfirm from './confirm.js'
import PaymentsCreate from './create.js'
import PaymentsGet from './get.js'
import PaymentsIncrement from './increment.js'
import PaymentsList from './list.js'
import PaymentsReview from './review.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

/** Records the body of every POST to `path` and answers with `reply`. */
const capturePost = (path: string, reply: object, status = 201) => capturePosts(cli, path, reply, status)

describe('payments create', () => {
  it('sends a card payment built from the flags and prints a succeeded payment', async () => {
    const seen = capturePost('/v1/payments', payment())
    const r = await cli.run<Payment>(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'eur', '--method', 'card', '--card', '4242 4242 4242 4242'])
    expect(r.exitCode).toBe(0)
    const body = seen[0].body
    expect(body).toMatchObject({
      amount: 2000,
      currency: 'EUR',
      payment_method: 'card',
      payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, cvc: '123'}},
    })
    expect(body.reference).toMatch(/^gw_\d{8}_[0-9a-f]{10}$/)
    expect(body).not.toHaveProperty('confirm')
    expect(seen[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(r.stdout).toMatch(/^pay_123 {2}succeeded/)
    expect(r.stdout).toContain('€20.00 EUR')
    expect(r.result?.id).toBe('pay_123')
  })

  it('takes --display-amount, every body flag, and an explicit idempotency key', async () => {
    const seen = capturePost('/v1/payments', payment({status: 'requires_confirmation'}))
    const r = await cli.run(PaymentsCreate, [
      ...at(),
      '--display-amount', '12.34', '--currency', 'EUR', '--card', '5555555555554444', '--exp', '08/29', '--cvc', '999',
      '--customer-email', 'jane@example.com', '--customer-name', 'Jane', '--reference', 'order-77', '--capture', 'manual',
      '--no-confirm', '--return-url', 'https://shop.example/r', '--metadata', 'a=1', '--metadata', 'b=2', '--description', 'Two shirts',
      '--idempotency-key', 'order-77-try-1',
    ])
    expect(r.exitCode).toBe(0)
    expect(seen[0].body).toEqual({
      amount: 1234,
      currency: 'EUR',
      payment_method: 'card',
      reference: 'order-77',
      payment_method_data: {type: 'card', card: {number: '5555555555554444', exp_month: 8, exp_year: 2029, cvc: '999'}},
      customer: {email: 'jane@example.com', name: 'Jane'},
      capture_method: 'manual',
      confirm: false,
      return_url: 'https://shop.example/r',
      description: 'Two shirts',
      metadata: {a: '1', b: '2'},
    })
    expect(seen[0].headers['idempotency-key']).toBe('order-77-try-1')
    expect(r.stderr).toContain('gw payments confirm pay_123')
  })

  it('charges a saved payment method for an existing customer', async () => {
    const seen = capturePost('/v1/payments', payment())
    await cli.run(PaymentsCreate, [...at(), '--amount', '500', '--currency', 'USD', '--payment-method-id', 'pm_1', '--customer', 'cus_1'])
    expect(seen[0].body).toMatchObject({amount: 500, currency: 'USD', payment_method: 'card', payment_method_id: 'pm_1', customer: {id: 'cus_1'}})
    expect(seen[0].body).not.toHaveProperty('payment_method_data')
  })

  it('prints next_action.url when the customer must act', async () => {
    const url = 'https://127.0.0.1:8443/checkout/3ds/pay_123?session=s'
    capturePost('/v1/payments', payment({status: 'requires_action', next_action: {type: 'redirect', url}}))
    const r = await cli.run(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--card', '4000000000003220'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain(`The customer must act: ${url}`)
    expect(r.stderr).toContain('gw payments action pay_123 --approve')
  })

  it('--json prints only the API object on stdout', async () => {
    capturePost('/v1/payments', payment())
    const r = await cli.run(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--card', '4242424242424242', '--json'])
    expect(JSON.parse(r.stdout)).toEqual(payment())
  })

  it('--wait follows the payment to a final state', async () => {
    capturePost('/v1/payments', payment({status: 'requires_action', next_action: {type: 'redirect', url: 'https://x/c'}}))
    const states = ['requires_action', 'processing', 'succeeded'] as const
    let i = 0
    cli.pool
      .intercept({path: '/v1/payments/pay_123', method: 'GET'})
      .reply(() => ({statusCode: 200, data: payment({status: states[Math.min(i++, 2)]}), responseOptions: json}))
      .persist()
    const r = await cli.run<Payment>(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--card', '4000000000003220', '--wait', '--json'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout).status).toBe('succeeded')
    expect(i).toBe(3)
    expect(r.stderr).toContain('The customer must act: https://x/c')
    expect(r.stderr).toContain('requires_action → processing')
  })

  it('--open launches $BROWSER with the URL', async () => {
    capturePost('/v1/payments', payment({status: 'requires_action', next_action: {type: 'redirect', url: 'https://x/c'}}))
    const r = await cli.run(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--open'], {env: {BROWSER: 'true'}})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('Opened https://x/c')
  })

  it.each([
    [['--currency', 'EUR'], /Missing the amount/],
    [['--amount', '20.00', '--currency', 'EUR'], /--display-amount 20.00/],
    [['--amount', '2000', '--currency', 'EURO'], /not an ISO 4217 currency code/],
    [['--amount', '2000', '--currency', 'EUR', '--method', 'ideel'], /Did you mean --method ideal/],
    [['--display-amount', '20.001', '--currency', 'EUR'], /EUR has 2 decimal places/],
    [['--amount', '2000', '--currency', 'EUR', '--card', '42'], /--card "42" is not a card number/],
    [['--amount', '2000', '--currency', 'EUR', '--card', '4242424242424242', '--exp', '13/30'], /month must be 01 to 12/],
    [['--amount', '2000', '--currency', 'EUR', '--metadata', 'x'], /--metadata "x" is not key=value/],
    [['--amount', '2000', '--currency', 'EUR', '--return-url', 'shop'], /--return-url "shop" is not an absolute URL/],
    [['--amount', '2000', '--currency', 'EUR', '--method', 'ideal', '--card', '4242424242424242'], /--card needs --method card/],
    [['--amount', '2000', '--display-amount', '20', '--currency', 'EUR'], /--amount and --display-amount cannot be used together/],
    [['--amount', '2000'], /Missing --currency: three-letter ISO 4217 currency code[\s\S]*Add --currency EUR/],
  ])('bad input %j exits 2 with a message naming the flag', async (args, message) => {
    const r = await cli.run(PaymentsCreate, [...at(), ...args])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stdout).toBe('')
  })

  it('a declined card exits 4 and shows the message, code, request_id and payment id', async () => {
    cli.pool.intercept({path: '/v1/payments', method: 'POST'}).reply(402, errorBody('card_error', 'card_declined', 'The card was declined.', {payment: 'pay_9'}))
    const r = await cli.run(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--card', '4000000000000002'])
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toContain('Error: The card was declined.')
    expect(r.stderr).toContain('card_declined')
    expect(r.stderr).toContain('request_id req_err_1')
    expect(r.stderr).toContain('payment pay_9')
    expect(r.stdout).toBe('')
  })

  it('with --json an error prints the error envelope on stdout and the message on stderr', async () => {
    cli.pool.intercept({path: '/v1/payments', method: 'POST'}).reply(402, errorBody('card_error', 'insufficient_funds', 'Insufficient funds.'))
    const r = await cli.run(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--card', '4000000000009995', '--json'])
    expect(r.exitCode).toBe(4)
    const out = JSON.parse(r.stdout)
    expect(out.error).toMatchObject({type: 'card_error', code: 'insufficient_funds', request_id: 'req_err_1'})
    expect(r.stderr).toContain('Insufficient funds.')
  })
})

describe('live mode guard', () => {
  it('refuses to move money without --yes when there is no terminal to ask (exit 9), sending nothing', async () => {
    const seen = capturePost('/v1/payments', payment({livemode: true}))
    const r = await cli.run(PaymentsCreate, [...at(LIVE_KEY), '--amount', '2000', '--currency', 'EUR', '--payment-method-id', 'pm_1'])
    expect(r.exitCode).toBe(9)
    expect(r.stderr).toContain('--yes')
    expect(seen).toHaveLength(0)
  })

  it('asks for "live" to be typed; a wrong answer aborts', async () => {
    const seen = capturePost('/v1/payments', payment({livemode: true}))
    const no = await cli.run(PaymentsCreate, [...at(LIVE_KEY), '--amount', '2000', '--currency', 'EUR', '--payment-method-id', 'pm_1'], {interactive: true, answers: ['y']})
    expect(no.exitCode).toBe(9)
    expect(seen).toHaveLength(0)
    const yes = await cli.run(PaymentsCreate, [...at(LIVE_KEY), '--amount', '2000', '--currency', 'EUR', '--payment-method-id', 'pm_1'], {interactive: true, answers: ['live']})
    expect(yes.exitCode).toBe(0)
    expect(seen).toHaveLength(1)
  })

  it('--yes skips the question; stderr shows the LIVE marker with a redacted key', async () => {
    capturePost('/v1/payments', payment({livemode: true}))
    const r = await cli.run(PaymentsCreate, [...at(LIVE_KEY), '--amount', '2000', '--currency', 'EUR', '--payment-method-id', 'pm_1', '--yes'])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('LIVE')
    expect(r.stderr).toContain('sk_live_…LIVE')
    expect(r.stderr + r.stdout).not.toContain(LIVE_KEY)
  })

  it('refuses raw card numbers in live mode', async () => {
    const r = await cli.run(PaymentsCreate, [...at(LIVE_KEY), '--amount', '2000', '--currency', 'EUR', '--card', '4242424242424242', '--yes'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('test mode only')
  })

  it('does not ask for reads in live mode', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(200, payment({livemode: true}))
    const r = await cli.run(PaymentsGet, [...at(LIVE_KEY), 'pay_123'])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('LIVE')
  })
})

describe('payments get', () => {
  it('shows the payment', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(200, payment(), json)
    const r = await cli.run(PaymentsGet, [...at(), 'pay_123'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('prov_a approved 12ms')
  })

  it('an unknown id exits 5 with the message and request_id', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_nope', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', "No such payment: 'pay_nope'"))
    const r = await cli.run(PaymentsGet, [...at(), 'pay_nope'])
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toContain("No such payment: 'pay_nope'")
    expect(r.stderr).toContain('request_id req_err_1')
  })

  it('an id without pay_ is a usage error that points to --reference', async () => {
    const r = await cli.run(PaymentsGet, [...at(), 'order-1'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('payment ids start with pay_')
  })

  it('a missing id is a usage error', async () => {
    const r = await cli.run(PaymentsGet, [...at()])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/Missing the id argument \(payment id \(pay_...\)\)/)
  })

  it('401 exits 3 and says how to log in, without printing the key', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(401, errorBody('authentication_error', 'api_key_invalid', 'Invalid API key.'))
    const r = await cli.run(PaymentsGet, [...at(), 'pay_1'])
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('gw login')
    expect(r.stderr + r.stdout).not.toContain(TEST_KEY)
  })

  it('429 retries with Retry-After for the retry budget and then exits 6', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(429, errorBody('rate_limit_error', 'rate_limit_exceeded', 'Too many requests.'), {headers: {'retry-after': '1'}}).times(3)
    const r = await cli.run(PaymentsGet, [...at(), 'pay_1'], {env: {GW_RETRY_BUDGET: '3'}})
    expect(r.exitCode).toBe(6)
    expect(r.stderr).toContain('after 2 retries')
  })

  it('5xx retries and then exits 7', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(500, errorBody('api_error', 'internal_error', 'Something broke.')).times(4)
    const r = await cli.run(PaymentsGet, [...at(), 'pay_1'])
    expect(r.exitCode).toBe(7)
    expect(r.stderr).toContain('Something broke.')
  })

  it('a connection error exits 8 and hints at gw serve for a local base URL', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {code: 'ECONNREFUSED'})
    const local = cli.mock.get('https://127.0.0.1:8443')
    local.intercept({path: '/v1/payments/pay_1', method: 'GET'}).replyWithError(refused).times(4)
    const r = await cli.run(PaymentsGet, ['--base-url', 'https://127.0.0.1:8443/v1', '--api-key', TEST_KEY, 'pay_1'])
    expect(r.exitCode).toBe(8)
    expect(r.stderr).toContain('connection refused')
    expect(r.stderr).toContain('gw serve')
  })

  it('--verbose shows requests, request ids and timings on stderr, never the key', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(200, payment(), json)
    const r = await cli.run(PaymentsGet, [...at(), 'pay_123', '--verbose'])
    expect(r.stderr).toContain('> GET /v1/payments/pay_123')
    expect(r.stderr).toMatch(/< 200 in \d+ms request_id=req_ok_1/)
    expect(r.stderr).not.toContain(TEST_KEY)
  })

  it('rejects a plain-http base URL', async () => {
    const r = await cli.run(PaymentsGet, ['--base-url', 'http://127.0.0.1:8443/v1', '--api-key', TEST_KEY, 'pay_1'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('not https')
  })

  it('without a key exits 3 and says to log in', async () => {
    const r = await cli.run(PaymentsGet, ['--base-url', 'https://api.test/v1', 'pay_1'])
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('gw login')
  })
})

describe('payments list', () => {
  const page = (ids: string[], has_more: boolean): ListEnvelope<Payment> => ({object: 'list', url: '/v1/payments', data: ids.map((id) => payment({id})), has_more})

  it('passes every filter and prints a table, with a hint for the next page', async () => {
    let query: Record<string, string> = {}
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/payments?'), method: 'GET'})
      .reply((o) => {
        query = Object.fromEntries(new URL(o.path, 'https://x').searchParams)
        return {statusCode: 200, data: page(['pay_2', 'pay_1'], true), responseOptions: json}
      })
    const r = await cli.run(PaymentsList, [
      ...at(), '--status', 'succeeded', '--customer', 'cus_1', '--reference', 'order-1',
      '--created-gte', '2025-01-01', '--created-lte', '2025-01-31T23:59:59Z', '--limit', '2',
    ])
    expect(r.exitCode).toBe(0)
    expect(query).toEqual({
      status: 'succeeded', customer: 'cus_1', reference: 'order-1',
      created_gte: '2025-01-01T00:00:00.000Z', created_lte: '2025-01-31T23:59:59.000Z', limit: '2',
    })
    expect(r.stdout).toContain('pay_2')
    expect(r.stdout).toContain('STATUS')
    expect(r.stderr).toContain('--starting-after pay_1')
  })

  it('--json prints the list envelope as it came', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/payments'), method: 'GET'}).reply(200, page(['pay_1'], false))
    const r = await cli.run(PaymentsList, [...at(), '--json'])
    expect(JSON.parse(r.stdout)).toEqual(page(['pay_1'], false))
  })

  it('--all --json into a pipe streams NDJSON across pages', async () => {
    const pages = [page(['pay_4', 'pay_3'], true), page(['pay_2', 'pay_1'], false)]
    const cursors: (string | null)[] = []
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/payments?'), method: 'GET'})
      .reply((o) => {
        cursors.push(new URL(o.path, 'https://x').searchParams.get('starting_after'))
        return {statusCode: 200, data: pages[cursors.length - 1], responseOptions: json}
      })
      .times(2)
    const r = await cli.run<Payment[]>(PaymentsList, [...at(), '--all', '--json', '--limit', '2'])
    expect(r.exitCode).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(['pay_4', 'pay_3', 'pay_2', 'pay_1'])
    expect(cursors).toEqual([null, 'pay_3'])
    expect(r.result).toHaveLength(4)
  })

  it('--all without --json prints one table of every page', async () => {
    const pages = [page(['pay_2'], true), page(['pay_1'], false)]
    let n = 0
    cli.pool.intercept({path: (p) => p.startsWith('/v1/payments?'), method: 'GET'}).reply(() => ({statusCode: 200, data: pages[n++]})).times(2)
    const r = await cli.run(PaymentsList, [...at(), '--all'])
    expect(r.stdout).toContain('pay_2')
    expect(r.stdout).toContain('pay_1')
  })

  it.each([
    [['--limit', '0'], /--limit must be a whole number from 1 to 100/],
    [['--limit', '500'], /--limit must be a whole number from 1 to 100/],
    [['--status', 'done'], /--status "done" is not one of: requires_confirmation,/],
    [['--starting-after', 'pay_1', '--ending-before', 'pay_2'], /--ending-before and --starting-after cannot be used together/],
    [['--created-gte', 'last week'], /--created-gte "last week" is not an ISO 8601/],
  ])('bad input %j exits 2', async (args, message) => {
    const r = await cli.run(PaymentsList, [...at(), ...args])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(message)
  })

  it('says so when there is nothing', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/payments'), method: 'GET'}).reply(200, page([], false))
    const r = await cli.run(PaymentsList, [...at()])
    expect(r.stdout.trim()).toBe('No payments.')
  })
})

describe('payment actions', () => {
  it('confirm sends the payment method', async () => {
    const seen = capturePost('/v1/payments/pay_123/confirm', payment(), 200)
    const r = await cli.run(PaymentsConfirm, [...at(), 'pay_123', '--payment-method-id', 'pm_9'])
    expect(r.exitCode).toBe(0)
    expect(seen[0].body).toEqual({payment_method_id: 'pm_9'})
  })

  it('capture sends an optional amount', async () => {
    const seen = capturePost('/v1/payments/pay_123/capture', payment(), 200)
    await cli.run(PaymentsCapture, [...at(), 'pay_123'])
    await cli.run(PaymentsCapture, [...at(), 'pay_123', '--amount', '1500'])
    expect(seen.map((s) => s.body)).toEqual([{}, {amount: 1500}])
  })

  it('after a partial capture the hint says a cancel keeps the captured money (it succeeds) and releases the rest', async () => {
    capturePost('/v1/payments/pay_123/capture', payment({status: 'requires_capture', amount: 5000, amount_captured: 3000, capture_method: 'manual'}), 200)
    const r = await cli.run(PaymentsCapture, [...at(), 'pay_123', '--amount', '3000'])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('€30.00 EUR captured, €20.00 EUR still authorized')
    expect(r.stderr).toContain('gw payments capture pay_123')
    expect(r.stderr).toContain('gw payments cancel pay_123 — it succeeds with what was captured and releases the €20.00 EUR left')
    expect(r.stderr).not.toContain('release it')
  })

  it('before any capture the hint offers capture or release', async () => {
    capturePost('/v1/payments/pay_123/increment_authorization', payment({status: 'requires_capture', amount: 6500, amount_captured: 0, capture_method: 'manual'}), 200)
    const r = await cli.run(PaymentsIncrement, [...at(), 'pay_123', '--amount', '6500'])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('Capture it with: gw payments capture pay_123   (or release it: gw payments cancel pay_123)')
  })

  it('capture of a payment not in requires_capture exits 1 with the API code', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_123/capture', method: 'POST'}).reply(400, errorBody('invalid_request_error', 'payment_not_capturable', 'This payment cannot be captured.'))
    const r = await cli.run(PaymentsCapture, [...at(), 'pay_123'])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('payment_not_capturable')
  })

  it('increment requires --amount and sends it', async () => {
    const missing = await cli.run(PaymentsIncrement, [...at(), 'pay_123'])
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toContain('amount')
    const seen = capturePost('/v1/payments/pay_123/increment_authorization', payment({status: 'requires_capture', amount: 6500}), 200)
    const r = await cli.run(PaymentsIncrement, [...at(), 'pay_123', '--amount', '6500'])
    expect(r.exitCode).toBe(0)
    expect(seen[0].body).toEqual({amount: 6500})
    expect(r.stderr).toContain('gw payments capture pay_123')
  })

  it('cancel posts to /cancel', async () => {
    const seen = capturePost('/v1/payments/pay_123/cancel', payment({status: 'canceled'}), 200)
    const r = await cli.run(PaymentsCancel, [...at(), 'pay_123'])
    expect(r.exitCode).toBe(0)
    expect(seen).toHaveLength(1)
    expect(r.stdout).toContain('canceled')
  })

  it('action takes exactly one outcome', async () => {
    const seen = capturePost('/v1/test_helpers/payments/pay_123/action', payment(), 200)
    for (const [flag, outcome] of [['--approve', 'approve'], ['--fail', 'fail'], ['--abandon', 'abandon']]) {
      const r = await cli.run(PaymentsAction, [...at(), 'pay_123', flag])
      expect(r.exitCode).toBe(0)
      expect(seen.at(-1)?.body).toEqual({outcome})
    }
    const none = await cli.run(PaymentsAction, [...at(), 'pay_123'])
    expect(none.exitCode).toBe(2)
    expect(none.stderr).toContain('Give exactly one of --abandon, --approve, --fail.')
    const two = await cli.run(PaymentsAction, [...at(), 'pay_123', '--approve', '--fail'])
    expect(two.exitCode).toBe(2)
  })

  it('review takes --approve or --block', async () => {
    const seen = capturePost('/v1/test_helpers/payments/pay_123/review', payment(), 200)
    await cli.run(PaymentsReview, [...at(), 'pay_123', '--block'])
    expect(seen[0].body).toEqual({decision: 'block'})
  })
})
