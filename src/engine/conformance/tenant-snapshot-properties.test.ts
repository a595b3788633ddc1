// Snapshots that never half-load (docs/decisions.md#snapshots), as properties: saved snapshots mutated at random (wrong types, out-of-range
// numbers, missing and extra fields, huge strings, bad ids, URLs and dates, inside event and
// chaos-rule JSON too) and loaded; random bodies sent to every endpoint that writes a setting
// (the test clock, chaos rules, provider health). Never a 5xx (every answer is one the OpenAPI
// document allows: the harness checks), never a crash, never a change to another account; and
// whatever the API wrote, a snapshot of it loads. On SQLite and PostgreSQL (the pg-engine
// project, with fewer cases: test-support/property-runs.ts).
import fc from 'fast-check'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type AsKey, type TestEngine} from '../test-support/harness.js'
import {propertyRuns} from '../test-support/property-runs.js'
import {busyTenant} from './helpers.js'

let t: TestEngine
let a: AsKey & {id: string}
let other: AsKey & {id: string}
let saved: any
let otherBefore: unknown

const RUNS = propertyRuns(40)
const seed = process.env.GW_PROPERTY_SEED ? Number(process.env.GW_PROPERTY_SEED) : undefined

/** What an account holds, as a snapshot says (without the save's own time and the clock's reading). */
async function stateOf(who: AsKey): Promise<unknown> {
  const r = await who.api('GET', '/test_helpers/snapshot')
  expect(r.status).toBe(200)
  const {created_at: _c, engine_time: _e, ...rest} = r.body
  return rest
}

beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
  a = await busyTenant(t, 'mutated')
  saved = (await a.api('GET', '/test_helpers/snapshot')).body
  // another tenant, with nothing that changes by itself (no endpoint, no due job)
  other = await t.account('bystander')
  await other.api('POST', '/customers', {email: 'c@example.com'})
  expect((await other.api('POST', '/payments', {amount: 700, currency: 'EUR', payment_method: 'card', payment_method_data: card()})).status).toBe(201)
  otherBefore = await stateOf(other)
}, 60_000)

afterAll(async () => {
  await t.stop()
})

// ---------------------------------------------------------------- mutations

type Path = (string | number)[]

/** Every place in a value (objects' members, arrays' items), with the JSON text inside strings that hold JSON (events, chaos rules) as places too. */
function places(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at)
  if (Array.isArray(v)) v.forEach((x, i) => places(x, [...at, i], out))
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) places(x, [...at, k], out)
  return out
}

const BAD_VALUES = fc.oneof(
  fc.constantFrom<unknown>(null, true, 0, -1, 1.5, -1e21, 1e21, Number.MAX_SAFE_INTEGER + 2, '', 'abc', [], {}, [[[[]]]], {_x: {}}),
  fc.constantFrom('pay_', 'pay_!!', 'cus_0Vc8' + 'x'.repeat(300), 'evt_../../etc', 'job_ 1', 'acct_default', 'prov_nowhere', 'chaos_1'),
  fc.constantFrom('http://127.0.0.1/x', 'file:///etc/passwd', 'https://169.254.169.254/', 'https://[::1]/', 'javascript:alert(1)', 'https://'),
  fc.constantFrom('2026-02-30T00:00:00.000Z', '2026-01-01', '9999-12-31T23:59:59.999Z', '0000-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '1970-01-01T00:00:00Z', 'NaN'),
  fc.string({maxLength: 20}),
  fc.integer(),
  fc.double(),
  fc.constant('x'.repeat(100_000)),
)

type Mutation = {pick: number; action: 'replace' | 'delete' | 'add' | 'inside'; value: unknown; key: string}

const MUTATION: fc.Arbitrary<Mutation> = fc.record({
  pick: fc.nat(),
  action: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'add', 'inside'),
  value: BAD_VALUES,
  key: fc.constantFrom('extra', '_x', 'id', 'kind', '__proto__', 'constructor', ''),
})

function get(root: any, path: Path): any {
  return path.reduce((o, k) => o?.[k], root)
}

