// `gw trigger` fixtures: for each event type, the real API calls (and test helpers, and clock
// advances) that make the engine emit it, kept as fixture files (fixtures/*.json); custom ones
// come from --fixture FILE. Nothing is faked: the event comes out of the same
// flow a real integration goes through, so webhooks and `gw listen` see it like any other.
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import type {GwEvent} from '../../../api/types.js'
import {ApiError} from '../../../client/errors.js'
import type {GwClient} from '../../../client/index.js'
import {UsageError} from '../../../errors.js'

export interface Created {
  /** what the step did, e.g. "POST /v1/payments" */
  step: string
  object: string
  id: string
  status: string | null
}

/**
 * A fixture file, Stripe-style: a list of API calls, run in order; a later call can use an
 * earlier response with `${name:path}` (`${payment:id}`, `${providers:data.0.id}`), and
 * `${reference}`, `${exp_year}` (three years ahead) and `${today}` are filled in. A value that is
 * exactly one `${...}` keeps the referenced JSON type. The 14 built-in fixtures are such files
 * (fixtures/<event type>.json).
 */
export interface FixtureFile {
  _meta?: {template_version?: number; type?: string; summary?: string}
  fixtures: FixtureStep[]
}

export interface FixtureStep {
  name: string
  path: string
  method: 'get' | 'post' | 'delete' | 'GET' | 'POST' | 'DELETE'
  params?: Record<string, unknown>
  /** the step --override key=value goes to (default: the first POST) */
  main?: boolean
  /** fields the response must have, e.g. {"status": "succeeded"} */
  expect?: Record<string, unknown>
  /** why a clock advance is needed (shown) */
  why?: string
}

export interface Fixture {
  type: string
  summary: string
  /** which call the --override fields go to */
  mainCall: string
  file: FixtureFile
}

const FIXTURES_DIR = fileURLToPath(new URL('../../../../fixtures', import.meta.url))

let builtIns: Fixture[] | undefined

/** The built-in fixtures: fixtures/*.json beside the package. */
export function builtInFixtures(): Fixture[] {
  builtIns ??= readdirSync(FIXTURES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => toFixture(parseFixture(readFileSync(join(FIXTURES_DIR, f), 'utf8'), f)))
  return builtIns
}

export function toFixture(file: FixtureFile, fallbackType = 'custom'): Fixture {
  const main = mainStep(file)
  return {type: file._meta?.type ?? fallbackType, summary: file._meta?.summary ?? '', mainCall: main ? `${main.method.toUpperCase()} ${main.path}` : '(none)', file}
}

export function fixture(type: string): Fixture | undefined {
  return builtInFixtures().find((f) => f.type === type)
}

