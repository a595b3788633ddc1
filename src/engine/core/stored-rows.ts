// What an account's rows may hold (docs/decisions.md#snapshots): every object, event, timeline job, idempotency
// record, provider statistic and setting, checked as the API would check the same thing, so
// that a snapshot load cannot put a value in the store that the engine never writes — one that
// stops the process, another account's work, or this account's. A problem is a 400
// parameter_invalid naming its path (`rows.objects[3].obj.amount`).
//
// - Objects: the response schema of their kind in the OpenAPI document (src/api/openapi), the
//   request schema's bounds for the fields a client writes (a description of at most 1000
//   characters, a URL of at most 2048), and for their internal part (`_x`, engine-only state)
//   the schemas below. Times are the engine's own form (2026-01-31T12:00:00.000Z): the store
//   compares them as text. Webhook endpoint URLs go through the rules of POST /webhook_endpoints
//   (HTTPS, and the destination policy: no link-local or metadata address, --webhook-allow).
// - Events: their JSON is an event of the document's Event schema, and the row agrees with it.
// - Jobs: a kind the engine runs, on an object of the right kind, due at an engine time, with
//   the data that kind carries.
// - Settings: each key by the rule its writer uses (the clock's by clock.ts, chaos rules rebuilt
//   by the very functions POST /chaos/... makes them with); an unknown key is refused by name.
import type {ErrorObject, ValidateFunction} from 'ajv/dist/2020.js'
import {newAjv} from '../../api/openapi/ajv.js'
import {openapiDocument} from '../../api/openapi/document.js'
import {PROVIDER_STATUSES, type ChaosRule} from '../../api/types.js'
import {DomainError, invalid} from '../domain/errors.js'
import type {DestinationPolicy} from '../domain/destinations.js'
import {providerProfile, PROVIDERS} from '../domain/providers.js'
import {checkEndpointUrl, normaliseEnabledEvents} from '../domain/webhooks.js'
import {eventSubjects} from '../domain/events.js'
import {ENGINE_SETTING_PREFIX, type Kind, KINDS, UNSNAPSHOTTED} from '../ports/store.js'
import {apiRule, providerRule, webhookRule} from './chaos-rules.js'
import {CLOCK_FROZEN_SETTING, CLOCK_OFFSET_SETTING, clockSettingProblem} from './clock.js'

type Schema = Record<string, unknown>

import {ENGINE_TIME, INTERNAL, INTERNAL_OBJECTS, JOB_SHAPES, MAY_LACK, RESPONSE, ROW_SCHEMAS, WRITTEN} from './stored-schemas.js'

// ---------------------------------------------------------------- compiled once

const ENGINE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z$/
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
/** Whether `s` is a time as the engine writes it: what Date.toISOString() gives, a real day and time of a four-digit year from 0001 (there is no year 0000 in PostgreSQL's timestamptz: a snapshot holding one was a 500 there). */
export function isEngineTime(s: string): boolean {
  const m = ENGINE_TIME_RE.exec(s)
  if (!m) return false
  const y = Number(m[1])
  const mo = Number(m[2])
  const d = Number(m[3])
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= (mo === 2 && leap ? 29 : DAYS[mo - 1]!) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 60
}

const STORED = 'gw:stored'

/**
 * A copy of the document's schemas as stored rows are checked against them: every date-time in
 * the engine's own form, integers safe integers, references to other components kept as
 * references (each compiled once and shared: inlined, the Event schema alone took a second).
 */
function storedForm(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(storedForm)
  if (!s || typeof s !== 'object') return s
  const out: Schema = {}
  for (const [k, v] of Object.entries(s)) {
    if (k === 'x-checked-by-use-case') continue
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) out[k] = `${STORED}#/$defs/${v.slice('#/components/schemas/'.length)}`
    else out[k] = k === 'format' && v === 'date-time' ? ENGINE_TIME : storedForm(v)
  }
  if (out.type === 'integer') Object.assign(out, {minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...out})
  return out
}

/** A validator to compile: its name, and its schema (made when first asked for). */
interface Spec {
  key: string
  schema: () => Schema
}