/** Applies a mutation to a copy of the snapshot's rows (a string holding JSON is mutated inside, then written back). */
function mutate(snapshot: any, m: Mutation): any {
  const s = structuredClone(snapshot)
  const all = places(s.rows, ['rows'])
  const path = all[m.pick % all.length]!
  const parentPath = path.slice(0, -1)
  const last = path[path.length - 1]
  const parent = get(s, parentPath)
  const here = get(s, path)
  if (m.action === 'inside' && typeof here === 'string' && /^[[{]/.test(here)) {
    const inner = JSON.parse(here)
    const innerPlaces = places(inner)
    const p = innerPlaces[(m.pick >> 3) % innerPlaces.length]!
    if (p.length === 0) return s
    const ip = get(inner, p.slice(0, -1))
    ip[p[p.length - 1]!] = m.value
    parent[last!] = JSON.stringify(inner)
  } else if (m.action === 'delete' && last !== undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1)
    else delete parent[last]
  } else if (m.action === 'add' && here && typeof here === 'object' && !Array.isArray(here)) {
    Object.defineProperty(here, m.key, {value: m.value, enumerable: true, writable: true, configurable: true})
  } else if (m.action === 'add' && Array.isArray(here)) {
    here.push(m.value)
  } else if (last !== undefined) {
    parent[last] = m.value
  }
  return s
}

describe('random snapshots and settings never stop the engine or touch another account', () => {
  it('a mutated snapshot is loaded or refused with a 400 naming a place in it, never a 5xx', async () => {
    let refused = 0
    await fc.assert(
      fc.asyncProperty(fc.array(MUTATION, {minLength: 1, maxLength: 3}), async (ms) => {
        const body = ms.reduce((s, m) => mutate(s, m), saved)
        const r = await a.api('POST', '/test_helpers/snapshot', body)
        expect(r.status, r.text.slice(0, 500)).toBeLessThan(500)
        if (r.status !== 200) {
          refused++
          expect(r.status, r.text.slice(0, 500)).toBe(400)
          expect(r.body.error.param, r.text.slice(0, 500)).toMatch(/^(rows|body|format|version|livemode|account)/)
        }
        // the account answers on, whatever it holds now
        expect((await a.api('GET', '/test_helpers/clock')).status).toBe(200)
      }),
      {numRuns: RUNS, seed, endOnFailure: true},
    )
    expect(refused).toBeGreaterThan(RUNS / 4)
    // the engine-made snapshot still loads, and the bystander is as it was
    expect((await a.api('POST', '/test_helpers/snapshot', saved)).status).toBe(200)
    expect(await stateOf(other)).toEqual(otherBefore)
  }, 120_000)

  it('random bodies to the endpoints that write settings are answered, and what they wrote loads as a snapshot', async () => {
    const text = fc.oneof(fc.string({maxLength: 12}), fc.constantFrom('/payments', '/payments/*', '/refunds/**', '*', 'GET', 'slow', '503', 'down', 'latency', 'delay', 'fail_first', 'shuffle', 'prov_atlas', 'degraded', 'active', 'disabled'))
    const num = fc.oneof(fc.integer({min: -5, max: 10}), fc.constantFrom(0.5, 1, 1.5, 30_000, 30_001, 86_400, 604_800, 604_801, 1e12), fc.double())
    const valueArb = fc.oneof(text, num, fc.boolean(), fc.constant(null))
    const nowArb = fc.oneof(text, fc.integer({min: 0, max: 3 * 86_400}).map((s) => new Date(Date.now() + 86_400_000 + s * 1000).toISOString()))
    const requestArb = fc.oneof(
      fc.record({path: fc.constant('/test_helpers/clock'), body: fc.record({frozen: fc.oneof(fc.boolean(), valueArb), now: nowArb}, {requiredKeys: []})}),
      fc.record({path: fc.constant('/test_helpers/clock/advance'), body: fc.record({seconds: fc.oneof(fc.integer({min: -5, max: 3 * 86_400}), valueArb)}, {requiredKeys: []})}),
      fc.record({path: fc.constant('/chaos/api'), body: fc.record({method: valueArb, path: valueArb, fault: valueArb, rate: num, count: num, for_seconds: num, latency_ms: num, seed: num}, {requiredKeys: []})}),
      fc.record({path: fc.constant('/chaos/providers'), body: fc.record({provider: valueArb, fault: valueArb, rate: num, count: num, for_seconds: num, latency_ms: num}, {requiredKeys: []})}),
      fc.record({path: fc.constant('/chaos/webhooks'), body: fc.record({fault: valueArb, endpoint: valueArb, delay_seconds: num, attempts: num, rate: num, for_seconds: num}, {requiredKeys: []})}),
      fc.record({path: fc.constantFrom('/test_helpers/providers/prov_atlas/health', '/test_helpers/providers/prov_nowhere/health'), body: fc.record({status: valueArb}, {requiredKeys: []})}),
    )
    await fc.assert(
      fc.asyncProperty(requestArb, async ({path, body}) => {
        const r = await a.api('POST', path, body)
        expect(r.status, `${path} ${JSON.stringify(body)}: ${r.text.slice(0, 300)}`).toBeLessThan(500)
      }),
      {numRuns: RUNS, seed, endOnFailure: true},
    )
    // whatever the API wrote passes the rules a snapshot load checks
    const written = (await a.api('GET', '/test_helpers/snapshot')).body
    const copy = await t.account('copy of what the API wrote')
    const r = await copy.api('POST', '/test_helpers/snapshot', written)
    expect(r.status, r.text.slice(0, 500)).toBe(200)
    expect(await stateOf(other)).toEqual(otherBefore)
  }, 120_000)
})
