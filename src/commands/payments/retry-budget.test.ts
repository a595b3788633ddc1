// After a 503 the CLI retries for a budget (GW_RETRY_BUDGET, default 30 s) honouring Retry-After,
// and when it gives up it shows the Idempotency-Key to retry with — on stderr, --json included,
// stdout keeping the API's envelope as it came (docs/decisions.md#a-newcomers-cli).
import {afterEach, beforeEach, expect, it} from 'vitest'
import {at, cliEnv, type CliEnv} from '../../base/test-support/cli.js'
import PaymentsCreate from './create.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const unavailable = {error: {type: 'api_error', code: 'service_unavailable', message: 'The database is unreachable; retry after 1s with the same Idempotency-Key.', doc_url: 'https://docs.gw.dev/errors#service_unavailable', request_id: 'req_503'}}
const json = {headers: {'content-type': 'application/json', 'request-id': 'req_503', 'retry-after': '1'}}
const args = ['--amount', '2000', '--currency', 'EUR', '--method', 'card', '--card', '4242424242424242']

it('a database restart of several seconds: the payment goes through on a later attempt with the same key', async () => {
  const keys: string[] = []
  cli.pool
    .intercept({path: '/v1/payments', method: 'POST'})
    .reply((o) => {
      keys.push((o.headers as Record<string, string>)['idempotency-key']!)
      return {statusCode: 503, data: unavailable, responseOptions: json}
    })
    .times(6)
  cli.pool.intercept({path: '/v1/payments', method: 'POST'}).reply(201, {id: 'pay_ok', object: 'payment', status: 'succeeded', amount: 2000, currency: 'EUR', provider_attempts: []}, {headers: {'content-type': 'application/json'}})
  const r = await cli.run(PaymentsCreate, [...at(), ...args, '--json'])
  expect(r.exitCode, r.stderr).toBe(0)
  expect(JSON.parse(r.stdout).id).toBe('pay_ok')
  expect(keys).toHaveLength(6)
  expect(new Set(keys).size).toBe(1)
})

it('the budget spent: exit 7, the key to retry with on stderr, and --json stdout is the envelope as it came', async () => {
  cli.pool.intercept({path: '/v1/payments', method: 'POST'}).reply(503, unavailable, json).persist()
  const r = await cli.run(PaymentsCreate, [...at(), ...args, '--idempotency-key', 'order-1042', '--json'], {env: {GW_RETRY_BUDGET: '3'}})
  expect(r.exitCode).toBe(7)
  expect(JSON.parse(r.stdout)).toEqual(unavailable)
  expect(r.stderr).toContain('--idempotency-key order-1042')
  expect(r.stderr).toMatch(/after 2 retries/)
})

it('a generated key is shown too: the user never saw it', async () => {
  let sent = ''
  cli.pool
    .intercept({path: '/v1/payments', method: 'POST'})
    .reply((o) => {
      sent = (o.headers as Record<string, string>)['idempotency-key']!
      return {statusCode: 503, data: unavailable, responseOptions: json}
    })
    .persist()
  const r = await cli.run(PaymentsCreate, [...at(), ...args], {env: {GW_RETRY_BUDGET: '1'}})
  expect(r.exitCode).toBe(7)
  expect(sent).toMatch(/^[0-9a-f-]{36}$/)
  expect(r.stderr).toContain(`--idempotency-key ${sent}`)
})