/**
 * The validators, each compiled on first use (an object kind, the events, a job kind): a
 * snapshot usually holds a few kinds, and each compile holds the event loop.
 */
class Validators {
  private readonly schemas: Record<string, Schema>
  // the first error is the one named; references compiled once each and called, not inlined into every schema using them
  private readonly ajv = newAjv({allErrors: false, inlineRefs: false, validateSchema: false, optimize: false})
  private readonly cache = new Map<string, ValidateFunction>()

  constructor() {
    this.ajv.addFormat(ENGINE_TIME, isEngineTime)
    const doc = openapiDocument() as {components: {schemas: Record<string, Schema>}}
    this.schemas = storedForm(doc.components.schemas) as Record<string, Schema>
    // (the document's schemas are checked by its own tests: not again here)
    this.ajv.addSchema({$id: STORED, $defs: this.schemas})
  }

  get(spec: Spec): ValidateFunction {
    let v = this.cache.get(spec.key)
    if (!v) this.cache.set(spec.key, (v = this.ajv.compile(spec.schema())))
    return v
  }

  /**
   * Compiles a validator and the components it refers to, one per turn of the event loop,
   * leaves first: a kind's first check costs the event loop a few milliseconds at a time, not
   * the hundreds its whole compile takes at once.
   */
  async prepare(spec: Spec): Promise<void> {
    if (this.cache.has(spec.key)) return
    const seen = new Set<string>()
    const order: string[] = []
    const visit = (x: unknown): void => {
      if (Array.isArray(x)) return x.forEach(visit)
      if (!x || typeof x !== 'object') return
      for (const [k, v] of Object.entries(x)) {
        if (k !== '$ref' || typeof v !== 'string' || !v.startsWith(`${STORED}#/$defs/`)) {
          visit(v)
          continue
        }
        const name = v.slice(`${STORED}#/$defs/`.length)
        if (seen.has(name)) continue
        seen.add(name)
        visit(this.schemas[name])
        order.push(name)
      }
    }
    const schema = spec.schema()
    visit(schema)
    for (const name of order) {
      await new Promise((r) => setImmediate(r))
      this.ajv.getSchema(`${STORED}#/$defs/${name}`)
    }
    await new Promise((r) => setImmediate(r))
    if (!this.cache.has(spec.key)) this.cache.set(spec.key, this.ajv.compile(schema))
  }

  private ref(name: string): Schema {
    return {$ref: `${STORED}#/$defs/${name}`}
  }

  row(which: keyof typeof ROW_SCHEMAS): Spec {
    return {key: `row:${which}`, schema: () => ROW_SCHEMAS[which]}
  }

  /** The check of a stored object of a kind (undefined: a kind no snapshot holds). */
  object(kind: Kind): Spec | undefined {
    if (!INTERNAL_OBJECTS[kind] && !RESPONSE[kind]) return undefined
    return {key: `object:${kind}`, schema: () => this.objectSchema(kind)}
  }

  private objectSchema(kind: Kind): Schema {
    const own = INTERNAL_OBJECTS[kind]
    if (own) return own
    const s = this.schemas[RESPONSE[kind]!]!
    const props = {...(s.properties as Record<string, Schema>)}
    for (const [field, body] of WRITTEN[kind] ?? []) props[field] = {allOf: [props[field], {anyOf: [{type: 'null'}, (this.schemas[body]!.properties as Record<string, Schema>)[field]]}]}
    const internal = INTERNAL[kind]
    let required = (s.required as string[]).filter((r) => !MAY_LACK[kind]?.includes(r))
    if (internal) {
      props._x = internal.schema
      if (internal.required) required = [...required, '_x']
    }
    return {...s, properties: props, required}
  }

  readonly event: Spec = {key: 'event', schema: () => this.ref('Event')}
  readonly chaosRule: Spec = {key: 'chaos', schema: () => this.ref('ChaosRule')}

  jobRef(kind: string): Spec {
    return {key: `job-ref:${kind}`, schema: () => JOB_SHAPES[kind]!.ref}
  }

