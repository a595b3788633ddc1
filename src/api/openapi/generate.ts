// Generates src/api/contract.gen.ts: the TypeScript types of every shape and operation of the
// OpenAPI document, by openapi-typescript (the document is the source; nothing else writes a wire
// type), and each operation's method and path (OPERATION_PATHS, what the client calls); and the
// permission table of docs/api.md#keys, from each operation's x-permission. `npm run contract`
// writes both; contract.test.ts and document.test.ts fail when either is stale. Not part of the
// build (tsconfig.build.json leaves it out): openapi-typescript is a dev dependency.
//
// Two readings of the document differ from openapi-typescript's defaults, both so that a type
// says exactly what the request validator guarantees (the engine's use cases take these types):
// - a keyword the validator leaves to the use case (`x-checked-by-use-case`) does not narrow the
//   type: a body's `payment_method` is a string the use case still checks, not the 43 codes;
// - an object schema with neither properties nor additionalProperties takes any member
//   (JSON Schema's rule): `Record<string, unknown>`, not `Record<string, never>`;
// - an object with named properties and a schema for the others (payment_method_details: card
//   details under card, bank details under any other code) gets an index signature that covers
//   the named ones too, as TypeScript requires of an index signature.
// And one type says more than the document: `Currency` (a pattern there, as the engine checks the
// code against ISO 4217 at run time) is the union of ISO 4217's payment currencies, left open
// (`| (string & {})`) so a code the standard adds later still type-checks (docs/api.md#sdk-types).
import {readFileSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {resolve} from 'node:path'
import {NON_PAYMENT_CODES} from '../money.js'
import {openapiDocument} from './document.js'

type Json = Record<string, any>

export const CONTRACT_FILE = resolve(import.meta.dirname, '../contract.gen.ts')

/** A copy of the document as its types read it (see above). */
function asTyped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asTyped)
  if (!node || typeof node !== 'object') return node
  const s = node as Json
  const left = new Set<string>(Array.isArray(s['x-checked-by-use-case']) ? s['x-checked-by-use-case'] : [])
  const out: Json = {}
  for (const [k, v] of Object.entries(s)) if (!((k === 'enum' || k === 'const') && left.has(k))) out[k] = asTyped(v)
  const open = out.type === 'object' && out.properties === undefined && out.additionalProperties === undefined && !out.anyOf && !out.oneOf && !out.allOf
  if (open) out.additionalProperties = true
  if (out.properties && out.additionalProperties && typeof out.additionalProperties === 'object') {
    const kinds = new Map<string, unknown>()
    for (const v of [...Object.values(out.properties as Json), out.additionalProperties]) kinds.set(JSON.stringify(v), v)
    if (kinds.size > 1) out.additionalProperties = {anyOf: [...kinds.values()]}
  }
  return out
}

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1)

/** Each operation that takes parameters, and the name its body or query has in the generated file. Read from any copy of the document (test/release/packages-install.test.ts reads the packed one). */
export function operationParams(doc: Json): {id: string; method: string; path: string; name: string; in: 'body' | 'query'}[] {
  const out: {id: string; method: string; path: string; name: string; in: 'body' | 'query'}[] = []
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (method === 'servers') continue
      const id = (op as Json).operationId as string
      const bodyRef = (op as Json).requestBody?.content?.['application/json']?.schema?.$ref as string | undefined
      const hasQuery = ((op as Json).parameters as Json[]).some((p) => p.in === 'query' || /\/parameters\/(limit|starting_after|ending_before)$/.test(p.$ref ?? ''))
      const name = `${pascal(id)}Params`
      if (bodyRef && bodyRef !== '#/components/schemas/Empty') out.push({id, method, path, name, in: 'body'})
      else if (hasQuery) out.push({id, method, path, name, in: 'query'})
    }
  }
  return out
}

