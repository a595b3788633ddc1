// The defects a newcomer met (docs/decisions.md#a-newcomers-cli), each pinned by a test (in-process, undici MockAgent).
// The built-CLI side (help, the README's cards against the engine, listen, logs tail) is in
// test/newcomer-e2e.test.ts.
import {stripVTControlCharacters} from 'node:util'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {ListEnvelope, MethodCode, Payment, Provider} from '../api/types.js'
import {at, capturePostBodies, cliEnv, errorBody, json, payment, type CliEnv} from '../base/test-support/cli.js'
import ClockAdvance from './clock/advance.js'
import ConfigGet from './config/get.js'
import DisputesDue from './disputes/due.js'
import EventsList from './events/list.js'
import EventsTail from './events/tail.js'
import Listen from './listen.js'
import Login from './login.js'
import PaymentsCreate from './payments/create.js'
import PaymentsList from './payments/list.js'
import ProvidersList from './providers/list.js'
import Whoami from './whoami.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const capturePost = (path: string, reply: object, status = 201) => capturePostBodies(cli, path, reply, status)

const card = (body: Record<string, unknown>) => (body.payment_method_data as {card: Record<string, unknown>}).card

describe('defect 2: defaults suit the card brand', () => {
  it('an Amex card gets a 4-digit security code by default; Visa and Mastercard 3', async () => {
    const seen = capturePost('/v1/payments', payment())
    for (const number of ['378282246310005', '4242424242424242', '5555555555554444']) {
      const r = await cli.run(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--card', number])
      expect(r.exitCode).toBe(0)
    }
    expect(seen.map((b) => card(b).cvc)).toEqual(['1234', '123', '123'])
  })

  it('a --cvc of the wrong length for the brand is a usage error naming --cvc, before sending', async () => {
    const r = await cli.run(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--card', '378282246310005', '--cvc', '123'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--cvc must be 4 digits for an American Express card')
  })
})

describe('defect 3: repeating a command line with the same --idempotency-key replays it', () => {
  it('sends the same body (the reference comes from the key) and the same key', async () => {
    const seen: {body: string; key: string}[] = []
    cli.pool
      .intercept({path: '/v1/payments', method: 'POST'})
      .reply((o) => {
        seen.push({body: String(o.body), key: (o.headers as Record<string, string>)['idempotency-key']!})
        return {statusCode: 201, data: payment(), responseOptions: json}
      })
      .persist()
    const argv = [...at(), '--amount', '2000', '--currency', 'EUR', '--card', '4242424242424242', '--idempotency-key', 'order-1234-try']
    expect((await cli.run(PaymentsCreate, argv)).exitCode).toBe(0)
    expect((await cli.run(PaymentsCreate, argv)).exitCode).toBe(0)
    expect(seen[0]!.key).toBe('order-1234-try')
    expect(seen[1]).toEqual(seen[0])
    expect(JSON.parse(seen[0]!.body).reference).toMatch(/^gw_key_[0-9a-f]{16}$/)
    // another key, another reference
    await cli.run(PaymentsCreate, [...argv.slice(0, -1), 'order-1235-try'])
    expect(JSON.parse(seen[2]!.body).reference).not.toBe(JSON.parse(seen[0]!.body).reference)
  })
})

describe('defect 4: errors name the flag and exit 2 for what the user typed', () => {
  it.each([
    [['--amount', '2000', '--currency', 'EUR', '--card', '4242424242424241'], /--card 4242424242424241 is not a valid card number: it fails the Luhn check/],
    [['--amount', '2000', '--currency', 'EUR', '--card', '4242424242424242', '--exp', '01/20'], /--exp 01\/20 is in the past: the card has expired/],
    [['--amount', '-100', '--currency', 'EUR'], /--amount must be positive/],
    [['--amount', '999999999999', '--currency', 'EUR'], /--amount 999999999999 is too large: at most 99,999,999 minor units/],
    [['--amount', '20.5', '--currency', 'JPY'], /JPY has no minor unit: --amount 2000 is 2000 JPY/],
    [['--amount', '2000'], /Missing --currency: three-letter ISO 4217 currency code[\s\S]*Add --currency EUR/],
    [['--amout', '2000', '--currency', 'EUR'], /Unknown flag --amout\.\s+Did you mean --amount\?/],
  ])('%j', async (args, message) => {
    const r = await cli.run(PaymentsCreate, [...at(), ...args])
    expect(r.exitCode).toBe(2)
    expect(stripVTControlCharacters(r.stderr)).toMatch(message)
    expect(r.stderr).not.toContain('The following error occurred')
    expect(r.stderr).not.toContain('payment_method_data.card')
  })

  it('a 400 about a typed field names the flag (not the API path) and exits 2; a state error stays exit 1', async () => {
    cli.pool
      .intercept({path: '/v1/payments', method: 'POST'})
      .reply(400, errorBody('invalid_request_error', 'card_number_invalid', 'payment_method_data.card.number: the card number is not supported.', {param: 'payment_method_data.card.number'}), json)
    const r = await cli.run(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--card', '4242424242424242'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('Error: --card: the card number is not supported.')
    cli.pool.intercept({path: '/v1/payments', method: 'POST'}).reply(400, errorBody('invalid_request_error', 'merchant_inactive', 'Merchant mer_1 is not active.', {param: 'merchant'}), json)
    const state = await cli.run(PaymentsCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--card', '4242424242424242', '--merchant', 'mer_1'])
    expect(state.exitCode).toBe(1)
  })
})

describe('defect 5: event type filters are checked (wildcards allowed)', () => {
  it.each([
    [EventsTail, ['--events', 'payment.succeded'], 'Did you mean --events payment.succeeded'],
    [Listen, ['--forward-to', 'localhost:3000', '--events', 'payment.succeded'], 'Did you mean --events payment.succeeded'],
    [EventsList, ['--events', 'paymnt.*'], "Did you mean --events 'payment.*'?"],
  ] as const)('%o rejects a typo with a suggestion', async (cmd, args, hint) => {
    const r = await cli.run(cmd, [...at(), ...args])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(hint)
  })

  it('known types and prefixes pass', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/events?'), method: 'GET'}).reply(200, {object: 'list', url: '/v1/events', data: [], has_more: false}, json)
    const r = await cli.run(EventsList, [...at(), '--events', 'payment.*,refund.failed', '--json'])
    expect(r.exitCode).toBe(0)
  })
})

describe('defect 6: tables fit the terminal', () => {
  const provider = (id: string, methods: MethodCode[], currencies: string[]): Provider => ({
    id,
    object: 'provider',
    methods,
    currencies,
    regions: ['EU'],
    status: 'active',
    auth_rate_7d: 0.93,
    attempts_7d: 120,
    fees: {percent_bps: 180, fixed: {EUR: 25}},
    latency_ms: {p50: 120, p99: 600},
    livemode: false,
  })

  it('providers list at 80 columns: no line wider, no wrapped cells, ids whole', async () => {
    const many: MethodCode[] = ['card', 'apple_pay', 'google_pay', 'paypal', 'ideal', 'bancontact', 'eps', 'p24', 'trustly', 'blik', 'mb_way', 'swish', 'satispay', 'mobilepay']
    const curr = ['EUR', 'USD', 'GBP', 'JPY', 'BRL', 'KWD', 'PLN', 'SEK', 'NOK', 'DKK', 'CHF', 'CZK', 'HUF', 'RON', 'CAD', 'AUD']
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/providers'), method: 'GET'})
      .reply(200, {object: 'list', url: '/v1/providers', data: [provider('prov_atlas', many, curr), provider('prov_borealis', many.slice(3), curr.slice(2))], has_more: false}, json)
    const r = await cli.run(ProvidersList, [...at()], {tty: 80})
    expect(r.exitCode).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    for (const l of lines) expect(stripVTControlCharacters(l).length).toBeLessThanOrEqual(80)
    // one line per provider (plus borders and head): nothing wrapped into a grid
    expect(lines.filter((l) => l.includes('prov_'))).toHaveLength(2)
    expect(r.stdout).toContain('prov_borealis')
    expect(r.stdout).toContain('…')
  })

  it('payments list at 100 columns drops low-value columns and keeps id, status and amount', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/payments'), method: 'GET'}).reply(200, {object: 'list', url: '/v1/payments', data: [payment({reference: 'order-with-a-rather-long-reference-0001'})], has_more: false}, json)
    const r = await cli.run(PaymentsList, [...at()], {tty: 70})
    const lines = r.stdout.trimEnd().split('\n')
    for (const l of lines) expect(stripVTControlCharacters(l).length).toBeLessThanOrEqual(70)
    expect(r.stdout).toContain('pay_123')
    expect(r.stdout).toContain('succeeded')
    expect(r.stdout).toContain('€20.00 EUR')
    expect(r.stdout).not.toContain('CREATED')
  })
})

describe('defect 8: one meaning per flag', () => {
  it('login --skip-key-check (the old --skip-verify still works as an alias)', async () => {
    const r = await cli.run(Login, ['--base-url', 'https://api.test/v1', '--api-key', 'sk_test_unit_0123456789abcdefWXYZ', '--skip-key-check'])
    expect(r.exitCode).toBe(0)
    const old = await cli.run(Login, ['--base-url', 'https://api.test/v1', '--api-key', 'sk_test_unit_0123456789abcdefWXYZ', '--skip-verify'])
    expect(old.exitCode).toBe(0)
    expect(Login.flags['skip-key-check'].aliases).toEqual(['skip-verify'])
    expect(Login.flags['skip-verify' as 'skip-key-check']).toBeUndefined()
  })

  it('events list takes --events like tail and listen (--type stays an alias)', async () => {
    const paths: string[] = []
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/events?'), method: 'GET'})
      .reply((o) => {
        paths.push(o.path)
        return {statusCode: 200, data: {object: 'list', url: '/v1/events', data: [], has_more: false}, responseOptions: json}
      })
      .persist()
    expect((await cli.run(EventsList, [...at(), '--events', 'payment.*'])).exitCode).toBe(0)
    expect((await cli.run(EventsList, [...at(), '--type', 'payment.*'])).exitCode).toBe(0)
    expect(paths[0]).toContain('type=payment.*')
    expect(paths[1]).toBe(paths[0])
  })

  it('a duration without a unit is seconds everywhere, and says so', async () => {
    cli.pool.intercept({path: '/v1/test_helpers/clock/advance', method: 'POST'}).reply(200, {object: 'test_clock', now: '2025-01-01T00:00:07Z', offset_seconds: 7, fired: {}}, json)
    const adv = await cli.run(ClockAdvance, [...at(), '7'])
    expect(adv.exitCode).toBe(0)
    expect(adv.stderr).toContain('DURATION 7 has no unit: read as 7 seconds. Write 7d for days')
    cli.pool.intercept({path: '/v1/test_helpers/clock', method: 'GET'}).reply(200, {object: 'test_clock', now: '2025-01-01T00:00:00Z', offset_seconds: 0}, json)
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes'), method: 'GET'}).reply(200, {object: 'list', url: '/v1/disputes', data: [], has_more: false}, json)
    const due = await cli.run(DisputesDue, [...at(), '--within', '7'])
    expect(due.exitCode).toBe(0)
    expect(due.stderr).toContain('--within 7 has no unit: read as 7 seconds')
  })
})

describe('defect 9: profiles and keys in config', () => {
  it('config get api_key shows the key as config list does (redacted, with its source)', async () => {
    const r = await cli.run<{value: string; source: string}>(ConfigGet, ['api_key', '--api-key', 'sk_test_unit_0123456789abcdefWXYZ'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout.trim()).toBe('sk_test_…WXYZ')
    expect(r.stdout).not.toContain('0123456789abcdef')
  })

  it('an unknown --profile is named, with the known ones', async () => {
    await cli.run(Login, ['--profile', 'local', '--base-url', 'https://api.test/v1', '--api-key', 'sk_test_unit_0123456789abcdefWXYZ', '--skip-key-check'])
    for (const cmd of [PaymentsList, Whoami]) {
      const r = await cli.run(cmd, ['--profile', 'staging'])
      expect(r.exitCode).toBe(2)
      expect(r.stderr).toContain('Unknown profile "staging" (from --profile; known: local)')
      expect(r.stderr).not.toContain('No API key')
    }
  })
})

describe('defect 11: output', () => {
  it('list --all into a pipe is NDJSON even without --json', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/payments?'), method: 'GET'}).reply(200, {object: 'list', url: '/v1/payments', data: [payment({id: 'pay_2'}), payment({id: 'pay_1'})], has_more: false} as ListEnvelope<Payment>, json)
    const r = await cli.run(PaymentsList, [...at(), '--all'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as Payment).id)).toEqual(['pay_2', 'pay_1'])
  })
})