  jobData(kind: string): Spec | undefined {
    const data = JOB_SHAPES[kind]!.data
    return data && {key: `job-data:${kind}`, schema: () => data}
  }
}

let validators: Validators | undefined
const compile = (): Validators => (validators ??= new Validators())

// ---------------------------------------------------------------- problems, as the API words them

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'string' ? `'${v.length > 60 ? `${v.slice(0, 60)}...` : v}'` : String(v))

/** `/obj/attempts/2/at` as `.obj.attempts[2].at` (numbers in arrays). */
function pathOf(root: unknown, pointer: string): {path: string; value: unknown} {
  let value = root
  let path = ''
  if (pointer === '') return {path, value}
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    path += Array.isArray(value) ? `[${seg}]` : `.${seg}`
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[seg] : undefined
  }
  return {path, value}
}

/** The first error of a failed validation, as the 400 the API would answer (the deepest error first: the one that names the field). */
function problem(errors: ErrorObject[] | null | undefined, root: unknown, at: string, what: string): DomainError {
  const all = (errors ?? []).filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'allOf' && e.keyword !== 'if')
  const e = all.sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length)[0] ?? errors?.[0]
  if (!e) return invalid(at, `${at} is not ${what}.`)
  const {path: rel, value} = pathOf(root, e.instancePath)
  const path = at + rel
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'required':
      return invalid(`${path}.${String(p.missingProperty)}`, `${path}.${String(p.missingProperty)} is missing: ${what} has it.`)
    case 'additionalProperties':
      return invalid(`${path}.${String(p.additionalProperty)}`, `${path}.${String(p.additionalProperty)} is not a field of ${what} at this place.`)
    case 'type':
      return invalid(path, `${path} must be ${/^[aeiou]/.test(String(p.type)) ? 'an' : 'a'} ${String(p.type).replace(',', ' or ')}; got ${kindOf(value)}.`)
    case 'enum':
    case 'const': {
      const allowed = ((p.allowedValues as unknown[] | undefined) ?? [p.allowedValue]).map(String)
      return invalid(path, `${path} must be ${allowed.length === 1 ? allowed[0] : `one of ${allowed.slice(0, 12).join(', ')}${allowed.length > 12 ? ', ...' : ''}`}; got ${kindOf(value)}.`)
    }
    case 'format':
      return invalid(path, p.format === ENGINE_TIME ? `${path} must be a UTC time as the engine writes it, such as 2026-01-31T12:00:00.000Z; got ${kindOf(value)}.` : `${path} must be a valid ${String(p.format)}; got ${kindOf(value)}.`)
    case 'pattern': {
      const prefix = /^\^(\w+)_\[0-9A-Za-z\]\+\$$/.exec(String(p.pattern))
      return invalid(path, prefix ? `${path} must be an id starting with ${prefix[1]}_; got ${kindOf(value)}.` : `${path} must match ${String(p.pattern)}; got ${kindOf(value)}.`)
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return invalid(path, `${path} must be ${String(p.comparison)} ${String(p.limit)}; got ${kindOf(value)}.`)
    case 'maxLength':
      return invalid(path, `${path} must be at most ${String(p.limit)} characters.`)
    default:
      return invalid(path, `${path} ${e.message ?? 'is invalid'}; got ${kindOf(value)}.`)
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

// ---------------------------------------------------------------- settings

const COUNTER = /^\d{1,15}$/
const CHAOS_ID = '[0-9A-Za-z]+'

/** Each setting an account may hold: the rule of the key, and of its value. */
const SETTINGS: {key: RegExp; name: string; problem: (value: string, key: string) => string | undefined}[] = [
  {key: new RegExp(`^${CLOCK_OFFSET_SETTING}$`), name: 'the clock offset', problem: (v, k) => clockSettingProblem(k, v)},
  {key: new RegExp(`^${CLOCK_FROZEN_SETTING}$`), name: 'the frozen clock', problem: (v, k) => clockSettingProblem(k, v)},
  {key: /^chaos_rules$/, name: 'the chaos rules', problem: (v) => chaosRulesProblem(v)},
  {key: new RegExp(`^chaos_(hits|seen):chaos_${CHAOS_ID}(:holds)?$`), name: "a chaos rule's counter", problem: (v, k) => (COUNTER.test(v) ? undefined : `${k} counts faults: a whole number, 0 or more; got '${v.slice(0, 40)}'.`)},
  {key: /^chaos_degraded:prov_[0-9A-Za-z]+$/, name: "a down rule's mark on a provider", problem: (v, k) => providerKeyProblem(k) ?? (v === '' || new RegExp(`^chaos_${CHAOS_ID}$`).test(v) ? undefined : `${k} is empty or the id of the chaos rule that marked the provider degraded; got '${v.slice(0, 40)}'.`)},
  {key: /^provider_status:prov_[0-9A-Za-z]+$/, name: "a provider's health", problem: (v, k) => providerKeyProblem(k) ?? ((PROVIDER_STATUSES as readonly string[]).includes(v) ? undefined : `${k} must be one of ${PROVIDER_STATUSES.join(', ')}; got '${v.slice(0, 40)}'.`)},
  {key: /^(settlement_scheduled|payout_ledger)$/, name: 'a settlement marker', problem: (v, k) => (v === '1' ? undefined : `${k} is a marker the engine sets to '1'; got '${v.slice(0, 40)}'.`)},
  {key: /^settlement_unpaid_reports$/, name: 'the unpaid settlement reports', problem: (v, k) => idListProblem(v, k, 'stl')},
]

function providerKeyProblem(key: string): string | undefined {
  const provider = key.slice(key.indexOf(':') + 1)
  return providerProfile(provider) ? undefined : `${key} names no provider of this engine (${PROVIDERS.map((p) => p.id).join(', ')}).`
}

function idListProblem(v: string, key: string, prefix: string): string | undefined {
  let list: unknown
  try {
    list = JSON.parse(v)
  } catch {
    return `${key} must be a JSON array of ${prefix}_ ids; got '${v.slice(0, 40)}'.`
  }
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && new RegExp(`^${prefix}_[0-9A-Za-z]+$`).test(x))) return `${key} must be a JSON array of ${prefix}_ ids.`
  return undefined
}

