import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Dispute, ListEnvelope} from '../../api/types.js'
import {dispute} from '../../api/test-support/objects.js'
import {at, cliEnv, errorBody, json, LIVE_KEY, type CliEnv} from '../../base/test-support/cli.js'
import DisputesAccept from './accept.js'
import DisputesDue from './due.js'
import DisputesEvidence from './evidence.js'
import DisputesGet from './get.js'
import DisputesList from './list.js'
import DisputesResolve from './resolve.js'
import DisputesSimulate from './simulate.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

/** The engine clock the mock answers with (test keys read deadlines against it). */
const NOW = '2025-03-01T00:00:00.000Z'
const later = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString()
const H = 3600
const D = 86_400


function clock(now = NOW) {
  cli.pool
    .intercept({path: '/v1/test_helpers/clock', method: 'GET'})
    .reply(200, {object: 'test_clock', now, offset_seconds: 0}, json)
    .persist()
}

function capturePost(path: string, reply: object, status = 200) {
  const seen: {body: unknown; headers: Record<string, string>}[] = []
  cli.pool
    .intercept({path, method: 'POST'})
    .reply((o) => {
      seen.push({body: o.body === undefined || o.body === null ? undefined : JSON.parse(String(o.body)), headers: o.headers as Record<string, string>})
      return {statusCode: status, data: reply, responseOptions: json}
    })
    .persist()
  return seen
}

function getDispute(dp: Dispute) {
  cli.pool.intercept({path: `/v1/disputes/${dp.id}`, method: 'GET'}).reply(200, dp, json).persist()
}

const notActionable = () =>
  errorBody('invalid_request_error', 'dispute_not_actionable', 'Dispute dp_123 cannot be answered with evidence: it is not in needs_response.')

const env = (data: Dispute[], has_more = false): ListEnvelope<Dispute> => ({object: 'list', url: '/v1/disputes', data, has_more})

