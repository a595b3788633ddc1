import {MockAgent} from 'undici'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {ApiError, GwClient, NetworkError} from './index.js'

const ORIGIN = 'https://api.test'
let mock: MockAgent
let sleeps: number[]

function client(over: Partial<ConstructorParameters<typeof GwClient>[0]> = {}) {
  return new GwClient({
    baseUrl: `${ORIGIN}/v1`,
    apiKey: 'sk_test_abc_0123456789',
    dispatcher: mock,
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    random: () => 0.5,
    ...over,
  })
}

const pay = (id: string) => ({id, object: 'payment', status: 'succeeded'})
const env = (type: string, code: string, message = 'nope') => ({error: {type, code, message, doc_url: 'd', request_id: 'req_e'}})

beforeEach(() => {
  mock = new MockAgent()
  mock.disableNetConnect()
  sleeps = []
})
afterEach(async () => {
  await mock.close()
})

describe('requests', () => {
  it('sends the bearer key, JSON headers and Service-Version, and returns the parsed body', async () => {
    let seen: Record<string, string> = {}
    mock.get(ORIGIN).intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply((o) => {
      seen = o.headers as Record<string, string>
      return {statusCode: 200, data: pay('pay_1'), responseOptions: {headers: {'content-type': 'application/json', 'request-id': 'req_1'}}}
    })
    const p = await client().payments.get('pay_1')
    expect(p.id).toBe('pay_1')
    expect(seen.authorization).toBe('Bearer sk_test_abc_0123456789')
    expect(seen.accept).toBe('application/json')
    expect(seen['service-version']).toBe('v1')
    expect(seen['idempotency-key']).toBeUndefined()
  })

  it('puts an Idempotency-Key (a UUID) on every POST, and sends JSON', async () => {
    let headers: Record<string, string> = {}
    let body = ''
    mock.get(ORIGIN).intercept({path: '/v1/payments', method: 'POST'}).reply((o) => {
      headers = o.headers as Record<string, string>
      body = String(o.body)
      return {statusCode: 201, data: pay('pay_2')}
    })
    await client().payments.create({amount: 2000, currency: 'EUR', payment_method: 'card'})
    expect(headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(headers['content-type']).toBe('application/json')
    expect(JSON.parse(body)).toEqual({amount: 2000, currency: 'EUR', payment_method: 'card'})
  })

  it('uses a given Idempotency-Key', async () => {
    let key = ''
    mock.get(ORIGIN).intercept({path: '/v1/payments/pay_1/cancel', method: 'POST'}).reply((o) => {
      key = (o.headers as Record<string, string>)['idempotency-key']
      return {statusCode: 200, data: pay('pay_1')}
    })
    await client().payments.cancel('pay_1', {idempotencyKey: 'my-key-1'})
    expect(key).toBe('my-key-1')
  })

  it('encodes query parameters and skips empty ones', async () => {
    let path = ''
    mock
      .get(ORIGIN)
      .intercept({path: (p) => p.startsWith('/v1/payments?'), method: 'GET'})
      .reply((o) => {
        path = o.path
        return {statusCode: 200, data: {object: 'list', url: '/v1/payments', data: [], has_more: false}}
      })
    await client().payments.list({status: 'succeeded', customer: undefined, reference: 'a b&c', limit: 5})
    const url = new URL(path, ORIGIN)
    expect(Object.fromEntries(url.searchParams)).toEqual({status: 'succeeded', reference: 'a b&c', limit: '5'})
  })
})

describe('errors', () => {
  it('maps the error envelope to ApiError with status, type, code, param and request_id', async () => {
    mock.get(ORIGIN).intercept({path: '/v1/payments', method: 'POST'}).reply(400, {
      error: {type: 'invalid_request_error', code: 'parameter_invalid', message: 'amount must be an integer', param: 'amount', doc_url: 'x', request_id: 'req_42'},
    })
    const err = (await client().payments.create({amount: 1, currency: 'EUR', payment_method: 'card'}).catch((e) => e)) as ApiError
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({status: 400, type: 'invalid_request_error', code: 'parameter_invalid', param: 'amount', requestId: 'req_42', retries: 0})
    expect(err.message).toBe('amount must be an integer')
  })

  it('takes request_id from the Request-Id header when the body is not an envelope', async () => {
    mock.get(ORIGIN).intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(502, 'Bad gateway', {headers: {'content-type': 'text/plain', 'request-id': 'req_hdr'}}).times(4)
    const err = (await client().payments.get('pay_1').catch((e) => e)) as ApiError
    expect(err).toMatchObject({status: 502, type: 'api_error', requestId: 'req_hdr'})
  })

  it('does not retry 400, 402 or 404', async () => {
    for (const [status, type] of [
      [400, 'invalid_request_error'],
      [402, 'card_error'],
      [404, 'invalid_request_error'],
    ] as const) {
      mock.get(ORIGIN).intercept({path: '/v1/payments', method: 'POST'}).reply(status, env(type, 'x'))
      const err = (await client().payments.create({amount: 1, currency: 'EUR', payment_method: 'card'}).catch((e) => e)) as ApiError
      expect(err.status).toBe(status)
      expect(err.retries).toBe(0)
    }
    expect(sleeps).toEqual([])
  })
})

describe('retries', () => {
  it('retries 5xx with exponential backoff and the SAME Idempotency-Key, then succeeds', async () => {
    const keys: string[] = []
    const pool = mock.get(ORIGIN)
    pool.intercept({path: '/v1/payments', method: 'POST'}).reply((o) => {
      keys.push((o.headers as Record<string, string>)['idempotency-key'])
      return {statusCode: 503, data: env('api_error', 'unavailable')}
    }).times(2)
    pool.intercept({path: '/v1/payments', method: 'POST'}).reply((o) => {
      keys.push((o.headers as Record<string, string>)['idempotency-key'])
      return {statusCode: 201, data: pay('pay_ok')}
    })
    const p = await client().payments.create({amount: 2000, currency: 'EUR', payment_method: 'card'})
    expect(p.id).toBe('pay_ok')
    expect(keys).toHaveLength(3)
    expect(new Set(keys).size).toBe(1)
    // random() = 0.5: half the step fixed plus a quarter -> 375 ms, then 750 ms
    expect(sleeps).toEqual([375, 750])
  })

  it('gives up after maxRetries (3 by default) and reports how many retries it made', async () => {
    mock.get(ORIGIN).intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(500, env('api_error', 'internal_error')).times(4)
    const err = (await client().payments.get('pay_1').catch((e) => e)) as ApiError
    expect(err.status).toBe(500)
    expect(err.retries).toBe(3)
    expect(sleeps).toHaveLength(3)
  })

  it('retries 503 with Retry-After for the budget (default 30 s), not just 3 times: a database restart of several seconds passes', async () => {
    const pool = mock.get(ORIGIN)
    const keys: string[] = []
    pool
      .intercept({path: '/v1/payments', method: 'POST'})
      .reply((o) => {
        keys.push((o.headers as Record<string, string>)['idempotency-key']!)
        return {statusCode: 503, data: env('api_error', 'service_unavailable'), responseOptions: {headers: {'retry-after': '1'}}}
      })
      .times(8)
    pool.intercept({path: '/v1/payments', method: 'POST'}).reply(201, pay('pay_9'))
    const p = await client().payments.create({amount: 2000, currency: 'EUR', payment_method: 'card'})
    expect(p.id).toBe('pay_9')
    expect(sleeps).toHaveLength(8)
    for (const ms of sleeps) expect(ms).toBeGreaterThanOrEqual(1000)
    // the same key on every attempt: the retries cannot make a second payment
    expect(new Set(keys).size).toBe(1)
  })

  it('gives up on 503 once the budget is spent, and the error carries the Idempotency-Key to retry with', async () => {
    mock.get(ORIGIN).intercept({path: '/v1/payments', method: 'POST'}).reply(503, env('api_error', 'service_unavailable'), {headers: {'retry-after': '1'}}).persist()
    const err = (await client({retryBudgetMs: 2500}).payments.create({amount: 2000, currency: 'EUR', payment_method: 'card'}, {idempotencyKey: 'order-77'}).catch((e) => e)) as ApiError
    expect(err).toMatchObject({status: 503, code: 'service_unavailable', idempotencyKey: 'order-77', retries: 2})
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2500)
  })

  it('waits Retry-After seconds on 429, then retries', async () => {
    const pool = mock.get(ORIGIN)
    pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(429, env('rate_limit_error', 'rate_limit_exceeded'), {headers: {'retry-after': '2'}})
    pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(200, pay('pay_1'))
    await client().payments.get('pay_1')
    expect(sleeps).toHaveLength(1)
    expect(sleeps[0]).toBeGreaterThanOrEqual(2000)
    expect(sleeps[0]).toBeLessThanOrEqual(2200)
  })

  it('does not wait for a Retry-After beyond the bound; the 429 surfaces with its retryAfter', async () => {
    mock.get(ORIGIN).intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(429, env('rate_limit_error', 'rate_limit_exceeded'), {headers: {'retry-after': '3600'}})
    const err = (await client().payments.get('pay_1').catch((e) => e)) as ApiError
    expect(err).toMatchObject({status: 429, code: 'rate_limit_exceeded', retryAfter: 3600})
    expect(sleeps).toEqual([])
  })

  it('retries 409 idempotency_key_in_use but not idempotency_key_reused', async () => {
    const pool = mock.get(ORIGIN)
    pool.intercept({path: '/v1/payments', method: 'POST'}).reply(409, env('idempotency_error', 'idempotency_key_in_use'))
    pool.intercept({path: '/v1/payments', method: 'POST'}).reply(201, pay('pay_1'))
    await client().payments.create({amount: 1, currency: 'EUR', payment_method: 'card'})
    expect(sleeps).toHaveLength(1)
    pool.intercept({path: '/v1/payments', method: 'POST'}).reply(409, env('idempotency_error', 'idempotency_key_reused'))
    const err = (await client().payments.create({amount: 1, currency: 'EUR', payment_method: 'card'}).catch((e) => e)) as ApiError
    expect(err.code).toBe('idempotency_key_reused')
    expect(sleeps).toHaveLength(1)
  })

  it('retries connection errors, then raises a NetworkError carrying the code', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {code: 'ECONNREFUSED'})
    mock.get(ORIGIN).intercept({path: '/v1/payments/pay_1', method: 'GET'}).replyWithError(refused).times(3)
    const err = (await client({maxRetries: 2}).payments.get('pay_1').catch((e) => e)) as NetworkError
    expect(err).toBeInstanceOf(NetworkError)
    expect(err.code).toBe('ECONNREFUSED')
    expect(err.retries).toBe(2)
    expect(err.message).toContain('connection refused')
    expect(sleeps).toHaveLength(2)
  })

  it('recovers when a connection error is followed by a success', async () => {
    const reset = Object.assign(new Error('socket hang up'), {code: 'ECONNRESET'})
    const pool = mock.get(ORIGIN)
    pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).replyWithError(reset)
    pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(200, pay('pay_1'))
    expect((await client().payments.get('pay_1')).id).toBe('pay_1')
  })

  it('does not retry a TLS verification failure', async () => {
    const tls = Object.assign(new Error('self-signed certificate'), {code: 'DEPTH_ZERO_SELF_SIGNED_CERT'})
    mock.get(ORIGIN).intercept({path: '/v1/payments/pay_1', method: 'GET'}).replyWithError(tls)
    const err = (await client().payments.get('pay_1').catch((e) => e)) as NetworkError
    expect(err.isTls).toBe(true)
    expect(err.retries).toBe(0)
    // the SDK's words: its own `ca` option and NODE_EXTRA_CA_CERTS, never the CLI's flags
    expect(err.message).toContain('new Gateway({baseUrl, apiKey, ca})')
    expect(err.message).toContain('NODE_EXTRA_CA_CERTS')
    expect(err.message).not.toMatch(/gw login|--ca-file/)
    // the CLI gives its own advice
    mock.get(ORIGIN).intercept({path: '/v1/payments/pay_1', method: 'GET'}).replyWithError(tls)
    const cli = (await client({tlsAdvice: 'Run `gw login --local`, or pass --ca-file.'}).payments.get('pay_1').catch((e) => e)) as NetworkError
    expect(cli.message).toContain('pass --ca-file')
  })
})