/** The chaos rules of an account, parsed (a problem: why they are not rules the API would have made). */
export function chaosRulesProblem(text: string): string | undefined {
  let rules: unknown
  try {
    rules = JSON.parse(text)
  } catch {
    return `chaos_rules must be a JSON array of chaos rules; got '${text.slice(0, 40)}'.`
  }
  if (!Array.isArray(rules)) return 'chaos_rules must be a JSON array of chaos rules.'
  for (let i = 0; i < rules.length; i++) {
    const p = chaosRuleProblem(rules[i])
    if (p) return `chaos_rules[${i}]: ${p}`
  }
  return undefined
}

/**
 * Why a stored chaos rule is not one the API would have made, or undefined: its shape by the
 * ChaosRule schema, then the rule made again from its fields by the same function POST /chaos/...
 * uses (the same bounds: rate, latency, delay, attempts, a window of at most 7 days) must be it.
 */
export function chaosRuleProblem(r: unknown): string | undefined {
  const check = compile().get(compile().chaosRule)
  if (!check(r)) return problem(check.errors, r, 'rule', 'a chaos rule').message
  const rule = r as ChaosRule
  const created = new Date(rule.created_at)
  const forMs = Date.parse(rule.until) - created.getTime()
  if (!(forMs > 0 && forMs % 1000 === 0)) return `until must be a whole number of seconds after created_at; got ${rule.until}.`
  const common = {rate: rule.rate === 1 ? undefined : rule.rate, count: rule.count ?? undefined, seed: rule.seed ?? undefined, for_seconds: forMs / 1000}
  let made: ChaosRule
  try {
    if (rule.kind === 'api') made = apiRule({method: rule.method as 'GET', path: rule.path, fault: rule.fault, latency_ms: rule.latency_ms ?? undefined, ...common}, rule.id, created)
    else if (rule.kind === 'provider') made = providerRule({provider: rule.provider, fault: rule.fault, latency_ms: rule.latency_ms ?? undefined, ...common}, rule.id, created)
    else made = webhookRule({fault: rule.fault, endpoint: rule.endpoint ?? undefined, delay_seconds: rule.delay_seconds ?? undefined, attempts: rule.attempts ?? undefined, ...common}, rule.id, created)
  } catch (e) {
    return e instanceof DomainError ? `${e.detail.param ?? 'rule'}: ${e.message}` : `not a rule the API makes (${(e as Error).message}).`
  }
  const fields = new Set([...Object.keys(made), ...Object.keys(rule)])
  for (const f of fields)
    if (JSON.stringify((made as unknown as Record<string, unknown>)[f]) !== JSON.stringify((rule as unknown as Record<string, unknown>)[f]))
      return `${f} is ${JSON.stringify((rule as unknown as Record<string, unknown>)[f])}, which POST /v1/chaos/${rule.kind === 'webhooks' ? 'webhooks' : rule.kind === 'provider' ? 'providers' : 'api'} never makes of these fields (it makes ${JSON.stringify((made as unknown as Record<string, unknown>)[f])}).`
  return undefined
}