/** Checks a fixture file's shape; errors name the file and the field. */
export function parseFixture(text: string, source: string): FixtureFile {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${source} is not JSON: ${(error as Error).message}`, 'A fixture file looks like {"fixtures": [{"name": "payment", "path": "/v1/payments", "method": "post", "params": {...}}]}.')
  }
  const doc = raw as Partial<FixtureFile>
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.fixtures) || doc.fixtures.length === 0)
    throw new UsageError(`${source}: "fixtures" must be a non-empty list of API calls.`, 'e.g. {"fixtures": [{"name": "payment", "path": "/v1/payments", "method": "post", "params": {"amount": 2000}}]}')
  const names = new Set<string>()
  doc.fixtures.forEach((st, i) => {
    const at = `${source}: fixtures[${i}]`
    if (!st || typeof st !== 'object') throw new UsageError(`${at} must be an object.`)
    if (typeof st.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(st.name)) throw new UsageError(`${at}.name must be a word (letters, digits, _), got ${JSON.stringify(st.name)}.`)
    if (names.has(st.name)) throw new UsageError(`${at}.name "${st.name}" is used twice; later steps refer to steps by name.`)
    names.add(st.name)
    if (typeof st.path !== 'string' || !st.path.startsWith('/')) throw new UsageError(`${at}.path must be a path such as /v1/payments.`)
    if (typeof st.method !== 'string' || !['get', 'post', 'delete'].includes(st.method.toLowerCase())) throw new UsageError(`${at}.method must be get, post or delete.`)
    if (st.params !== undefined && (typeof st.params !== 'object' || st.params === null || Array.isArray(st.params))) throw new UsageError(`${at}.params must be an object.`)
  })
  return doc as FixtureFile
}

function mainStep(file: FixtureFile): FixtureStep | undefined {
  return file.fixtures.find((s) => s.main) ?? file.fixtures.find((s) => s.method.toLowerCase() === 'post')
}

export interface RunContext {
  client: GwClient
  reference: string
  /** --override pairs: for the main step (name undefined) or a named one */
  overrides: {step?: string; values: Record<string, unknown>}[]
  record(c: Created): void
  advanced(seconds: number, why: string): void
}

const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]+))?\}/g

function lookup(obj: unknown, path: string): unknown {
  let cur = obj
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean)) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<string, unknown>)[part]
  }
  return cur
}

/** Fills `${...}` references in a value (deeply). */
export function resolveRefs(value: unknown, vars: Record<string, unknown>, responses: Map<string, unknown>, where: string): unknown {
  const one = (name: string, path: string | undefined): unknown => {
    if (path === undefined) {
      if (!(name in vars)) throw new UsageError(`${where}: unknown variable \${${name}}.`, `Variables: ${Object.keys(vars).map((v) => `\${${v}}`).join(', ')}; responses: \${name:path}.`)
      return vars[name]
    }
    if (!responses.has(name)) throw new UsageError(`${where}: \${${name}:${path}} refers to no earlier step named "${name}".`)
    const v = lookup(responses.get(name), path)
    if (v === undefined) throw new UsageError(`${where}: the response of "${name}" has no ${path}.`)
    return v
  }
  if (typeof value === 'string') {
    const whole = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]+))?\}$/.exec(value)
    if (whole) return one(whole[1]!, whole[2])
    return value.replace(REF, (_m, name: string, path: string | undefined) => String(one(name, path)))
  }
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, vars, responses, where))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, vars, responses, where)]))
  return value
}

const objectStatus = (o: unknown): string | null => {
  const r = o as {status?: unknown; kyb_status?: unknown} | null
  return typeof r?.status === 'string' ? r.status : typeof r?.kyb_status === 'string' ? r.kyb_status : null
}

/** Runs a fixture's calls in order; returns the responses by step name. */
export async function runFixture(file: FixtureFile, ctx: RunContext): Promise<Map<string, unknown>> {
  const responses = new Map<string, unknown>()
  const now = new Date()
  const vars = {reference: ctx.reference, exp_year: now.getUTCFullYear() + 3, today: now.toISOString().slice(0, 10)}
  const main = mainStep(file)
  for (const overrides of ctx.overrides) {
    if (overrides.step && !file.fixtures.some((s) => s.name === overrides.step))
      throw new UsageError(`--override ${overrides.step}:... names no step of this fixture.`, `Steps: ${file.fixtures.map((s) => s.name).join(', ')}.`)
  }
  for (const step of file.fixtures) {
    const method = step.method.toUpperCase() as 'GET' | 'POST' | 'DELETE'
    const where = `step "${step.name}"`
    const path = String(resolveRefs(step.path, vars, responses, where)).replace(/^\/v1(?=\/)/, '')
    let params = (resolveRefs(step.params ?? {}, vars, responses, where) ?? {}) as Record<string, unknown>
    for (const o of ctx.overrides) if ((o.step === undefined && step === main) || o.step === step.name) params = deepMerge(params, o.values)
    const shown = `${method} /v1${path.split('?')[0]}`
    if (method === 'POST' && path === '/test_helpers/clock/advance') {
      const res = await ctx.client.post<unknown>(path, params)
      responses.set(step.name, res)
      ctx.advanced(Number(params.seconds), step.why ?? '')
      continue
    }
    let res: unknown
    try {
      res = method === 'GET' ? await ctx.client.get<unknown>(path) : method === 'DELETE' ? await ctx.client.delete<unknown>(path) : await ctx.client.post<unknown>(path, params)
      const r = res as {id?: unknown; object?: unknown}
      if (typeof r?.id === 'string') ctx.record({step: shown, object: String(r.object ?? ''), id: r.id, status: objectStatus(res)})
    } catch (e) {
      // a declined card answers 402 and the payment is stored as failed (docs/decisions.md#declines-and-risk-blocks)
      if (e instanceof ApiError && e.status === 402 && e.payment) {
        res = await ctx.client.payments.get(e.payment)
        ctx.record({step: `${shown} (402 ${e.code})`, object: 'payment', id: e.payment, status: 'failed'})
      } else throw e
    }
    responses.set(step.name, res)
    for (const [k, want] of Object.entries(step.expect ?? {})) {
      const got = lookup(res, k)
      if (got !== want) throw new Error(`Step "${step.name}": ${k} is ${JSON.stringify(got)}, not ${JSON.stringify(want)}; check the --override values.`)
    }
  }
  return responses
}

/** Deep-merges `patch` into `base` (objects merge, everything else replaces). */
export function deepMerge<T extends Record<string, unknown>>(base: T, patch: Record<string, unknown>): T {
  const out: Record<string, unknown> = {...base}
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k]
    if (v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur))
      out[k] = deepMerge(cur as Record<string, unknown>, v as Record<string, unknown>)
    else out[k] = v
  }
  return out as T
}

/** The events a run caused: newer than `before`, about an object it touched or of the triggered type. */
export async function eventsSince(client: GwClient, before: string | null, touched: Set<string>, type: string): Promise<GwEvent[]> {
  const out: GwEvent[] = []
  if (before) {
    let cursor = before
    for (;;) {
      const page = await client.events.list({ending_before: cursor, limit: 100})
      out.push(...[...page.data].reverse())
      if (!page.has_more || page.data.length === 0) break
      cursor = page.data[0]!.id
    }
  } else {
    for await (const e of client.events.iterate({}, 1000)) out.push(e)
    out.reverse()
  }
  return out.filter((e) => {
    const id = (e.data?.object as {id?: unknown} | undefined)?.id
    return e.type === type || (typeof id === 'string' && touched.has(id))
  })
}
