import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {WebhookEndpoint} from '../../api/types.js'
import {at, cliEnv, errorBody, json, type CliEnv} from '../../base/test-support/cli.js'
import {signatureHeader} from '../../api/webhook-signature.js'
import type {VerifyReport} from './shared/explain.js'
import WebhooksCreate from './create.js'
import WebhooksDelete from './delete.js'
import WebhooksDeliveries from './deliveries.js'
import WebhooksGet from './get.js'
import WebhooksList from './list.js'
import WebhooksRotateSecret from './rotate-secret.js'
import WebhooksReplay from './replay.js'
import WebhooksUpdate from './update.js'
import WebhooksVerify from './verify.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const SECRET = 'whsec_AbCdEf0123456789AbCdEf0123456789AbCdEf01'

function endpoint(over: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: 'wh_1',
    object: 'webhook_endpoint',
    url: 'https://shop.example/webhooks',
    enabled_events: ['*'],
    description: null,
    metadata: {},
    status: 'enabled',
    disabled: false,
    disabled_reason: null,
    failing_since: null,
    previous_secret_expires_at: null,
    livemode: false,
    created_at: '2025-01-01T00:00:00.000Z',
    ...over,
  }
}

function capture(method: 'POST' | 'GET' | 'DELETE', path: string, reply: object, status = 200) {
  const seen: {body: Record<string, unknown>; path: string}[] = []
  cli.pool
    .intercept({path: (p) => p === path || p.startsWith(`${path}?`), method})
    .reply((o) => {
      seen.push({body: o.body ? JSON.parse(String(o.body)) : {}, path: o.path})
      return {statusCode: status, data: reply, responseOptions: json}
    })
    .persist()
  return seen
}