/** Settings of the engine as a whole, kept with the platform account: no snapshot carries or replaces them. */
export const isEngineSetting = (key: string): boolean => key.startsWith(ENGINE_SETTING_PREFIX)

/** Why an account setting's value is not one the engine writes, or undefined; an unknown key is a problem too. */
export function settingProblem(key: string, value: string): string | undefined {
  if (isEngineSetting(key)) return `${key} is a setting of the whole engine (gw serve's flags), not of an account: snapshots neither hold nor replace it.`
  const rule = SETTINGS.find((s) => s.key.test(key))
  if (!rule) return `${key.slice(0, 80)} is not a setting gw keeps (known: the clock, chaos rules and their counters, provider health, settlement markers).`
  return rule.problem(value, key)
}

// ---------------------------------------------------------------- rows

/** The kinds a snapshot may hold objects of. */
const SNAPSHOT_KINDS = (Object.keys(KINDS) as Kind[]).filter((k) => !UNSNAPSHOTTED.has(k) && (RESPONSE[k] || INTERNAL_OBJECTS[k]))

/**
 * Checks an account's rows one at a time (a snapshot loaded in parts), keeping what spans rows:
 * ids seen (each once per kind), idempotency keys, statistics' days. Each method throws the 400
 * naming the first problem; rows it accepts are the engine's own (events' subjects filled in
 * from their JSON).
 */
export class RowChecker {
  private readonly c = compile()
  /** ids seen, by kind */
  private readonly ids = new Map<string, Set<string>>()
  /** each kind's object check, once asked for */
  private readonly kinds = new Map<string, ValidateFunction>()
  private objectRow: ValidateFunction | undefined
  private readonly events = new Set<string>()
  private readonly jobs = new Set<string>()
  private readonly keys = new Set<string>()
  private readonly days = new Set<string>()

  constructor(
    /** where webhooks may go: an endpoint's URL must be one POST /webhook_endpoints takes */
    private readonly destinations: DestinationPolicy,
  ) {}

  /** Compiles, a little at a time, what checking these rows of a section takes (see Validators.prepare). */
  async prepare(section: 'objects' | 'events' | 'jobs' | 'idempotency' | 'stats' | 'settings', rows: readonly unknown[]): Promise<void> {
    const c = this.c
    const specs: (Spec | undefined)[] = []
    if (section === 'objects') {
      specs.push(c.row('object'))
      for (const kind of new Set(rows.map((r) => (r as {kind?: unknown} | null)?.kind))) if (typeof kind === 'string' && SNAPSHOT_KINDS.includes(kind as Kind)) specs.push(c.object(kind as Kind))
    } else if (section === 'events') specs.push(c.row('event'), c.event)
    else if (section === 'jobs') {
      specs.push(c.row('job'))
      for (const kind of new Set(rows.map((r) => (r as {kind?: unknown} | null)?.kind))) if (typeof kind === 'string' && Object.hasOwn(JOB_SHAPES, kind)) specs.push(c.jobRef(kind), c.jobData(kind))
    } else if (section === 'idempotency') specs.push(c.row('idempotency'))
    else if (section === 'stats') specs.push(c.row('stat'))
    else specs.push(c.chaosRule)
    for (const spec of specs) if (spec) await c.prepare(spec)
  }