describe('disputes list', () => {
  const a = dispute({id: 'dp_late', evidence_due_by: later(5 * D), created_at: '2025-02-28T03:00:00Z'})
  const b = dispute({id: 'dp_soon', evidence_due_by: later(2 * D + 4 * H), created_at: '2025-02-27T00:00:00Z'})
  const c = dispute({id: 'dp_done', status: 'won', evidence_due_by: null, created_at: '2025-02-28T05:00:00Z'})
  const d = dispute({id: 'dp_over', evidence_due_by: later(-3 * H), created_at: '2025-02-20T00:00:00Z'})
  const r = dispute({id: 'dp_rev', status: 'under_review', evidence_due_by: null, created_at: '2025-02-28T04:00:00Z'})

  it('sorts by deadline and shows the time left on the engine clock: overdue, "2d 4h left", none for the rest', async () => {
    clock()
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes'), method: 'GET'}).reply(200, env([c, r, a, b, d]), json)
    const res = await cli.run(DisputesList, [...at()])
    expect(res.exitCode).toBe(0)
    const order = ['dp_over', 'dp_soon', 'dp_late', 'dp_done', 'dp_rev'].map((id) => res.stdout.indexOf(id))
    expect(order.every((i) => i > 0)).toBe(true)
    // open deadlines first (soonest first), then the rest newest first
    expect([...order].sort((x, y) => x - y)).toEqual(order)
    expect(res.stdout).toContain('overdue 3h')
    expect(res.stdout).toContain('2d 4h left')
    expect(res.stdout).toContain('5d left')
    // one STATUS column: the time left while a response is due, else the status
    expect(res.stdout).toMatch(/dp_done\s+│?\s*won/)
    expect(res.stdout).toMatch(/dp_rev\s+│?\s*under_review/)
    expect(res.stdout).not.toContain('TIME LEFT')
  })

  it('--status needs_response reads every page and shows the soonest deadlines first, --limit of them, the hint below the table', async () => {
    clock()
    const pages = [env([b], true), env([a], false)]
    let n = 0
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'}).reply(() => ({statusCode: 200, data: pages[n++], responseOptions: json})).times(2)
    const res = await cli.run(DisputesList, [...at(), '--status', 'needs_response', '--limit', '1'])
    expect(res.exitCode, res.stderr).toBe(0)
    expect(res.stdout).toContain('dp_soon')
    expect(res.stdout).not.toContain('dp_late')
    expect(res.stderr).toContain('1 of 2 matching disputes shown')
  })

  it('passes --status, --payment and paging; the next-page hint uses the API order', async () => {
    clock()
    let query: Record<string, string> = {}
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'})
      .reply((o) => {
        query = Object.fromEntries(new URL(o.path, 'https://x').searchParams)
        return {statusCode: 200, data: env([a, b], true), responseOptions: json}
      })
    const res = await cli.run(DisputesList, [...at(), '--status', 'under_review', '--payment', 'pay_123', '--limit', '2'])
    expect(query).toEqual({status: 'under_review', payment: 'pay_123', limit: '2'})
    // the hint below the table, as payments list puts it
    expect(res.stderr).toContain('--starting-after dp_soon')
    expect(res.stderr).toContain('--starting-after dp_soon')
  })

  it('--json prints the envelope as the API sent it (newest first), without asking for the clock', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes'), method: 'GET'}).reply(200, env([c, a, b]), json)
    const res = await cli.run(DisputesList, [...at(), '--json'])
    expect(res.exitCode).toBe(0)
    expect(JSON.parse(res.stdout)).toEqual(env([c, a, b]))
  })

  it('--all sorts across pages', async () => {
    clock()
    const pages = [env([a], true), env([b], false)]
    let n = 0
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'}).reply(() => ({statusCode: 200, data: pages[n++], responseOptions: json})).times(2)
    const res = await cli.run<Dispute[]>(DisputesList, [...at(), '--all'])
    expect(res.stdout.indexOf('dp_soon')).toBeLessThan(res.stdout.indexOf('dp_late'))
    expect(res.result).toHaveLength(2)
  })

  it('a server without a test clock: deadlines count from real time', async () => {
    cli.pool.intercept({path: '/v1/test_helpers/clock', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', 'Unrecognized request URL.'))
    const farOff = dispute({evidence_due_by: new Date(Date.now() + 3 * D * 1000 + 60_000).toISOString()})
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes'), method: 'GET'}).reply(200, env([farOff]), json)
    const res = await cli.run(DisputesList, [...at()])
    expect(res.exitCode).toBe(0)
    expect(res.stdout).toContain('3d left')
  })

  it('live keys never ask for the test clock', async () => {
    const farOff = dispute({livemode: true, evidence_due_by: new Date(Date.now() + 2 * D * 1000 + 60_000).toISOString()})
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes'), method: 'GET'}).reply(200, env([farOff]), json)
    const res = await cli.run(DisputesList, [...at(LIVE_KEY)])
    expect(res.exitCode).toBe(0)
    expect(res.stdout).toContain('2d left')
  })

  it('says so when there are none; a bad status is a usage error', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes'), method: 'GET'}).reply(200, env([]), json)
    expect((await cli.run(DisputesList, [...at()])).stdout.trim()).toBe('No disputes.')
    const bad = await cli.run(DisputesList, [...at(), '--status', 'open'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/--status "open" is not one of: needs_response, under_review, won, lost, accepted/)
  })
})

describe('disputes due', () => {
  it('lists needs_response disputes due within the window, soonest first (overdue included), with a summary', async () => {
    clock()
    let query: Record<string, string> = {}
    const inWindow = dispute({id: 'dp_48h', evidence_due_by: later(48 * H)})
    const soonest = dispute({id: 'dp_2h', evidence_due_by: later(2 * H)})
    const overdue = dispute({id: 'dp_over', evidence_due_by: later(-H)})
    const outside = dispute({id: 'dp_5d', evidence_due_by: later(5 * D)})
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'})
      .reply((o) => {
        query = Object.fromEntries(new URL(o.path, 'https://x').searchParams)
        return {statusCode: 200, data: env([inWindow, outside, soonest, overdue]), responseOptions: json}
      })
    const res = await cli.run<Dispute[]>(DisputesDue, [...at(), '--within', '72h'])
    expect(res.exitCode).toBe(0)
    expect(query).toMatchObject({status: 'needs_response', limit: '100'})
    expect(res.result?.map((d) => d.id)).toEqual(['dp_over', 'dp_2h', 'dp_48h'])
    expect(res.stdout).not.toContain('dp_5d')
    expect(res.stdout.indexOf('dp_over')).toBeLessThan(res.stdout.indexOf('dp_2h'))
    expect(res.stdout).toContain('2h left')
    expect(res.stdout).toContain('2d left')
    expect(res.stderr).toContain('3 disputes need a response within 3d')
    expect(res.stderr).toContain('gw disputes evidence dp_over')
  })

  it('defaults to 72h; --json is an array in deadline order', async () => {
    clock()
    const x = dispute({id: 'dp_x', evidence_due_by: later(71 * H)})
    const y = dispute({id: 'dp_y', evidence_due_by: later(73 * H)})
    const z = dispute({id: 'dp_z', evidence_due_by: later(H)})
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'}).reply(200, env([x, y, z]), json)
    const res = await cli.run(DisputesDue, [...at(), '--json'])
    expect((JSON.parse(res.stdout) as Dispute[]).map((d) => d.id)).toEqual(['dp_z', 'dp_x'])
  })

  it('follows every page', async () => {
    clock()
    const pages = [env([dispute({id: 'dp_a', evidence_due_by: later(H)})], true), env([dispute({id: 'dp_b', evidence_due_by: later(30 * 60)})], false)]
    const cursors: (string | null)[] = []
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'})
      .reply((o) => {
        cursors.push(new URL(o.path, 'https://x').searchParams.get('starting_after'))
        return {statusCode: 200, data: pages[cursors.length - 1], responseOptions: json}
      })
      .times(2)
    const res = await cli.run<Dispute[]>(DisputesDue, [...at(), '--within', '1d'])
    expect(cursors).toEqual([null, 'dp_a'])
    expect(res.result?.map((d) => d.id)).toEqual(['dp_b', 'dp_a'])
  })

  it('nothing due says so; a bad window is a usage error', async () => {
    clock()
    cli.pool.intercept({path: (p) => p.startsWith('/v1/disputes?'), method: 'GET'}).reply(200, env([dispute({evidence_due_by: later(10 * D)})]), json)
    const none = await cli.run(DisputesDue, [...at(), '--within', '7d'])
    expect(none.stdout.trim()).toBe('No disputes need a response within 7d.')
    const bad = await cli.run(DisputesDue, [...at(), '--within', 'soon'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('--within "soon" is not a duration')
  })
})

describe('disputes get', () => {
  it('shows the dispute, the deadline with time left, and the checklist for its reason with covered keys marked', async () => {
    clock()
    getDispute(
      dispute({
        reason: 'product_not_received',
        evidence_due_by: later(2 * D + 4 * H),
        evidence: {fields: {tracking_number: '1Z999', note: 'left at door'}, files: ['https://shop.example/pod.pdf'], submitted_at: NOW},
      }),
    )
    const res = await cli.run(DisputesGet, [...at(), 'dp_123'])
    expect(res.exitCode).toBe(0)
    expect(res.stdout).toMatch(/^dp_123 {2}needs_response/)
    expect(res.stdout).toMatch(/Amount\s+€20\.00 EUR/)
    expect(res.stdout).toMatch(/Stage\s+chargeback/)
    expect(res.stdout).toContain('(2d 4h left)')
    expect(res.stdout).toContain('Evidence for product_not_received: A tracking number with delivery confirmation')
    expect(res.stdout).toMatch(/\[x\] tracking_number/)
    expect(res.stdout).toMatch(/\[-\] service_date\s+not needed: tracking_number given/)
    expect(res.stdout).toMatch(/\[ \] shipping_address/)
    expect(res.stdout).not.toMatch(/refund_policy/)
    expect(res.stdout).toContain('also: note')
    expect(res.stdout).toContain('file: https://shop.example/pod.pdf')
    expect(res.stderr).toContain('gw disputes evidence dp_123')
  })

  it('a fresh fraud dispute: nothing covered yet, and what the service attaches itself', async () => {
    clock()
    getDispute(dispute())
    const res = await cli.run(DisputesGet, [...at(), 'dp_123'])
    expect(res.stdout).toContain('nothing submitted at the chargeback stage yet')
    for (const k of ['customer_communication', 'shipping_address', 'product_description']) expect(res.stdout).toMatch(new RegExp(`\\[ \\] ${k}`))
    expect(res.stdout).toContain('attached automatically from the payment: three_d_secure, avs_result, cvv_result')
  })

  it('under review: no deadline, and the test-mode hint to rule on it', async () => {
    getDispute(dispute({status: 'under_review', evidence_due_by: null, evidence: {fields: {customer_communication: 'x'}, files: [], submitted_at: NOW}}))
    const res = await cli.run(DisputesGet, [...at(), 'dp_123'])
    expect(res.stdout).toMatch(/Evidence due\s+none \(under review\)/)
    expect(res.stdout).toMatch(/\[x\] customer_communication/)
    expect(res.stderr).toContain('gw disputes resolve dp_123 --won')
  })

  it('--json is the API object; a bad id is a usage error; an unknown one exits 5', async () => {
    getDispute(dispute())
    const res = await cli.run(DisputesGet, [...at(), 'dp_123', '--json'])
    expect(JSON.parse(res.stdout)).toEqual(dispute())
    expect((await cli.run(DisputesGet, [...at(), 'du_1'])).stderr).toContain('dispute ids start with dp_')
    cli.pool.intercept({path: '/v1/disputes/dp_nope', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', "No such dispute: 'dp_nope'"))
    expect((await cli.run(DisputesGet, [...at(), 'dp_nope'])).exitCode).toBe(5)
  })
})

describe('disputes accept', () => {
  it('without a terminal and without --yes: refuses (exit 9) and sends nothing', async () => {
    getDispute(dispute())
    const seen = capturePost('/v1/disputes/dp_123/accept', dispute({status: 'accepted', evidence_due_by: null}))
    const res = await cli.run(DisputesAccept, [...at(), 'dp_123'])
    expect(res.exitCode).toBe(9)
    expect(res.stderr).toContain('€20.00 EUR goes to the cardholder')
    expect(res.stderr).toContain('--yes')
    expect(seen).toHaveLength(0)
  })

  it('on a terminal shows amount and consequences and asks; "n" aborts, "y" accepts', async () => {
    getDispute(dispute())
    const seen = capturePost('/v1/disputes/dp_123/accept', dispute({status: 'accepted', evidence_due_by: null}))
    const no = await cli.run(DisputesAccept, [...at(), 'dp_123'], {interactive: true, answers: ['n']})
    expect(no.exitCode).toBe(9)
    expect(no.stderr).toContain('€20.00 EUR goes to the cardholder')
    expect(no.stderr).toContain('This is final')
    expect(no.prompts[0].question).toContain('Accept dp_123 and give up €20.00 EUR? [y/N]')
    expect(seen).toHaveLength(0)
    const yes = await cli.run(DisputesAccept, [...at(), 'dp_123'], {interactive: true, answers: ['y']})
    expect(yes.exitCode).toBe(0)
    expect(seen).toHaveLength(1)
    expect(seen[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(yes.stdout).toMatch(/^dp_123 {2}accepted/)
  })

  it('--yes accepts without asking', async () => {
    getDispute(dispute())
    const seen = capturePost('/v1/disputes/dp_123/accept', dispute({status: 'accepted', evidence_due_by: null}))
    const res = await cli.run(DisputesAccept, [...at(), 'dp_123', '--yes', '--json'])
    expect(res.exitCode).toBe(0)
    expect(res.prompts).toHaveLength(0)
    expect(JSON.parse(res.stdout).status).toBe('accepted')
    expect(seen).toHaveLength(1)
  })

  it('live mode asks for "live" to be typed', async () => {
    getDispute(dispute({livemode: true}))
    const seen = capturePost('/v1/disputes/dp_123/accept', dispute({status: 'accepted', livemode: true, evidence_due_by: null}))
    const res = await cli.run(DisputesAccept, [...at(LIVE_KEY), 'dp_123'], {interactive: true, answers: ['live']})
    expect(res.exitCode).toBe(0)
    expect(res.prompts[0].question).toContain('Type "live"')
    expect(seen).toHaveLength(1)
  })

  it('an already answered dispute: no question, the API error, and why in words (exit 1)', async () => {
    getDispute(dispute({status: 'under_review', evidence_due_by: null}))
    cli.pool.intercept({path: '/v1/disputes/dp_123/accept', method: 'POST'}).reply(400, notActionable())
    const res = await cli.run(DisputesAccept, [...at(), 'dp_123'], {interactive: true})
    expect(res.exitCode).toBe(1)
    expect(res.prompts).toHaveLength(0)
    expect(res.stderr).toContain('dispute_not_actionable')
    expect(res.stderr).toContain('request_id req_err_1')
    expect(res.stderr).toContain('Evidence for the chargeback stage of dp_123 was already submitted and is under review')
    expect(res.stderr).toContain('one submission per stage')
  })

  it('a resolved dispute is explained as resolved', async () => {
    getDispute(dispute({status: 'lost', evidence_due_by: null}))
    cli.pool.intercept({path: '/v1/disputes/dp_123/accept', method: 'POST'}).reply(400, notActionable())
    const res = await cli.run(DisputesAccept, [...at(), 'dp_123', '--yes'])
    expect(res.exitCode).toBe(1)
    expect(res.stderr).toContain('dp_123 is resolved: lost')
  })
})

describe('disputes evidence', () => {
  it('with flags and --yes: sends {fields, files} and prints the dispute under review with its coverage', async () => {
    const seen = capturePost(
      '/v1/disputes/dp_123/evidence',
      dispute({status: 'under_review', evidence_due_by: null, evidence: {fields: {customer_communication: 'Emails of 3 May', gift: 'yes=really'}, files: ['https://shop.example/r.pdf'], submitted_at: NOW}}),
    )
    const res = await cli.run<Dispute>(DisputesEvidence, [
      ...at(), 'dp_123', '--field', 'customer_communication=Emails of 3 May', '--field', 'gift=yes=really', '--file', 'https://shop.example/r.pdf', '--yes',
    ])
    expect(res.exitCode).toBe(0)
    expect(seen[0].body).toEqual({fields: {customer_communication: 'Emails of 3 May', gift: 'yes=really'}, files: ['https://shop.example/r.pdf']})
    expect(seen[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.stdout).toMatch(/^dp_123 {2}under_review/)
    expect(res.stdout).toMatch(/\[x\] customer_communication/)
    expect(res.stderr).toContain('Covers customer_communication; not covered: shipping_address, product_description')
    expect(res.stderr).toContain('gw disputes resolve dp_123')
  })

  it('--from-file reads {fields, files}; flags add to it and win for a key', async () => {
    const file = join(cli.dir, 'evidence.json')
    writeFileSync(file, JSON.stringify({fields: {tracking_number: '1Z1', service_date: '2025-02-01'}, files: ['https://shop.example/a.pdf']}))
    const seen = capturePost('/v1/disputes/dp_123/evidence', dispute({status: 'under_review', evidence_due_by: null}))
    const res = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--from-file', file, '--field', 'tracking_number=1Z2', '--file', 'https://shop.example/b.pdf', '--yes'])
    expect(res.exitCode).toBe(0)
    expect(seen[0].body).toEqual({fields: {tracking_number: '1Z2', service_date: '2025-02-01'}, files: ['https://shop.example/a.pdf', 'https://shop.example/b.pdf']})
  })

  it('--from-file - reads stdin', async () => {
    const seen = capturePost('/v1/disputes/dp_123/evidence', dispute({status: 'under_review', evidence_due_by: null}))
    const res = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--from-file', '-', '--yes'], {stdin: '{"fields": {"refund_policy": "30 days"}}'})
    expect(res.exitCode).toBe(0)
    expect(seen[0].body).toEqual({fields: {refund_policy: '30 days'}, files: []})
  })

  it.each([
    [['--field', 'x=1', '--file', 'http://shop.example/r.pdf', '--yes'], /--file "http:\/\/shop.example\/r.pdf" is not an HTTPS URL/],
    [['--field', 'x=1', '--file', 'receipt.pdf', '--yes'], /not an HTTPS URL/],
    [['--field', 'novalue', '--yes'], /--field "novalue" is not key=value/],
    [['--from-file', '/nonexistent/evidence.json', '--yes'], /Cannot read --from-file \/nonexistent\/evidence.json: ENOENT/],
  ])('bad evidence %j exits 2, nothing sent', async (args, message) => {
    const seen = capturePost('/v1/disputes/dp_123/evidence', dispute())
    const res = await cli.run(DisputesEvidence, [...at(), 'dp_123', ...args])
    expect(res.exitCode).toBe(2)
    expect(res.stderr).toMatch(message)
    expect(seen).toHaveLength(0)
  })

  it('a malformed --from-file is a usage error naming the problem', async () => {
    const file = join(cli.dir, 'bad.json')
    for (const [content, message] of [
      ['{not json', /is not JSON/],
      ['{"fields": {"a": 1}}', /fields\.a must be a string/],
      ['{"files": ["ftp://x"]}', /files\[0\] "ftp:\/\/x" is not an HTTPS URL/],
      ['{"evidence": {}}', /unknown key evidence/],
      ['{}', /The evidence is empty/],
    ] as const) {
      writeFileSync(file, content)
      const res = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--from-file', file, '--yes'])
      expect(res.exitCode).toBe(2)
      expect(res.stderr).toMatch(message)
    }
  })

  it('without evidence and without a terminal: a usage error that shows the flags', async () => {
    const res = await cli.run(DisputesEvidence, [...at(), 'dp_123'])
    expect(res.exitCode).toBe(2)
    expect(res.stderr).toContain('--field key=value')
    expect(res.stderr).toContain('--yes')
  })

  it('with --json the form never opens, even on a terminal', async () => {
    const res = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--json'], {interactive: true})
    expect(res.exitCode).toBe(2)
    expect(JSON.parse(res.stdout).error.type).toBe('usage_error')
  })

  it('without a terminal, --yes is required (exit 9, nothing sent)', async () => {
    const seen = capturePost('/v1/disputes/dp_123/evidence', dispute())
    const res = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'tracking_number=1Z'])
    expect(res.exitCode).toBe(9)
    expect(res.stderr).toContain('one submission per stage')
    expect(res.stderr).toContain('--yes')
    expect(seen).toHaveLength(0)
  })

  it('on a terminal with flags: a preview with the checklist and the one-submission rule, then a question', async () => {
    clock()
    getDispute(dispute({reason: 'product_not_received'}))
    const seen = capturePost('/v1/disputes/dp_123/evidence', dispute({status: 'under_review', evidence_due_by: null}))
    const no = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'tracking_number=1Z'], {interactive: true, answers: ['']})
    expect(no.exitCode).toBe(9)
    expect(no.stderr).toContain('tracking_number = 1Z')
    expect(no.stderr).toMatch(/\[x\] tracking_number/)
    expect(no.stderr).toMatch(/\[-\] service_date\s+not needed: tracking_number given/)
    expect(no.stderr).toContain('One submission per stage')
    expect(no.prompts[0].question).toContain('Submit this evidence? [y/N]')
    expect(seen).toHaveLength(0)
    const yes = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'tracking_number=1Z'], {interactive: true, answers: ['yes']})
    expect(yes.exitCode).toBe(0)
    expect(seen).toHaveLength(1)
  })

  it('on a terminal, a dispute that cannot take evidence is explained before anything is asked or sent', async () => {
    getDispute(dispute({status: 'won', evidence_due_by: null}))
    const seen = capturePost('/v1/disputes/dp_123/evidence', dispute())
    const res = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'x=1'], {interactive: true})
    expect(res.exitCode).toBe(1)
    expect(res.prompts).toHaveLength(0)
    expect(res.stderr).toContain('dp_123 cannot take evidence now')
    expect(res.stderr).toContain('dp_123 is resolved: won')
    expect(seen).toHaveLength(0)
  })

  it('a second submission at the same stage: the API error and why in words (exit 1)', async () => {
    cli.pool.intercept({path: '/v1/disputes/dp_123/evidence', method: 'POST'}).reply(400, notActionable())
    getDispute(dispute({status: 'under_review', stage: 'pre_arbitration', evidence_due_by: null}))
    const res = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'x=1', '--yes'])
    expect(res.exitCode).toBe(1)
    expect(res.stderr).toContain('dispute_not_actionable')
    expect(res.stderr).toContain('Evidence for the pre_arbitration stage of dp_123 was already submitted and is under review')
  })

  it('with --json a refusal is the API error envelope on stdout', async () => {
    cli.pool.intercept({path: '/v1/disputes/dp_123/evidence', method: 'POST'}).reply(400, notActionable())
    getDispute(dispute({status: 'accepted', evidence_due_by: null}))
    const res = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'x=1', '--yes', '--json'])
    expect(res.exitCode).toBe(1)
    expect(JSON.parse(res.stdout).error).toMatchObject({code: 'dispute_not_actionable'})
    expect(res.stderr).toContain('dp_123 is resolved: it was accepted')
  })
})