/** What the generated file holds after openapi-typescript's part: a name for each schema and each operation's parameters, and each operation's method. */
function aliases(doc: Json): string {
  const lines: string[] = ['', '// ---------------------------------------------------------------- named aliases', '', '/** Each schema of the document by its name. */']
  for (const name of Object.keys(doc.components.schemas)) lines.push(`export type ${name} = components['schemas']['${name}']`)
  lines.push('', '/** The parameters of each operation that takes any: its body, or its query (paging included). */')
  for (const o of operationParams(doc)) {
    if (o.in === 'body') lines.push(`/** ${o.method.toUpperCase()} ${o.path}: the body */`, `export type ${o.name} = NonNullable<operations['${o.id}']['requestBody']>['content']['application/json']`)
    else lines.push(`/** ${o.method.toUpperCase()} ${o.path}: the query */`, `export type ${o.name} = NonNullable<operations['${o.id}']['parameters']['query']>`)
  }
  const methods: string[] = []
  const paths: string[] = []
  for (const [path, item] of Object.entries(doc.paths as Json))
    for (const [method, op] of Object.entries(item as Json)) {
      if (method === 'servers') continue
      methods.push(`  ${(op as Json).operationId}: '${method}'`)
      paths.push(`  ${(op as Json).operationId}: ['${method}', '${path}'],`)
    }
  lines.push('', '/** The HTTP method of each operation. */', 'export interface OperationMethods {', ...methods, '}')
  lines.push('', '/** The method and path of each operation (the client calls operations by their id). */', 'export const OPERATION_PATHS = {', ...paths, '} as const', '')
  return lines.join('\n')
}

export const API_DOC = resolve(import.meta.dirname, '../../../docs/api.md')
const TABLE_HEAD = '| permission (x-permission) | operations |'

/** docs/api.md's permission table ("Keys"): each permission the document's operations need (x-permission), with the operations that need it in document order. */
export function permissionTable(doc: Json): string {
  const byPermission = new Map<string, string[]>()
  for (const item of Object.values(doc.paths as Json))
    for (const [method, op] of Object.entries(item as Json)) {
      const perm = method === 'servers' ? undefined : ((op as Json)['x-permission'] as string | undefined)
      if (perm) byPermission.set(perm, [...(byPermission.get(perm) ?? []), (op as Json).operationId])
    }
  const rows = [...byPermission].sort(([a], [b]) => (a < b ? -1 : 1)).map(([perm, ids]) => `| \`${perm}\` | ${ids.join(', ')} |`)
  return [TABLE_HEAD, '| --- | --- |', ...rows].join('\n')
}

/** The permission table as docs/api.md has it now (from its head to the line before the blank line that ends it). */
export function permissionTableIn(md: string): string {
  const start = md.indexOf(TABLE_HEAD)
  if (start < 0) throw new Error(`docs/api.md has no permission table (a line "${TABLE_HEAD}")`)
  const end = md.indexOf('\n\n', start)
  return md.slice(start, end < 0 ? undefined : end)
}

export async function contractTypes(): Promise<string> {
  const {default: openapiTS, astToString} = await import('openapi-typescript')
  const doc = asTyped(openapiDocument()) as Json
  const ast = await openapiTS(doc as never, {silent: true})
  const header = '// Generated from the OpenAPI document (src/api/openapi/) by `npm run contract` (src/api/openapi/generate.ts): do not edit.\n// contract.test.ts fails when this file is stale.\n\n'
  return header + withCurrencies(astToString(ast)) + aliases(doc)
}

/** The generated `Currency: string` as the union of ISO 4217's payment currencies, open to codes added later. */
function withCurrencies(types: string): string {
  const line = '        Currency: string;\n'
  if (types.split(line).length !== 2) throw new Error('generate.ts: the Currency schema is no longer generated as one `Currency: string;` line; update withCurrencies()')
  const codes = (createRequire(import.meta.url)('currency-codes') as {codes(): string[]}).codes().filter((c) => !NON_PAYMENT_CODES.has(c)).sort()
  return types.replace(line, `        Currency: ${codes.map((c) => `"${c}"`).join(' | ')} | (string & {});\n`)
}

/** Writes `text` to `file` unless it holds it already; says which. */
function update(file: string, text: string): void {
  let before = ''
  try {
    before = readFileSync(file, 'utf8')
  } catch {
    /* a new file */
  }
  if (before !== text) writeFileSync(file, text)
  process.stdout.write(`${before === text ? 'unchanged' : 'wrote'} ${file}\n`)
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  update(CONTRACT_FILE, await contractTypes())
  const md = readFileSync(API_DOC, 'utf8')
  update(API_DOC, md.replace(permissionTableIn(md), permissionTable(openapiDocument() as Json)))
}