describe('paginate', () => {
  it('follows starting_after with the last id of each page until has_more is false', async () => {
    const paths: string[] = []
    const pages = [
      {data: [pay('pay_5'), pay('pay_4')], has_more: true},
      {data: [pay('pay_3'), pay('pay_2')], has_more: true},
      {data: [pay('pay_1')], has_more: false},
    ]
    mock
      .get(ORIGIN)
      .intercept({path: (p) => p.startsWith('/v1/payments?'), method: 'GET'})
      .reply((o) => {
        paths.push(o.path)
        return {statusCode: 200, data: {object: 'list', url: '/v1/payments', ...pages[paths.length - 1]}}
      })
      .times(3)
    const ids: string[] = []
    for await (const p of client().payments.iterate({status: 'succeeded', limit: 2})) ids.push(p.id)
    expect(ids).toEqual(['pay_5', 'pay_4', 'pay_3', 'pay_2', 'pay_1'])
    const qs = paths.map((p) => Object.fromEntries(new URL(p, ORIGIN).searchParams))
    expect(qs).toEqual([
      {status: 'succeeded', limit: '2'},
      {status: 'succeeded', limit: '2', starting_after: 'pay_4'},
      {status: 'succeeded', limit: '2', starting_after: 'pay_2'},
    ])
  })

  it('stops at max without fetching further pages', async () => {
    let calls = 0
    mock
      .get(ORIGIN)
      .intercept({path: (p) => p.startsWith('/v1/customers?'), method: 'GET'})
      .reply(() => {
        calls++
        return {statusCode: 200, data: {object: 'list', url: '/v1/customers', data: [{id: 'cus_2'}, {id: 'cus_1'}], has_more: true}}
      })
      .persist()
    const ids: string[] = []
    for await (const c of client().customers.iterate({}, 2)) ids.push(c.id)
    expect(ids).toEqual(['cus_2', 'cus_1'])
    expect(calls).toBe(1)
  })

  it('pages backwards with ending_before when that is the cursor given', async () => {
    const paths: string[] = []
    mock
      .get(ORIGIN)
      .intercept({path: (p) => p.startsWith('/v1/payments?'), method: 'GET'})
      .reply((o) => {
        paths.push(o.path)
        const data = paths.length === 1 ? [pay('pay_8'), pay('pay_7')] : [pay('pay_9')]
        return {statusCode: 200, data: {object: 'list', url: '/v1/payments', data, has_more: paths.length === 1}}
      })
      .times(2)
    const ids: string[] = []
    for await (const p of client().payments.iterate({ending_before: 'pay_6', limit: 2})) ids.push(p.id)
    expect(ids).toEqual(['pay_8', 'pay_7', 'pay_9'])
    expect(new URL(paths[1], ORIGIN).searchParams.get('ending_before')).toBe('pay_8')
  })
})