  object(o: unknown, at: string): void {
    const shape = (this.objectRow ??= this.c.get(this.c.row('object')))
    if (!shape(o)) throw problem(shape.errors, o, at, 'an object row {kind, obj, version}')
    const row = o as {kind: string; obj: Record<string, unknown>; version: number}
    let check = this.kinds.get(row.kind)
    if (check === undefined) {
      if (UNSNAPSHOTTED.has(row.kind as Kind)) throw invalid(`${at}.kind`, `${at}.kind is ${row.kind}: snapshots hold no keys or accounts.`)
      const spec = SNAPSHOT_KINDS.includes(row.kind as Kind) ? this.c.object(row.kind as Kind) : undefined
      if (!spec) throw invalid(`${at}.kind`, `${at}.kind must be one of ${SNAPSHOT_KINDS.join(', ')}; got ${kindOf(row.kind)}.`)
      this.kinds.set(row.kind, (check = this.c.get(spec)))
    }
    // an endpoint's URL and events first, in the words of POST /webhook_endpoints
    if (row.kind === 'webhook_endpoint') this.endpoint(row.obj, `${at}.obj`)
    if (!check(row.obj)) throw problem(check.errors, row.obj, `${at}.obj`, `a ${row.kind.replace(/_/g, ' ')}`)
    if (row.obj.livemode === true) throw invalid(`${at}.obj.livemode`, `${at}.obj.livemode is true: snapshots are of test mode data only.`)
    let ids = this.ids.get(row.kind)
    if (!ids) this.ids.set(row.kind, (ids = new Set()))
    const id = row.obj.id as string
    if (ids.has(id)) throw invalid(`${at}.obj.id`, `${at}.obj.id ${id} is a second ${row.kind.replace(/_/g, ' ')} with this id.`)
    ids.add(id)
  }

  /** An endpoint's URL and events as POST /webhook_endpoints takes them. */
  private endpoint(ep: Record<string, unknown>, at: string): void {
    const url = ep.url
    if (typeof url !== 'string') return // the schema names it
    const bad = checkEndpointUrl(url)
    if (bad) throw invalid(`${at}.url`, `${at}.${bad}`)
    const refused = this.destinations.urlRefusal(new URL(url))
    if (refused) throw invalid(`${at}.url`, `${at}.url: ${refused}.`)
    if (!Array.isArray(ep.enabled_events) || !ep.enabled_events.every((e) => typeof e === 'string')) return
    const events = normaliseEnabledEvents(ep.enabled_events)
    if ('error' in events) throw invalid(`${at}.enabled_events${events.index >= 0 ? `[${events.index}]` : ''}`, `${at}.${events.error}`)
  }

  /** An event row; returns it with its subjects as its JSON says. */
  event(e: unknown, at: string): void {
    const shape = this.c.get(this.c.row('event'))
    if (!shape(e)) throw problem(shape.errors, e, at, 'an event row {id, type, created_at, json}')
    const row = e as {id: string; type: string; created_at: string; json: string; object_id?: string | null; payment?: string | null}
    let parsed: unknown
    try {
      parsed = JSON.parse(row.json)
    } catch (err) {
      throw invalid(`${at}.json`, `${at}.json must be the event's JSON text: ${(err as Error).message}.`)
    }
    const event = this.c.get(this.c.event)
    if (!event(parsed)) throw problem(event.errors, parsed, `${at}.json`, 'an event')
    const ev = parsed as {id: string; type: string; created_at: string; livemode: boolean; data: {object: Record<string, unknown>}}
    for (const f of ['id', 'type', 'created_at'] as const)
      if (ev[f] !== row[f]) throw invalid(`${at}.${f}`, `${at}.${f} is '${row[f]}' but the event's JSON says '${ev[f]}'.`)
    if (ev.livemode) throw invalid(`${at}.json`, `${at}.json is a live mode event: snapshots are of test mode data only.`)
    if (this.events.has(row.id)) throw invalid(`${at}.id`, `${at}.id ${row.id} is a second event with this id.`)
    this.events.add(row.id)
    // what the event is about is read from its JSON, not taken from the row
    const s = eventSubjects(ev)
    row.object_id = s.object_id
    row.payment = s.payment
  }

