// Request validation compiled from the OpenAPI document (src/api/openapi): the contract and the
// behaviour cannot drift. ajv (JSON Schema 2020-12, ajv-formats) decides whether a body is valid;
// when it is not, the first problem in the order the engine has always checked (unknown fields
// of an object first, then its fields in document order, depth first) becomes the same ApiError
// the hand-written validation (validate.ts) throws: same code, param and message.
//
// Schema extensions read here (documented in docs/api.md):
// - x-hint: completes the message of a type/enum error ("must be an integer in the currency's minor unit ...").
// - x-messages: message overrides per keyword ({path}, {limit} placeholders).
// - x-checked-by-use-case: assertion keywords that belong to the contract but are checked by the
//   use case with domain context and its own message (a currency the method does not accept, an
//   id that does not exist → 404); the HTTP validator leaves them out.
import type {Ajv2020, ErrorObject, ValidateFunction} from 'ajv/dist/2020.js'
import {newAjv} from '../../api/openapi/ajv.js'
import {openapiDocument} from '../../api/openapi/document.js'
import type {Body, OperationId, Query} from '../../api/types.js'
import {DomainError, invalid, missing, unknownParam} from '../domain/errors.js'


type Json = Record<string, any>

/** A request of operation O as its schemas let it through: the types generated from the same document (src/api/contract.gen.ts). */
export interface ValidatedRequest<O extends OperationId = OperationId> {
  body: Body<O>
  /** query values by name, integers and booleans converted; absent ones omitted */
  query: Query<O>
}

export type RequestValidator<O extends OperationId = OperationId> = (req: {body?: unknown; query?: URLSearchParams}) => ValidatedRequest<O>

interface QueryParam {
  name: string
  schema: Json
  /** missing -> 400 parameter_missing */
  required: boolean
}

interface Compiled {
  bodySchema: Json | undefined
  validateBody: ValidateFunction | undefined
  query: QueryParam[]
  /** a list endpoint (limit, starting_after, ending_before) */
  paged: boolean
}

const USE_CASE_KEY = 'x-checked-by-use-case'

