// Every operation of the OpenAPI document has a gw command that performs it: each command says
// which operations it is the command for (`static operations`, kept in the manifest), and running
// it against a mock API (answering every request with a sample of the documented response) must
// send each one's method and path. A command is run with its first example, or with the command
// line ARGV gives where that example cannot run against a mock. The commands are read from their
// source files (no build needed). Operations without a command are listed in KNOWN_GAPS.
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {openapiDocument} from '../api/openapi/document.js'
import {at, cliEnv, ROOT, type CliEnv} from '../base/test-support/cli.js'
import {commandFiles} from '../base/test-support/command-files.js'
import {findOperation} from '../engine/test-support/openapi-check.js'

type Json = Record<string, any>

/** The command line that performs an operation, where its command's first example cannot run against the mock (or performs another of its operations). */
const ARGV: Record<string, string[]> = {
  // the first example fills in the form on a terminal
  submitDisputeEvidence: ['dp_123', '--field', 'tracking_number=1Z999'],
  // the first example opens the page in a browser
  createCheckoutSession: ['--amount', '2000', '--currency', 'EUR'],
  // the first example saves a card first and runs twice
  payCheckoutSession: ['cs_123', '--payment-method-id', 'pm_123'],
  // chaos clear without an id clears every fault (clearChaos)
  deleteChaosRule: ['chaos_123'],
  // the first examples write and read files of the working directory
  testSaveSnapshot: ['-'],
  testLoadSnapshot: [join(ROOT, 'test', 'fixtures', 'snapshot-empty.json')],
  getOpenApiDocument: [],
  // logs tail without --last follows the stream (streamRequestLogs)
  listRequestLogs: ['--last', '5'],
}

/** Operations without a command: only those for machines (tag Operations: load balancers, Prometheus). */
export const KNOWN_GAPS: Record<string, string> = {
  getLiveness: 'for load balancers (GET /healthz); people use gw whoami',
  getReadiness: 'for load balancers (GET /readyz); people use gw whoami',
  getMetrics: 'for Prometheus (GET /metrics)',
}

const doc = openapiDocument() as Json
const operations = Object.values(doc.paths as Json).flatMap((item) => Object.values(item as Json)).filter((o) => (o as Json).operationId) as Json[]
/** What a command class says of itself: the operations it performs and its examples. */
type CommandClass = {operations?: readonly string[]; examples?: (string | {command: string})[]}
const commandClasses: Record<string, CommandClass> = {}
for (const [id, file] of commandFiles()) commandClasses[id] = ((await import(file)) as {default: CommandClass}).default

/** The words of a command line as a shell splits them (quotes kept together, not kept). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!)
}

/** The arguments of a command's first example (after `gw <command>`). */
function firstExample(command: string): string[] {
  const ex = commandClasses[command]?.examples?.[0]
  const line = typeof ex === 'string' ? ex : (ex?.command ?? '')
  return words(line.replace('<%= config.bin %> <%= command.id %>', ''))
}

/** operationId → the command that performs it (its `operations`), with the command line a run against the mock takes. */
const COMMAND_OF_OPERATION: Record<string, {command: string; argv: string[]}> = {}
for (const [command, c] of Object.entries(commandClasses))
  for (const op of c.operations ?? []) COMMAND_OF_OPERATION[op] = {command, argv: ARGV[op] ?? firstExample(command)}

describe('every operation in the OpenAPI document has a gw command', () => {
  it('the commands name every operation, and only operations, each once', () => {
    const ids = operations.map((o) => o.operationId as string)
    const declared = Object.values(commandClasses).flatMap((c) => c.operations ?? [])
    expect(declared.filter((id, i) => declared.indexOf(id) !== i), 'operations two commands say they perform').toEqual([])
    const covered = [...declared, ...Object.keys(KNOWN_GAPS)]
    expect(ids.filter((id) => !covered.includes(id)), 'operations with neither a command nor a known gap').toEqual([])
    expect(covered.filter((id) => !ids.includes(id)), 'operations of commands or gaps that are not operations').toEqual([])
    expect(Object.keys(KNOWN_GAPS).filter((id) => declared.includes(id)), 'a gap that has a command: drop it from KNOWN_GAPS').toEqual([])
    expect(Object.keys(ARGV).filter((id) => !declared.includes(id)), 'ARGV for an operation no command performs').toEqual([])
    // only what machines ask (a load balancer, Prometheus) may go without a command
    expect(Object.keys(KNOWN_GAPS).filter((id) => operations.find((o) => o.operationId === id)?.tags?.[0] !== 'Operations')).toEqual([])
  })
})