  job(j: unknown, at: string): void {
    const shape = this.c.get(this.c.row('job'))
    if (!shape(j)) throw problem(shape.errors, j, at, 'a job row {id, kind, ref, due_at, data?}')
    const row = j as {id: string; kind: string; ref: string; due_at: string; data?: Record<string, unknown>}
    const ref = this.c.get(this.c.jobRef(row.kind))
    if (!ref(row.ref)) throw problem(ref.errors, row.ref, `${at}.ref`, `the ref of a ${row.kind} job`)
    const dataSpec = this.c.jobData(row.kind)
    const data = dataSpec && this.c.get(dataSpec)
    if (data) {
      if (row.data === undefined) throw invalid(`${at}.data`, `${at}.data is missing: a ${row.kind} job carries ${Object.keys((JOB_SHAPES[row.kind]!.data as {properties: object}).properties).join(', ')}.`)
      if (!data(row.data)) throw problem(data.errors, row.data, `${at}.data`, `the data of a ${row.kind} job`)
    } else if (row.data !== undefined) throw invalid(`${at}.data`, `${at}.data: a ${row.kind} job carries no data.`)
    if (this.jobs.has(row.id)) throw invalid(`${at}.id`, `${at}.id ${row.id} is a second job with this id.`)
    this.jobs.add(row.id)
  }

  idempotency(r: unknown, at: string): void {
    const shape = this.c.get(this.c.row('idempotency'))
    if (!shape(r)) throw problem(shape.errors, r, at, 'an idempotency record {scope, key, request_hash, status, body, created_at, expires_at}')
    const row = r as {scope: string; key: string; body: string; created_at: string; expires_at: string}
    try {
      JSON.parse(row.body)
    } catch (err) {
      throw invalid(`${at}.body`, `${at}.body must be the JSON response the key replays: ${(err as Error).message}.`)
    }
    const window = Date.parse(row.expires_at) - Date.parse(row.created_at)
    if (!(window > 0 && window <= 86_400_000)) throw invalid(`${at}.expires_at`, `${at}.expires_at must be after created_at, by 24 hours at most (a key's window).`)
    const key = `${row.scope}\u0000${row.key}`
    if (this.keys.has(key)) throw invalid(`${at}.key`, `${at}.key is a second record of the Idempotency-Key '${row.key.slice(0, 60)}'.`)
    this.keys.add(key)
  }

  stat(s: unknown, at: string): void {
    const shape = this.c.get(this.c.row('stat'))
    if (!shape(s)) throw problem(shape.errors, s, at, 'a provider statistic {provider, day, approved, total}')
    const row = s as {provider: string; day: string; approved: number; total: number}
    if (row.approved > row.total) throw invalid(`${at}.approved`, `${at}.approved (${row.approved}) must not exceed total (${row.total}).`)
    const key = `${row.provider} ${row.day}`
    if (this.days.has(key)) throw invalid(`${at}.day`, `${at}.day: a second statistic of ${row.provider} on ${row.day}.`)
    this.days.add(key)
  }

  settings(s: unknown, at: string): void {
    if (!isObject(s)) throw invalid(at, `${at} must be an object of settings (key: string value).`)
    for (const [k, v] of Object.entries(s)) {
      if (typeof v !== 'string') throw invalid(`${at}.${k}`, `${at}.${k} must be a string; got ${kindOf(v)}.`)
      const p = settingProblem(k, v)
      if (p) throw invalid(`${at}.${k}`, `${at}.${p.startsWith(k) ? p : `${k}: ${p}`}`)
    }
  }
}

/** The job kinds rows may hold (the engine's registered ones: a test keeps the two lists equal). */
export const JOB_KINDS: readonly string[] = Object.keys(JOB_SHAPES)