describe('disputes simulate (test helper)', () => {
  it('sends payment, reason and amount and shows the new dispute', async () => {
    const seen = capturePost('/v1/test_helpers/disputes', dispute({amount: 1000, created_at: NOW}), 201)
    const res = await cli.run(DisputesSimulate, [...at(), '--payment', 'pay_123', '--reason', 'fraudulent', '--amount', '1000'])
    expect(res.exitCode).toBe(0)
    expect(seen[0].body).toEqual({payment: 'pay_123', reason: 'fraudulent', amount: 1000})
    expect(res.stdout).toMatch(/^dp_123 {2}needs_response/)
    expect(res.stdout).toContain('(7d left)')
    expect(res.stderr).toContain('€10.00 EUR is withheld')
  })

  it('only the payment when nothing else is given; --json is the API object', async () => {
    const seen = capturePost('/v1/test_helpers/disputes', dispute({reason: 'general'}), 201)
    const res = await cli.run(DisputesSimulate, [...at(), '--payment', 'pay_123', '--json'])
    expect(seen[0].body).toEqual({payment: 'pay_123'})
    expect(JSON.parse(res.stdout).reason).toBe('general')
  })

  it.each([
    [['--reason', 'fraudulent'], /Missing --payment: the payment/],
    [['--payment', 'pay_1', '--reason', 'angry'], /--reason "angry" is not one of: fraudulent,/],
    [['--payment', 'pay_1', '--amount', '10.00'], /--display-amount|whole number/],
    [['--payment', 'p_1'], /payment ids start with pay_/],
  ])('bad input %j exits 2', async (args, message) => {
    const res = await cli.run(DisputesSimulate, [...at(), ...args])
    expect(res.exitCode).toBe(2)
    expect(res.stderr).toMatch(message)
  })

  it('a payment that cannot be disputed exits 1 with the code', async () => {
    cli.pool
      .intercept({path: '/v1/test_helpers/disputes', method: 'POST'})
      .reply(400, errorBody('invalid_request_error', 'payment_not_disputable', 'Klarna payments are chargeback-free.'))
    const res = await cli.run(DisputesSimulate, [...at(), '--payment', 'pay_123'])
    expect(res.exitCode).toBe(1)
    expect(res.stderr).toContain('payment_not_disputable')
  })
})