/** A deep copy of a request schema with the use-case keywords removed and local $refs inlined. */
export function httpSchema(schema: unknown, doc: Json = openapiDocument() as Json): any {
  if (Array.isArray(schema)) return schema.map((s) => httpSchema(s, doc))
  if (!schema || typeof schema !== 'object') return schema
  const s = schema as Json
  if (typeof s.$ref === 'string' && s.$ref.startsWith('#/')) {
    const target = s.$ref
      .slice(2)
      .split('/')
      .reduce((o: Json, k: string) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
    return httpSchema(target, doc)
  }
  const drop = new Set<string>(Array.isArray(s[USE_CASE_KEY]) ? s[USE_CASE_KEY] : [])
  const out: Json = {}
  // integers stay safe integers even where the use case checks the range
  if (s.type === 'integer') Object.assign(out, {minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER})
  for (const [k, v] of Object.entries(s)) {
    if (drop.has(k) || k === USE_CASE_KEY) continue
    out[k] = k === 'properties' || k === '$defs' ? Object.fromEntries(Object.entries(v as Json).map(([p, ps]) => [p, httpSchema(ps, doc)])) : httpSchema(v, doc)
  }
  return out
}

let ajv: Ajv2020 | undefined

const compiled = new Map<string, Compiled>()
let operations: Map<string, Json> | undefined

function operationsById(): Map<string, Json> {
  if (operations) return operations
  operations = new Map()
  const doc = openapiDocument() as Json
  for (const item of Object.values(doc.paths as Json)) for (const op of Object.values(item as Json)) if ((op as Json).operationId) operations.set((op as Json).operationId, op as Json)
  return operations
}

function compile(operationId: string): Compiled {
  const hit = compiled.get(operationId)
  if (hit) return hit
  const doc = openapiDocument() as Json
  const op = operationsById().get(operationId)
  if (!op) throw new Error(`requestValidator: no operation ${operationId} in the OpenAPI document`)
  const params = ((op.parameters ?? []) as Json[]).map((p) => httpSchema(p, doc) as Json)
  const paged = params.some((p) => p.in === 'query' && p.name === 'limit')
  const query = params.filter((p) => p.in === 'query' && !['limit', 'starting_after', 'ending_before'].includes(p.name)).map((p) => ({name: p.name as string, schema: p.schema as Json, required: p.required === true}))
  const raw = op.requestBody?.content?.['application/json']?.schema
  const bodySchema = raw ? (httpSchema(raw, doc) as Json) : undefined
  ajv ??= newAjv()
  const c: Compiled = {bodySchema, validateBody: bodySchema ? ajv.compile(bodySchema) : undefined, query, paged}
  compiled.set(operationId, c)
  return c
}

/** Every operation with a request body or query parameters, compiled now (start-up) rather than on first use. */
export function compileAll(): number {
  for (const id of operationsById().keys()) compile(id)
  return compiled.size
}

/**
 * The validator of one operation (by operationId): checks the query, then the body, and
 * returns them; throws the engine's ApiError (400) naming the first problem.
 */
export function requestValidator<O extends OperationId = OperationId>(operationId: O | string): RequestValidator<O> {
  const c = compile(operationId)
  return (req) => {
    const query = req.query ? checkQuery(c, req.query) : {}
    let body: unknown = req.body ?? {}
    if (c.bodySchema) body = checkBody(c, body)
    else if (req.body !== undefined && req.body !== null) body = checkBody({...c, bodySchema: EMPTY, validateBody: emptyValidator()}, body)
    // what the schemas of the document let through is what the types generated from it describe
    return {body: body as Body<O>, query: query as Query<O>}
  }
}

const EMPTY = {type: 'object', properties: {}, additionalProperties: false}
let emptyV: ValidateFunction | undefined
const emptyValidator = () => (emptyV ??= (ajv ??= newAjv()).compile(EMPTY))

// ---------------------------------------------------------------- query

function checkQuery(c: Compiled, q: URLSearchParams): Record<string, string | number | boolean> {
  const known = new Set([...(c.paged ? ['limit', 'starting_after', 'ending_before'] : []), ...c.query.map((p) => p.name)])
  for (const k of q.keys()) if (!known.has(k)) throw unknownParam(k, [...known])
  const out: Record<string, string | number | boolean> = {}
  if (c.paged) {
    const raw = q.get('limit')
    if (raw !== null) {
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100) throw invalid('limit', `limit must be an integer from 1 to 100; got '${raw}'.`)
      out.limit = Number(raw)
    }
    const sa = q.get('starting_after')
    const eb = q.get('ending_before')
    if (sa !== null && eb !== null) throw invalid('starting_after', 'starting_after and ending_before are mutually exclusive; send one of them.')
    if (sa === '') throw invalid('starting_after', 'starting_after must be an object id.')
    if (eb === '') throw invalid('ending_before', 'ending_before must be an object id.')
    if (sa !== null) out.starting_after = sa
    if (eb !== null) out.ending_before = eb
  }
  for (const {name, schema, required} of c.query) {
    const v = q.get(name)
    if (v === null) {
      if (required) throw missing(name)
      continue
    }
    out[name] = queryValue(name, v, schema)
  }
  return out
}

function queryValue(name: string, v: string, s: Json): string | number | boolean {
  if (s.type === 'boolean') {
    if (v !== 'true' && v !== 'false') throw invalid(name, `${name} must be true or false; got '${v}'.`)
    return v === 'true'
  }
  if (s.type === 'integer') {
    const n = Number(v)
    if (!/^-?\d+$/.test(v) || (s.minimum !== undefined && n < s.minimum) || (s.maximum !== undefined && n > s.maximum))
      throw invalid(name, `${name} must be an integer from ${s.minimum} to ${s.maximum}; got '${v}'.`)
    return n
  }
  if (Array.isArray(s.enum) && !s.enum.includes(v)) {
    throw invalid(name, s.enum.length === 1 ? `${name} must be ${s.enum[0]}; got '${v}'.` : `${name} must be one of ${s.enum.join(', ')}; got '${v}'.`)
  }
  if (s.minLength !== undefined && v.length < s.minLength) throw invalid(name, `${name} must be ${s['x-hint'] ?? `at least ${s.minLength} characters`}.`)
  if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v)) throw invalid(name, `${name} must be ${s['x-hint'] ?? `a string matching ${s.pattern}`}; got '${v}'.`)
  return v
}

// ---------------------------------------------------------------- body

