import {invalid, missing, unknownParam} from '../domain/errors.js'

// Small declarative validation for request bodies and queries. Every error names the
// parameter (dotted path for nested fields) and says how to fix it.

export type FieldSpec =
  | {type: 'string'; required?: boolean; enum?: readonly string[]; maxLength?: number; nullable?: boolean; hint?: string}
  | {type: 'integer'; required?: boolean; min?: number; max?: number; hint?: string}
  | {type: 'boolean'; required?: boolean}
  | {type: 'string_map'; required?: boolean; maxKeys?: number}
  | {type: 'string_array'; required?: boolean; maxItems?: number}
  | {type: 'object'; required?: boolean; fields: Schema; nullable?: boolean}
  | {type: 'string_or_object'; required?: boolean; fields: Schema}
  /** accepted as it is; the use case checks it */
  | {type: 'any'; required?: boolean}

export type Schema = Record<string, FieldSpec>

const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' && !Number.isInteger(v) ? 'decimal number' : typeof v

export function validate<T = Record<string, unknown>>(input: unknown, schema: Schema, prefix = ''): T {
  const body = input ?? {}
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw invalid(prefix || 'body', `${prefix || 'The request body'} must be a JSON object.`)
  }
  const obj = body as Record<string, unknown>
  // own keys only: `constructor` or `toString` are unknown parameters, not Object.prototype members
  for (const k of Object.keys(obj)) if (!Object.hasOwn(schema, k)) throw unknownParam(prefix + k)
  for (const [name, spec] of Object.entries(schema)) {
    const path = prefix + name
    const v = obj[name]
    if (v === undefined || (v === null && 'nullable' in spec && spec.nullable)) {
      if (spec.required) throw missing(path)
      continue
    }
    switch (spec.type) {
      case 'string':
        if (typeof v !== 'string') throw invalid(path, `${path} must be a string, not ${kindOf(v)}.`)
        if (spec.required && v.length === 0) throw missing(path)
        if (spec.maxLength !== undefined && v.length > spec.maxLength)
          throw invalid(path, `${path} must be at most ${spec.maxLength} characters.`)
        if (spec.enum && !spec.enum.includes(v))
          throw invalid(path, `${path} must be one of ${spec.enum.join(', ')}; got '${v}'.${spec.hint ? ` ${spec.hint}` : ''}`)
        break
      case 'integer':
        if (typeof v !== 'number' || !Number.isSafeInteger(v))
          throw invalid(
            path,
            `${path} must be an integer${spec.hint ? ` ${spec.hint}` : ''}; got ${typeof v === 'number' ? v : kindOf(v)}.`,
          )
        if (spec.min !== undefined && v < spec.min) throw invalid(path, `${path} must be at least ${spec.min}; got ${v}.`)
        if (spec.max !== undefined && v > spec.max) throw invalid(path, `${path} must be at most ${spec.max}; got ${v}.`)
        break
      case 'boolean':
        if (typeof v !== 'boolean') throw invalid(path, `${path} must be true or false, not ${kindOf(v)}.`)
        break
      case 'string_map': {
        if (typeof v !== 'object' || v === null || Array.isArray(v))
          throw invalid(path, `${path} must be an object of string keys to string values.`)
        const entries = Object.entries(v as Record<string, unknown>)
        if (spec.maxKeys !== undefined && entries.length > spec.maxKeys)
          throw invalid(path, `${path} can hold at most ${spec.maxKeys} keys.`)
        for (const [k, val] of entries) {
          if (typeof val !== 'string') throw invalid(`${path}.${k}`, `${path}.${k} must be a string, not ${kindOf(val)}.`)
          if (k.length > 40) throw invalid(`${path}.${k}`, `${path} keys must be at most 40 characters.`)
          if (val.length > 500) throw invalid(`${path}.${k}`, `${path}.${k} must be at most 500 characters.`)
        }
        break
      }
      case 'string_array':
        if (!Array.isArray(v)) throw invalid(path, `${path} must be an array of strings.`)
        if (spec.maxItems !== undefined && v.length > spec.maxItems)
          throw invalid(path, `${path} can hold at most ${spec.maxItems} items.`)
        v.forEach((x, i) => {
          if (typeof x !== 'string') throw invalid(`${path}[${i}]`, `${path}[${i}] must be a string.`)
        })
        break
      case 'object':
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(path, `${path} must be an object.`)
        validate(v, spec.fields, `${path}.`)
        break
      case 'any':
        break
      case 'string_or_object':
        if (typeof v === 'string') break
        if (typeof v !== 'object' || v === null || Array.isArray(v))
          throw invalid(path, `${path} must be an id string or an object.`)
        validate(v, spec.fields, `${path}.`)
        break
    }
  }
  return obj as T
}

/** Parses list query parameters shared by every list endpoint (§4 Pagination). */
export function pageParams(q: URLSearchParams, allowed: readonly string[]) {
  for (const k of q.keys()) {
    if (!['limit', 'starting_after', 'ending_before', ...allowed].includes(k)) throw unknownParam(k)
  }
  let limit = 20
  const raw = q.get('limit')
  if (raw !== null) {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100)
      throw invalid('limit', `limit must be an integer from 1 to 100; got '${raw}'.`)
    limit = Number(raw)
  }
  const starting_after = q.get('starting_after') ?? undefined
  const ending_before = q.get('ending_before') ?? undefined
  if (starting_after !== undefined && ending_before !== undefined)
    throw invalid('starting_after', 'starting_after and ending_before are mutually exclusive; send one of them.')
  if (starting_after === '') throw invalid('starting_after', 'starting_after must be an object id.')
  if (ending_before === '') throw invalid('ending_before', 'ending_before must be an object id.')
  return {limit, starting_after, ending_before}
}

/** ISO 8601 date-time query parameter, normalised to the stored UTC form. */
export function isoParam(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name)
  if (v === null) return undefined
  const d = /^\d{4}-\d{2}-\d{2}/.test(v) ? new Date(v) : new Date(NaN)
  if (Number.isNaN(d.getTime()))
    throw invalid(name, `${name} must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z; got '${v}'.`)
  return d.toISOString()
}
