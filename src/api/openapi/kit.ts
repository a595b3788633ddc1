// The building blocks of the contract's shapes (JSON Schema 2020-12, as OpenAPI 3.1 uses it) and
// of its operations. Each resource family (resources/*.ts) writes its wire objects, request
// bodies and operations with these; document.ts assembles them into the OpenAPI document, from
// which the request validator is compiled and the TypeScript types are generated
// (src/api/contract.gen.ts). Pure data: no engine imports, so the CLI, the engine and the build
// can all load it.
export type Schema = Record<string, unknown>

export const MAX_AMOUNT = 99_999_999
export const MAX_SAFE = Number.MAX_SAFE_INTEGER

export const ref = (name: string): Schema => ({$ref: `#/components/schemas/${name}`})
export const nullable = (s: Schema): Schema => {
  if (typeof s.type === 'string') {
    const out: Schema = {...s, type: [s.type, 'null']}
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null]
    return out
  }
  return {anyOf: [s, {type: 'null'}]}
}

/** An object id with its prefix (`pay_...`). */
export const idOf = (prefix: string, description?: string): Schema => ({
  type: 'string',
  pattern: `^${prefix}_[0-9A-Za-z]+$`,
  ...(description ? {description} : {}),
})

/**
 * In a request body, the reference to another object: the prefix is part of the contract, but an
 * id that cannot exist is answered `404 resource_missing` by the use case (as for any unknown id),
 * not 400 — `x-checked-by-use-case` tells the request validator to leave the pattern to it.
 */
export const idRef = (prefix: string, what: string): Schema => ({
  type: 'string',
  pattern: `^${prefix}_[0-9A-Za-z]+$`,
  description: `${what} id (\`${prefix}_...\`); an unknown id is 404 resource_missing naming this parameter.`,
  'x-checked-by-use-case': ['pattern'],
})

export const dateTime = (description?: string): Schema => ({type: 'string', format: 'date-time', ...(description ? {description} : {})})
export const date = (description?: string): Schema => ({type: 'string', format: 'date', ...(description ? {description} : {})})
export const currency: Schema = {type: 'string', pattern: '^[A-Z]{3}$', description: 'Uppercase ISO 4217 code.'}
export const minor = (description: string, extra: Schema = {}): Schema => ({type: 'integer', description: `${description} In the currency's minor unit.`, ...extra})
/** One decimal byte of an IPv4 address as a URL serializes it (no leading zero). */
const BYTE = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
/**
 * A DNS label as a URL serializes it, starting with `first`: lowercase letters, digits and
 * hyphens, at most 63, no hyphen at either end nor third (`xn--` labels are IDNA's, which a URL
 * decodes and refuses when they are not valid Punycode: such hosts are left out).
 */
const label = (first: string) => `(${first}([a-z0-9-]?[a-z0-9])?|${first}[a-z0-9-][a-z0-9]([a-z0-9-]{0,59}[a-z0-9])?)`
/** A port other than the scheme's default (a URL drops that one), 1 to 65535, no leading zero. */
const PORT_ANY = '[1-9]|[1-9][0-9]{3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]'
const PORT_HTTPS = `${PORT_ANY}|[1-9][0-9]|[1-35-9][0-9]{2}|4[0-35-9][0-9]|44[0-24-9]`
const PORT_HTTP = `${PORT_ANY}|[1-79][0-9]|8[1-9]|[1-9][0-9]{2}`
/** A host as a URL serializes it: a domain whose last label starts with a letter (an all-digit one is read as an IPv4 number), or a dotted-quad IPv4 address. */
const HOST = `((${label('[a-z0-9]')}\\.)*${label('[a-z]')}|(${BYTE}\\.){3}${BYTE})`
/**
 * An http(s) origin exactly as a browser serializes one (MessageEvent.origin): scheme, host and a
 * port other than the default, nothing more; every string it matches is one the engine accepts
 * (a host in capitals, a default port, a number such as `0` that a URL reads as an IPv4 address
 * are not the origin's serialization: 400). IPv6 and internationalized (`xn--`) hosts are left out
 * of the pattern, though the engine takes them (`https://[::1]:8443`).
 */
export const origin = (description: string): Schema => ({
  type: 'string',
  format: 'uri',
  pattern: `^(https://${HOST}(:(${PORT_HTTPS}))?|http://${HOST}(:(${PORT_HTTP}))?)$`,
  maxLength: 2048,
  examples: ['https://shop.example', 'http://localhost:3000'],
  description,
})
export const country: Schema = {type: 'string', pattern: '^[A-Z]{2}$', description: 'Two-letter ISO 3166 code.'}
export const str = (extra: Schema = {}): Schema => ({type: 'string', ...extra})
export const bool: Schema = {type: 'boolean'}
export const livemode: Schema = {type: 'boolean', description: 'false for objects created with test keys.'}

/** An object whose listed properties are all present, and nothing else. */
export function obj(properties: Record<string, Schema>, opts: {optional?: string[]; description?: string; title?: string} = {}): Schema {
  const required = Object.keys(properties).filter((k) => !opts.optional?.includes(k))
  return {
    type: 'object',
    ...(opts.title ? {title: opts.title} : {}),
    ...(opts.description ? {description: opts.description} : {}),
    properties,
    required,
    additionalProperties: false,
  }
}

export const metadata: Schema = {
  type: 'object',
  description: 'Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500.',
  maxProperties: 50,
  propertyNames: {maxLength: 40},
  additionalProperties: {type: 'string', maxLength: 500},
}