// ---------------------------------------------------------------- each command performs its operation

function resolveRef(s: Json): Json {
  let n = s
  while (n && typeof n.$ref === 'string') n = n.$ref.slice(2).split('/').reduce((o: Json, k: string) => o[k.replace(/~1/g, '/')], doc)
  return n
}

/** A value the schema accepts, built from the document (first enum value, prefixed ids, nulls where allowed). */
function sample(schema: Json, depth = 0): unknown {
  const s = resolveRef(schema)
  if (depth > 12) return null
  if (s.const !== undefined) return s.const
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null) ?? null
  if (Array.isArray(s.allOf)) return sample(s.allOf[0], depth + 1)
  const alt = (s.anyOf ?? s.oneOf) as Json[] | undefined
  if (alt) return sample(alt.find((b) => resolveRef(b).type !== 'null') ?? alt[0]!, depth + 1)
  const type = Array.isArray(s.type) ? (s.type.includes('null') ? 'null' : s.type[0]) : s.type
  switch (type) {
    case 'null':
      return null
    case 'string': {
      if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z'
      if (s.format === 'date') return '2026-01-01'
      const p = String(s.pattern ?? '')
      const prefix = /^\^([a-z]+_)/.exec(p)
      if (prefix) return `${prefix[1]}123`
      if (p === '^[A-Z]{3}$') return 'EUR'
      if (p === '^[A-Z]{2}$') return 'NL'
      if (p === '^[0-9]{4}$') return '4242'
      if (p.startsWith('^https://') || s.format === 'uri') return 'https://example.com/x'
      return 'x'
    }
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1)
    case 'boolean':
      return false
    case 'array':
      return []
    default: {
      const o: Json = {}
      for (const k of (s.required ?? []) as string[]) o[k] = sample(s.properties[k], depth + 1)
      return o
    }
  }
}

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

describe.each(Object.entries(COMMAND_OF_OPERATION))('%s', (operationId, {command, argv}) => {
  it(`gw ${command.replace(/:/g, ' ')} sends it`, async () => {
    const op = operations.find((o) => o.operationId === operationId)!
    const seen: string[] = []
    cli.pool
      .intercept({path: () => true, method: () => true})
      .reply((req) => {
        const path = String(req.path).replace(/^\/v1/, '')
        const found = findOperation(req.method, path)
        if (!found) return {statusCode: 404, data: {error: {type: 'invalid_request_error', code: 'route_unknown', message: 'no such route', doc_url: 'https://x', request_id: 'req_1'}}}
        seen.push(found.op.operationId)
        const [status, res] = Object.entries(found.op.responses as Json).find(([s]) => s.startsWith('2'))!
        const content = resolveRef(res as Json).content as Json
        const headers = {'content-type': 'application/json', 'request-id': 'req_1'}
        if (content['text/event-stream']) {
          // the tail runs until stopped, as a user would stop it
          setTimeout(() => process.emit('SIGINT'), 50)
          return {statusCode: 200, data: ': connected\n\n', responseOptions: {headers: {...headers, 'content-type': 'text/event-stream'}}}
        }
        return {statusCode: Number(status), data: JSON.stringify(sample(content['application/json'].schema)), responseOptions: {headers}}
      })
      .persist()
    const mod = (await import(`./${command.replace(/:/g, '/')}.js`)) as {default: {run(argv?: string[], opts?: unknown): Promise<unknown>; flags?: object; baseFlags?: object}}
    // the flags it takes, the global ones included (as the manifest lists them)
    const flags = {...mod.default.baseFlags, ...mod.default.flags}
    const extra = ['--json', ...('yes' in flags ? ['--yes'] : [])]
    const r = await cli.run(mod.default, [...at(), ...extra, ...argv])
    expect(seen, `${command} ${argv.join(' ')}: stderr ${r.stderr}`).toContain(operationId)
    expect(op).toBeDefined()
  })
})