const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' && !Number.isInteger(v) ? 'decimal number' : typeof v

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function checkBody(c: Compiled, body: unknown): unknown {
  const root = c.bodySchema!
  if (!isObject(body)) throw invalid('body', root['x-messages']?.type ?? 'The request body must be a JSON object.')
  if (c.validateBody!(body)) return body
  const faults = (c.validateBody!.errors ?? []).map((e) => fault(e, root, body)).filter((f): f is Fault => f !== undefined)
  if (faults.length === 0) throw invalid('body', `The request body is invalid: ${c.validateBody!.errors?.[0]?.message ?? 'unknown problem'}.`)
  faults.sort((a, b) => compareKeys(a.key, b.key))
  throw faults[0]!.error()
}

interface Fault {
  key: number[]
  error(): DomainError
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? -Infinity
    const y = b[i] ?? -Infinity
    if (x !== y) return x - y
  }
  return 0
}

/** Rank of a problem with a node's own value, before anything inside it. */
const RANK: Record<string, number> = {
  type: -10,
  minLength: -9,
  maxLength: -8,
  enum: -7,
  const: -7,
  minimum: -6,
  maximum: -5,
  maxProperties: -4,
  maxItems: -4,
  minItems: -4,
  format: -3,
  pattern: -3,
}

interface Step {
  node: Json
  value: unknown
  /** human path of the node: payment_method_data.card.number, files[2] */
  path: string
  /** the node is an item of an array / a value of a map */
  role: 'field' | 'item' | 'value'
  parent?: Step
}

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~')

/** The branch of an anyOf that the value's JSON type selects (customer: id string or object). */
function branch(node: Json, value: unknown): Json | undefined {
  if (!Array.isArray(node.anyOf)) return node
  const t = kindOf(value) === 'decimal number' ? 'number' : kindOf(value)
  return (node.anyOf as Json[]).find((b) => b.type === t || (Array.isArray(b.type) && b.type.includes(t)))
}

function fault(e: ErrorObject, root: Json, body: Json): Fault | undefined {
  if (e.keyword === 'anyOf' || e.keyword === 'if' || e.keyword === 'not') return undefined
  const segs = e.instancePath === '' ? [] : e.instancePath.slice(1).split('/').map(unescape)
  const key: number[] = []
  let step: Step = {node: root, value: body, path: '', role: 'field'}
  // anyOf: only errors of the branch the value's type selects count (or a type error when none does)
  const anyOfAt = /\/anyOf\/(\d+)\//.exec(e.schemaPath)
  for (const seg of segs) {
    const node = branch(step.node, step.value) ?? step.node
    const value = (step.value as Json)[seg]
    let next: Json | undefined
    let role: Step['role'] = 'field'
    let path: string
    if (node.type === 'array' || Array.isArray(step.value)) {
      key.push(2, Number(seg))
      next = node.items
      role = 'item'
      path = `${step.path}[${seg}]`
    } else if (node.properties && Object.hasOwn(node.properties, seg)) {
      key.push(1, Object.keys(node.properties).indexOf(seg))
      next = node.properties[seg]
      path = step.path ? `${step.path}.${seg}` : seg
    } else {
      key.push(2, Object.keys(step.value as Json).indexOf(seg))
      next = node.additionalProperties
      role = 'value'
      path = step.path ? `${step.path}.${seg}` : seg
    }
    if (!next || typeof next !== 'object') return undefined
    step = {node: next, value, path, role, parent: step}
  }
  if (anyOfAt && Array.isArray(step.node.anyOf)) {
    const chosen = branch(step.node, step.value)
    if (!chosen) {
      if (!/\/anyOf\/0\/type$/.test(e.schemaPath)) return undefined // one error for the whole node
      return {key: [...key, RANK.type!], error: () => invalid(step.path, message(step, step.node['x-messages']?.type ?? '{path} must be an id string or an object.', {}))}
    }
    if (step.node.anyOf.indexOf(chosen) !== Number(anyOfAt[1])) return undefined
  }
  const node = branch(step.node, step.value) ?? step.node
  const here = {...step, node}
  const p = e.params as Json
  switch (e.keyword) {
    case 'additionalProperties': {
      const k = String(p.additionalProperty)
      const path = here.path ? `${here.path}.${k}` : k
      return {
        key: [...key, 0, Object.keys(here.value as Json).indexOf(k)],
        error: () => {
          const custom = node['x-messages']?.additionalProperties
          return custom ? invalid(path, message({...here, path}, custom, {}), 'parameter_unknown') : unknownParam(path, Object.keys(node.properties ?? {}))
        },
      }
    }
    case 'required': {
      const k = String(p.missingProperty)
      const path = here.path ? `${here.path}.${k}` : k
      const child = node.properties?.[k] as Json | undefined
      return {
        key: [...key, 1, Object.keys(node.properties ?? {}).indexOf(k), RANK.type! - 1],
        error: () => {
          const custom = node['x-messages']?.[`${k}.*`] ?? child?.['x-messages']?.required
          return custom ? invalid(path, message({...here, path}, custom, {})) : missing(path)
        },
      }
    }
    case 'propertyNames': {
      const k = String(p.propertyName)
      const idx = Object.keys(here.value as Json).indexOf(k)
      return {
        key: [...key, 2, idx, RANK.type! + 0.5],
        error: () => {
          const limit = (node.propertyNames as Json | undefined)?.maxLength
          const custom = node['x-messages']?.propertyNames
          return invalid(`${here.path}.${k}`, custom ? message(here, custom, {limit}) : `${here.path} keys must be at most ${limit} characters.`)
        },
      }
    }
    default: {
      // a propertyNames sub-error (maxLength of a key) is reported through the propertyNames error
      if (e.propertyName !== undefined) return undefined
      const rank = RANK[e.keyword]
      if (rank === undefined) return {key: [...key, 0], error: () => invalid(here.path || 'body', `${here.path || 'The request body'} is invalid: ${e.message}.`)}
      return {key: [...key, rank], error: () => nodeError(here, e)}
    }
  }
}