describe('webhooks create', () => {
  it('sends url and events, prints the endpoint and the secret once with a note to store it', async () => {
    const seen = capture('POST', '/v1/webhook_endpoints', {...endpoint({enabled_events: ['payment.*', 'refund.failed']}), secret: SECRET}, 201)
    const r = await cli.run<WebhookEndpoint>(WebhooksCreate, [...at(), '--url', 'https://shop.example/webhooks', '--events', 'payment.*', '--events', 'refund.failed,payment.*', '--description', 'shop'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]!.body).toEqual({url: 'https://shop.example/webhooks', enabled_events: ['payment.*', 'refund.failed'], description: 'shop'})
    expect(r.stdout).toContain('wh_1')
    expect(r.stdout.split(SECRET)).toHaveLength(2) // exactly once
    expect(r.stdout).toMatch(/Store it now.*shown only this once/)
  })

  it('defaults to every event; --json is the API object with the secret', async () => {
    const seen = capture('POST', '/v1/webhook_endpoints', {...endpoint(), secret: SECRET}, 201)
    const r = await cli.run(WebhooksCreate, [...at(), '--url', 'https://localhost:4443/hook', '--json'])
    expect(seen[0]!.body).toEqual({url: 'https://localhost:4443/hook', enabled_events: ['*']})
    expect(JSON.parse(r.stdout)).toMatchObject({id: 'wh_1', secret: SECRET})
  })

  it('refuses a non-HTTPS URL and a malformed event type before calling the API', async () => {
    const r = await cli.run(WebhooksCreate, [...at(), '--url', 'http://localhost:3000/hook'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('https')
    expect(r.stderr).toContain('gw listen --forward-to localhost:3000/hook')
    const bad = await cli.run(WebhooksCreate, [...at(), '--url', 'https://x.example/h', '--events', 'Payment Succeeded'])
    expect(bad.exitCode).toBe(2)
  })

  it('shows the API error for an unknown event type', async () => {
    cli.pool
      .intercept({path: '/v1/webhook_endpoints', method: 'POST'})
      .reply(400, errorBody('invalid_request_error', 'parameter_invalid', "enabled_events[0]: unknown event type 'payment.done'.", {param: 'enabled_events[0]'}), json)
    const r = await cli.run(WebhooksCreate, [...at(), '--url', 'https://x.example/h', '--events', 'payment.done'])
    // a value the user typed: the error names the flag and is a usage error (docs/api.md#cli-conventions)
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain("unknown event type 'payment.done'")
    expect(r.stderr).toContain('--events')
  })
})

describe('webhooks list, get, update, delete, rotate-secret, deliveries', () => {
  it('lists endpoints as a table, with the disabled filter', async () => {
    const seen = capture('GET', '/v1/webhook_endpoints', {object: 'list', url: '/v1/webhook_endpoints', data: [endpoint(), endpoint({id: 'wh_2', disabled: true, status: 'disabled'})], has_more: false})
    const r = await cli.run(WebhooksList, [...at(), '--no-disabled', '--limit', '5'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]!.path).toBe('/v1/webhook_endpoints?disabled=false&limit=5')
    expect(r.stdout).toContain('wh_2')
    expect(r.stdout).toContain('disabled')
  })

  it('get never shows a secret', async () => {
    capture('GET', '/v1/webhook_endpoints/wh_1', endpoint({description: 'prod', metadata: {team: 'pay'}}))
    const r = await cli.run(WebhooksGet, [...at(), 'wh_1'])
    expect(r.stdout).toMatch(/URL\s+https:\/\/shop.example\/webhooks/)
    expect(r.stdout).toMatch(/Metadata\s+team=pay/)
    expect(r.stdout).not.toContain('whsec_')
    const bad = await cli.run(WebhooksGet, [...at(), 'ep_1'])
    expect(bad.exitCode).toBe(2)
  })

  it('update sends only what changes; --disable and --enable; nothing to change is a usage error', async () => {
    const seen = capture('POST', '/v1/webhook_endpoints/wh_1', endpoint())
    await cli.run(WebhooksUpdate, [...at(), 'wh_1', '--events', 'payment.*,dispute.*', '--url', 'https://shop.example/v2', '--description', '', '--yes'])
    expect(seen[0]!.body).toEqual({url: 'https://shop.example/v2', enabled_events: ['payment.*', 'dispute.*'], description: null})
    await cli.run(WebhooksUpdate, [...at(), 'wh_1', '--disable'])
    expect(seen[1]!.body).toEqual({disabled: true})
    await cli.run(WebhooksUpdate, [...at(), 'wh_1', '--enable'])
    expect(seen[2]!.body).toEqual({disabled: false})
    const none = await cli.run(WebhooksUpdate, [...at(), 'wh_1'])
    expect(none.exitCode).toBe(2)
    expect(none.stderr).toContain('Nothing to change')
  })

  it('delete', async () => {
    capture('DELETE', '/v1/webhook_endpoints/wh_1', {id: 'wh_1', object: 'webhook_endpoint', deleted: true})
    const r = await cli.run(WebhooksDelete, [...at(), 'wh_1', '--yes'])
    expect(r.stdout).toContain('Deleted wh_1.')
    cli.pool.intercept({path: '/v1/webhook_endpoints/wh_9', method: 'DELETE'}).reply(404, errorBody('invalid_request_error', 'resource_missing', 'No such webhook endpoint: wh_9'), json)
    const missing = await cli.run(WebhooksDelete, [...at(), 'wh_9', '--yes'])
    expect(missing.exitCode).toBe(5)
  })

  it('rotate-secret prints the new secret once with the note; without --expires-in the previous one stops at once', async () => {
    const seen = capture('POST', '/v1/webhook_endpoints/wh_1/rotate_secret', {...endpoint(), secret: SECRET, previous_secret_expires_at: null})
    const r = await cli.run(WebhooksRotateSecret, [...at(), 'wh_1'])
    expect(seen).toHaveLength(1)
    expect(r.stdout.split(SECRET)).toHaveLength(2)
    expect(r.stdout).toContain('shown only this once')
    expect(r.stdout).toContain('no longer signs')
    expect(seen[0]!.body).toEqual({})
    // the help says what the default does, and how to ask for an overlap
    expect(WebhooksRotateSecret.description).toMatch(/^The new secret signs every delivery from now on, and the previous one no longer does/)
    expect(WebhooksRotateSecret.flags['expires-in'].description).toContain('[default: 0')
  })

  it('rotate-secret --expires-in sends the overlap in seconds and says until when the old secret signs', async () => {
    const until = '2026-12-01T10:00:00.000Z'
    const seen = capture('POST', '/v1/webhook_endpoints/wh_1/rotate_secret', {...endpoint(), secret: SECRET, previous_secret_expires_at: until})
    const r = await cli.run(WebhooksRotateSecret, [...at(), 'wh_1', '--expires-in', '7d'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]!.body).toEqual({expires_in: 7 * 86_400})
    expect(r.stdout).toContain(`Until ${until}`)
    const tooLong = await cli.run(WebhooksRotateSecret, [...at(), 'wh_1', '--expires-in', '30d'])
    expect(tooLong.exitCode).toBe(2)
    expect(tooLong.stderr).toContain('--expires-in')
  })

  it('rotate-secret --expires-in 0 switches at once and says so', async () => {
    const now = capture('POST', '/v1/webhook_endpoints/wh_1/rotate_secret', {...endpoint(), secret: SECRET, previous_secret_expires_at: null})
    const r0 = await cli.run(WebhooksRotateSecret, [...at(), 'wh_1', '--expires-in', '0'])
    expect(now[0]!.body).toEqual({expires_in: 0})
    expect(r0.stdout).toContain('no longer signs')
  })

  it('replay sends --since as seconds back or a date-time, --status in API words, and says what it did', async () => {
    const answer = {object: 'webhook_replay', endpoint: 'wh_1', since: '2026-11-20T00:00:00.000Z', queued: 3, rescheduled: 1, skipped: {already_received: 2, event_expired: 0}}
    const seen = capture('POST', '/v1/webhook_endpoints/wh_1/replay', answer)
    const r = await cli.run(WebhooksReplay, [...at(), 'wh_1', '--since', '2d'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]!.body).toEqual({within: 172_800})
    expect(r.stdout).toContain('3 sent anew, 1 retried now; skipped 2 already received')
    await cli.run(WebhooksReplay, [...at(), 'wh_1', '--since', '2026-11-20T00:00:00Z', '--status', 'failed,undeliverable'])
    expect(seen[1]!.body).toEqual({since: '2026-11-20T00:00:00.000Z', status: ['failed_retrying', 'undeliverable']})
    const bad = await cli.run(WebhooksReplay, [...at(), 'wh_1', '--since', '2d', '--status', 'succeeded'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('--status')
  })

  it('deliveries: a table of attempts, filtered by status', async () => {
    const d = {
      id: 'whd_1', object: 'webhook_delivery', event: 'evt_1', event_type: 'payment.succeeded', endpoint: 'wh_1', status: 'failed_retrying',
      attempts: [{at: '2025-01-01T00:00:00Z', status_code: 500, error: null, error_message: null, latency_ms: 12, response_excerpt: 'oops'}],
      next_attempt_at: '2025-01-01T00:01:00.000Z', undeliverable_reason: null, livemode: false, created_at: '2025-01-01T00:00:00Z',
    }
    const seen = capture('GET', '/v1/webhook_endpoints/wh_1/deliveries', {object: 'list', url: '/v1/webhook_endpoints/wh_1/deliveries', data: [d], has_more: false})
    const r = await cli.run(WebhooksDeliveries, [...at(), 'wh_1', '--status', 'failed_retrying'])
    expect(seen[0]!.path).toBe('/v1/webhook_endpoints/wh_1/deliveries?status=failed_retrying')
    expect(r.stdout).toContain('HTTP 500 12ms')
    expect(r.stdout).toContain('failed_retrying')
  })
})

describe('webhooks verify', () => {
  const body = JSON.stringify({id: 'evt_1', object: 'event', type: 'payment.succeeded', data: {object: {id: 'pay_1', amount: 2000}}})
  // checked at a fixed time (--now) unless a test says otherwise
  const now = 1_750_000_000

  async function verify(payload: string, header: string, extra: string[] = []) {
    const file = join(cli.dir, `body-${Math.random()}.json`)
    writeFileSync(file, payload)
    const when = extra.includes('--now') ? [] : ['--now', String(now)]
    return cli.run<VerifyReport>(WebhooksVerify, ['--secret', SECRET, '--header', header, '--payload-file', file, ...when, ...extra])
  }

  it('a valid signature: exit 0, no API key needed', async () => {
    const r = await verify(body, signatureHeader(SECRET, body, now - 5))
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/✓ Valid: a v1 signature matches, signed 5s old/)
    expect(r.result?.verdict).toBe('valid')
  })

  it('a wrong secret', async () => {
    const r = await verify(body, signatureHeader('whsec_someone_else', body, now))
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toContain('wrong secret')
    expect(r.stdout).toContain('the secret is most likely wrong')
    expect(r.stdout).not.toContain(SECRET)
  })

  it('a re-serialised body: pretty-printed JSON whose compact form matches', async () => {
    const pretty = JSON.stringify(JSON.parse(body), null, 2)
    const r = await verify(pretty, signatureHeader(SECRET, body, now))
    expect(r.exitCode).toBe(1)
    expect(r.result).toMatchObject({verdict: 'reserialized_body'})
    expect(r.stdout).toContain('re-serialised')
    expect(r.stdout).toContain('compact JSON (JSON.stringify)')
    expect(r.stdout).toContain('express.raw')
  })

  it('a body saved with a trailing newline', async () => {
    const r = await verify(`${body}\n`, signatureHeader(SECRET, body, now))
    expect(r.exitCode).toBe(1)
    expect(r.result?.verdict).toBe('trailing_newline')
  })

  it('a timestamp outside the tolerance says how far, both ways; --tolerance 0 skips it; --now checks at a given time', async () => {
    const old = await verify(body, signatureHeader(SECRET, body, now - 3 * 3600 - 120))
    expect(old.exitCode).toBe(1)
    expect(old.result).toMatchObject({verdict: 'timestamp_out_of_tolerance'})
    expect(old.stdout).toMatch(/is 3h 2m old, outside the 5m tolerance/)
    const future = await verify(body, signatureHeader(SECRET, body, now + 600))
    expect(future.stdout).toMatch(/10m in the future/)
    const skip = await verify(body, signatureHeader(SECRET, body, now - 86_400), ['--tolerance', '0'])
    expect(skip.exitCode).toBe(0)
    const then = await verify(body, signatureHeader(SECRET, body, 1_700_000_000), ['--now', '1700000100'])
    expect(then.exitCode).toBe(0)
  })

  it('a malformed header, and a header pasted with its name', async () => {
    const r = await verify(body, 'v1=abc')
    expect(r.exitCode).toBe(1)
    expect(r.result?.verdict).toBe('malformed_header')
    expect(r.stdout).toContain('no t=')
    const named = await verify(body, `Service-Signature: ${signatureHeader(SECRET, body, now)}`)
    expect(named.exitCode).toBe(0)
  })

  it('--json prints the report, still exiting 1 on failure', async () => {
    const r = await verify(body, signatureHeader('whsec_x', body, now), ['--json'])
    expect(r.exitCode).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({valid: false, verdict: 'wrong_secret', signatures: 1})
  })

  it('reads the payload from stdin with -', async () => {
    const r = await cli.run(WebhooksVerify, ['--secret', SECRET, '--header', signatureHeader(SECRET, body), '--payload-file', '-'], {stdin: body})
    expect(r.exitCode).toBe(0)
  })
})

describe('a replay without the signing secret (secrets are shown once)', () => {
  it('create and rotate-secret keep nothing, and say how to get a working secret', async () => {
    capture('POST', '/v1/webhook_endpoints', {...endpoint(), secret: 'whsec_…EF01'}, 201)
    const made = await cli.run(WebhooksCreate, [...at(), '--url', 'https://shop.example/webhooks', '--idempotency-key', 'again'])
    expect(made.exitCode, made.stderr).toBe(0)
    expect(made.stderr).toMatch(/The endpoint wh_1 was made by an earlier request with this Idempotency-Key, and its secret was shown only once/)
    expect(made.stderr).toContain('gw webhooks rotate-secret wh_1 --expires-in 0')
    expect(made.stderr).not.toMatch(/Kept the secret/)
    expect(made.stdout).not.toMatch(/Store it now/)
    capture('POST', '/v1/webhook_endpoints/wh_1/rotate_secret', {...endpoint(), secret: 'whsec_…EF01'})
    const rotated = await cli.run(WebhooksRotateSecret, [...at(), 'wh_1', '--idempotency-key', 'again'])
    expect(rotated.exitCode, rotated.stderr).toBe(0)
    expect(rotated.stderr).toMatch(/The new secret of wh_1 was made by an earlier request/)
    expect(rotated.stderr).not.toMatch(/Kept the secret/)
  })
})