describe('disputes resolve (test helper)', () => {
  it.each([
    ['--won', 'won', 'Won: €20.00 EUR returns to the balance.'],
    ['--lost', 'lost', 'Lost: €20.00 EUR goes to the cardholder.'],
  ] as const)('%s sends the outcome and says what happens to the money', async (flag, outcome, said) => {
    const seen = capturePost('/v1/test_helpers/disputes/dp_123/resolve', dispute({status: outcome, evidence_due_by: null}))
    const res = await cli.run(DisputesResolve, [...at(), 'dp_123', flag])
    expect(res.exitCode).toBe(0)
    expect(seen[0].body).toEqual({outcome})
    expect(res.stdout).toMatch(new RegExp(`^dp_123 {2}${outcome}`))
    expect(res.stderr).toContain(said)
  })

  it('--escalate: the next stage needs a response again, with a new deadline', async () => {
    clock()
    const seen = capturePost('/v1/test_helpers/disputes/dp_123/resolve', dispute({stage: 'pre_arbitration', evidence_due_by: later(10 * D)}))
    const res = await cli.run(DisputesResolve, [...at(), 'dp_123', '--escalate'])
    expect(seen[0].body).toEqual({outcome: 'escalate'})
    expect(res.stdout).toMatch(/Stage\s+pre_arbitration/)
    expect(res.stdout).toContain('(10d left)')
    expect(res.stderr).toContain('Escalated to pre_arbitration')
    expect(res.stderr).toContain('gw disputes evidence dp_123')
  })

  it('exactly one outcome', async () => {
    expect((await cli.run(DisputesResolve, [...at(), 'dp_123'])).exitCode).toBe(2)
    expect((await cli.run(DisputesResolve, [...at(), 'dp_123', '--won', '--lost'])).exitCode).toBe(2)
  })

  it('a dispute still waiting for evidence cannot be ruled on, said in words', async () => {
    cli.pool
      .intercept({path: '/v1/test_helpers/disputes/dp_123/resolve', method: 'POST'})
      .reply(400, errorBody('invalid_request_error', 'dispute_not_actionable', 'Dispute dp_123 is needs_response.'))
    getDispute(dispute())
    const res = await cli.run(DisputesResolve, [...at(), 'dp_123', '--won'])
    expect(res.exitCode).toBe(1)
    expect(res.stderr).toContain('waiting for your response at the chargeback stage')
  })
})