export const deleted = (prefix: string, object: string): Schema =>
  obj({id: idOf(prefix), object: {type: 'string', const: object}, deleted: {type: 'boolean', const: true}})

/** The list envelope of each named object (docs/api.md#lists-and-pagination): `<Name>List`. */
export function listSchemas(names: readonly string[]): Record<string, Schema> {
  return Object.fromEntries(
    names.map((n) => [
      `${n}List`,
      obj(
        {
          object: {type: 'string', const: 'list'},
          url: str({pattern: '^/v1/', description: 'The endpoint path that produced the page.'}),
          data: {type: 'array', items: ref(n), description: 'The page, newest first; may be empty.'},
          has_more: {type: 'boolean', description: 'More results exist beyond this page in the paging direction.'},
        },
        {description: `A page of ${n} objects (the list envelope).`},
      ),
    ]),
  )
}

// ---------------------------------------------------------------- request bodies
//
// These mirror the engine's request validation field by field, in the order it checks them
// (the request validator reports the first problem in that order). `x-hint` completes the
// human message of a type or enum error; `x-checked-by-use-case` lists assertion keywords that
// are part of the contract but checked later by the use case, with domain context and its own
// message (e.g. a currency the method does not accept, an id that does not exist → 404).

export const hint = (h: string): Schema => ({'x-hint': h})
export const required = (s: Schema): Schema => ({...s, 'x-required': true})
export const useCase = (s: Schema, ...keywords: string[]): Schema => ({...s, 'x-checked-by-use-case': keywords})

/** Builds a request-body object from fields marked with required(). Unknown fields are rejected (400 parameter_unknown). */
export function body(fields: Record<string, Schema>, description?: string): Schema {
  const properties: Record<string, Schema> = {}
  const req: string[] = []
  for (const [k, v] of Object.entries(fields)) {
    const {'x-required': r, ...rest} = v
    if (r) req.push(k)
    properties[k] = rest
  }
  return {type: 'object', ...(description ? {description} : {}), properties, ...(req.length ? {required: req} : {}), additionalProperties: false}
}

export const reqStr = (extra: Schema = {}): Schema => required({type: 'string', minLength: 1, ...extra})
export const int = (min: number, max: number, h?: string): Schema => ({type: 'integer', minimum: min, maximum: max, ...(h ? hint(h) : {})})

// ---------------------------------------------------------------- operations

export type Method = 'get' | 'post' | 'delete'

export interface Param {
  name: string
  schema: Schema
  description: string
  required?: boolean
}

/** An HTTP status an operation may answer with the error envelope (errors.ts). */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 408 | 409 | 413 | 415 | 429 | 431 | 500 | 502 | 503

export interface OpSpec {
  id: string
  method: Method
  path: string
  tag: string
  summary: string
  description?: string
  /** query parameters besides the pagination ones */
  query?: Param[]
  /** a list endpoint: limit, starting_after, ending_before */
  list?: boolean
  /** request body schema name (components/schemas) */
  body?: string
  bodyRequired?: boolean
  status?: number
  /** response schema name, or full media map */
  response: string | Record<string, {schema: Schema}>
  responseDescription: string
  /** statuses beyond the ones every operation can get */
  errors?: ErrorStatus[]
  /** no Authorization needed */
  public?: boolean
  /**
   * What a key needs for this operation (docs/api.md#keys): `resource:read|write` (a restricted
   * key must hold it; write includes read), `api_keys:*` (secret keys only), `accounts:*` (keys of
   * the engine's own account only), or `none` (any secret or restricted key); or several, all of
   * which the key must hold (docs/decisions.md#permissions). Written as `x-permission` on the operation, several joined
   * by commas (`webhooks:write,events:read`, as `gw keys create --permissions` takes them); every
   * operation but the public ones has one.
   */
  perm?: string | readonly string[]
  testHelper?: boolean
  headers?: Param[]
  /** served at the engine's root (https://HOST:PORT/healthz), not under /v1 */
  root?: boolean
  /** responses of its own (not the error envelope), by status */
  own?: Record<string, Schema>
}

export const q = (name: string, schema: Schema, description: string): Param => ({name, schema, description})
export const en = (values: readonly string[]): Schema => ({type: 'string', enum: [...values]})
export const idQ = (prefix: string): Schema => ({type: 'string', description: `A \`${prefix}_\` id.`})
export const createdRange = [
  q('created_gte', {type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}', 'x-hint': 'an ISO 8601 date-time such as 2026-01-31T00:00:00Z', examples: ['2026-01-31T00:00:00Z']}, 'Created at or after this ISO 8601 date-time (inclusive).'),
  q('created_lte', {type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}', 'x-hint': 'an ISO 8601 date-time such as 2026-01-31T00:00:00Z', examples: ['2026-01-31T23:59:59Z']}, 'Created at or before this ISO 8601 date-time (inclusive).'),
]

/**
 * One resource family of the contract, in one file: its wire objects, its request bodies, the
 * objects it lists (each gets a `<Name>List` envelope), and its operations. A new operation is
 * written here (its shape); its behaviour is a use case and a route of the engine.
 */
export interface Family {
  /** response objects (additionalProperties: false, so an undocumented field fails validation) */
  responses?: () => Record<string, Schema>
  /** request bodies (body(): unknown fields are 400 parameter_unknown) */
  requests?: () => Record<string, Schema>
  /** objects served in list envelopes */
  lists?: readonly string[]
  operations: readonly OpSpec[]
}
