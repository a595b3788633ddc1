// Checks an engine response against the OpenAPI document: the operation must document the
// status, the media type and the body (objects are closed, so an undocumented field fails), and
// the documented headers must be there. Used by the harness on every response it receives.
import {Ajv2020, type ValidateFunction} from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import {openapiDocument} from '../../api/openapi/document.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

type Json = Record<string, any>

const DOC_ID = 'https://gw.local/openapi.json'
/** What any URL under /v1 can answer before an operation is found (version, auth, rate limit, unknown route). */
const ROUTE_LEVEL = new Map<number, string>([
  [400, 'BadRequest'],
  [401, 'Unauthorized'],
  [404, 'NotFound'],
  [429, 'TooManyRequests'],
  [500, 'InternalError'],
])

interface Route {
  method: string
  template: string
  re: RegExp
  literals: number
  op: Json
}

let state: {ajv: Ajv2020; doc: Json; routes: Route[]; cache: Map<string, ValidateFunction>} | undefined

function init() {
  if (state) return state
  const doc = openapiDocument() as Json
  const ajv = new Ajv2020({strict: false, allErrors: true, validateFormats: true})
  addFormats(ajv)
  ajv.addSchema({...doc, $id: DOC_ID})
  const routes: Route[] = []
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    // operations at the root (healthz, readyz, metrics) are not under the API's base URL
    if ((item as Json).servers) continue
    for (const [method, op] of Object.entries(item as Json)) {
      const segs = template.split('/').filter(Boolean)
      routes.push({
        method: method.toUpperCase(),
        template,
        re: new RegExp(`^/${segs.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.]/g, '\\.'))).join('/')}$`),
        literals: segs.filter((s) => !s.startsWith('{')).length,
        op: op as Json,
      })
    }
  }
  routes.sort((a, b) => b.literals - a.literals)
  state = {ajv, doc, routes, cache: new Map()}
  return state
}

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')

function validator(pointer: string): ValidateFunction {
  const s = init()
  let v = s.cache.get(pointer)
  if (!v) {
    v = s.ajv.compile({$ref: `${DOC_ID}#${pointer}`})
    s.cache.set(pointer, v)
  }
  return v
}

/** The documented operation for a method and path below /v1 (query string ignored). */
export function findOperation(method: string, path: string): {template: string; op: Json} | undefined {
  const p = path.split('?')[0]!
  const r = init().routes.find((x) => x.method === method.toUpperCase() && x.re.test(p))
  return r && {template: r.template, op: r.op}
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name.toLowerCase()]
  return Array.isArray(v) ? v[0] : v
}

/**
 * Problems with a response to `method path` (path below /v1), as readable lines; empty when the
 * response is what the document says.
 */
export function checkResponse(
  method: string,
  path: string,
  res: {status: number; headers: Record<string, string | string[] | undefined>; text: string},
): string[] {
  const {doc} = init()
  const problems: string[] = []
  // a browser's CORS preflight, answered for any /v1 path before authentication (docs/api.md "Hosted card fields")
  if (method.toUpperCase() === 'OPTIONS' && res.status === 204) return []
  const found = findOperation(method, path)
  let pointer: string
  let responseObj: Json
  const where = found ? `${found.op.operationId} (${method.toUpperCase()} ${found.template})` : `${method.toUpperCase()} ${path} (no operation)`
  if (found) {
    const base = `/paths/${esc(found.template)}/${method.toLowerCase()}/responses/${res.status}`
    let r = found.op.responses[String(res.status)] as Json | undefined
    if (!r) return [`${where}: status ${res.status} is not documented (documented: ${Object.keys(found.op.responses).join(', ')})`]
    pointer = base
    if (r.$ref) {
      pointer = String(r.$ref).slice(1)
      r = doc.components.responses[String(r.$ref).split('/').pop()!] as Json
    }
    responseObj = r
  } else {
    const name = ROUTE_LEVEL.get(res.status)
    if (!name) return [`${where}: status ${res.status} is not an answer any route can give before its operation is found`]
    pointer = `/components/responses/${name}`
    responseObj = doc.components.responses[name]
  }

  // headers
  for (const [name, h] of Object.entries((responseObj.headers ?? {}) as Json)) {
    const v = header(res.headers, name)
    const def = h.$ref ? doc.components.headers[String(h.$ref).split('/').pop()!] : h
    if (v === undefined) {
      // every answer to an authenticated request says the account's engine time (docs/decisions.md#the-gateways-clock): a success, at least
      if (name === 'Request-Id' || name === 'Retry-After' || (name === 'Gw-Engine-Time' && res.status < 300)) problems.push(`${where}: header ${name} is missing`)
      continue
    }
    const schema = def.schema as Json
    const value = schema.type === 'integer' ? Number(v) : v
    const ok = init().ajv.validate(schema, value)
    if (!ok) problems.push(`${where}: header ${name}: '${v}' ${init().ajv.errorsText()}`)
  }

  // body
  const content = responseObj.content as Json | undefined
  if (!content) {
    if (res.text.length > 0) problems.push(`${where}: a body is not documented for ${res.status}`)
    return problems
  }
  const ctype = (header(res.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (!(ctype in content)) {
    problems.push(`${where}: content type '${ctype}' is not documented for ${res.status} (documented: ${Object.keys(content).join(', ')})`)
    return problems
  }
  let data: unknown = res.text
  if (ctype === 'application/json') {
    try {
      data = JSON.parse(res.text)
    } catch {
      return [...problems, `${where}: body is not JSON`]
    }
  }
  const v = validator(`${pointer}/content/${esc(ctype)}/schema`)
  if (!v(data)) {
    const errs = (v.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` '${(e.params as Json).additionalProperty}'` : ''}${e.params && 'allowedValues' in e.params ? ` (${JSON.stringify((e.params as Json).allowedValues).slice(0, 80)})` : ''}`)
    problems.push(`${where}: ${res.status} body does not match the document:\n  ${errs.join('\n  ')}\n  body: ${res.text.slice(0, 400)}`)
  }
  return problems
}

/** Throws when the response is not what the document says. */
export function assertDocumented(method: string, path: string, res: {status: number; headers: Record<string, string | string[] | undefined>; text: string}): void {
  const problems = checkResponse(method, path, res)
  if (problems.length) throw new Error(`OpenAPI contract: ${problems.join('\n')}`)
}