function message(step: Step, template: string, vars: {limit?: unknown}): string {
  return template.replace(/\{path\}/g, step.path).replace(/\{limit\}/g, String(vars.limit ?? ''))
}

const baseType = (node: Json): string => (Array.isArray(node.type) ? node.type.find((t: string) => t !== 'null') : node.type) ?? 'object'

/** The message validate.ts gives for a problem with the node's own value. */
function nodeError(step: Step, e: ErrorObject): DomainError {
  const {node, value: v, path} = step
  const hint = node['x-hint'] ? ` ${node['x-hint']}` : ''
  const overrides = (node['x-messages'] ?? {}) as Record<string, string>
  const parentMessages = (step.parent?.node['x-messages'] ?? {}) as Record<string, string>
  const fromParent = step.role === 'value' ? parentMessages[`additionalProperties.${e.keyword}`] : undefined
  const custom = overrides[e.keyword] ?? fromParent ?? overrides['*']
  const p = e.params as Json
  const limit = p?.limit
  if (custom) return invalid(path, message(step, custom, {limit}))
  const type = baseType(node)
  // integers: anything but a safe integer is a type problem, whatever keyword ajv tripped on
  if (type === 'integer' && (typeof v !== 'number' || !Number.isSafeInteger(v)))
    return invalid(path, `${path} must be an integer${hint}; got ${typeof v === 'number' ? v : kindOf(v)}.`)
  switch (e.keyword) {
    case 'type':
      if (type === 'string') return invalid(path, step.role === 'item' ? `${path} must be a string.` : `${path} must be a string, not ${kindOf(v)}.`)
      if (type === 'boolean') return invalid(path, `${path} must be true or false, not ${kindOf(v)}.`)
      if (type === 'array') return invalid(path, `${path} must be an array of strings.`)
      if (type === 'object') {
        if (node.additionalProperties && typeof node.additionalProperties === 'object')
          return invalid(path, `${path} must be an object of string keys to string values.`)
        return invalid(path, `${path} must be an object.`)
      }
      return invalid(path, `${path} must be a ${type}, not ${kindOf(v)}.`)
    case 'minLength':
      return missing(path)
    case 'maxLength':
      return invalid(path, `${path} must be at most ${limit} characters.`)
    case 'enum':
    case 'const': {
      const values = ((node.enum ?? [node.const]) as unknown[]).filter((x) => x !== null)
      return invalid(path, `${path} must be one of ${values.join(', ')}; got '${String(v)}'.${hint}`)
    }
    case 'minimum':
      return invalid(path, `${path} must be at least ${limit}; got ${String(v)}.`)
    case 'maximum':
      return invalid(path, `${path} must be at most ${limit}; got ${String(v)}.`)
    case 'maxProperties':
      return invalid(path, `${path} can hold at most ${limit} keys.`)
    case 'maxItems':
      return invalid(path, `${path} can hold at most ${limit} items.`)
    default:
      return invalid(path, `${path} ${e.message ?? 'is invalid'}.`)
  }
}
