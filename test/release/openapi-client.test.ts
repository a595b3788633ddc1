// A client generated from the document by a common generator compiles and pays: openapi-typescript
// turns the document into types, a small openapi-fetch client is compiled with tsc (strict), and
// the compiled client creates a payment against the engine booted in-process.
import {execFile} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import {promisify} from 'node:util'
import {fetch as undiciFetch, Request as UndiciRequest} from 'undici'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../../src/engine/test-support/harness.js'
import {openapiDocument} from '../../src/api/openapi/document.js'

const ROOT = resolve(import.meta.dirname, '../..')
const run = promisify(execFile)

const CLIENT = `import createClient from 'openapi-fetch'
import type {components, paths} from './schema.js'

export type Payment = components['schemas']['Payment']

/** Creates a first payment with the generated types: a frictionless test card. */
export async function firstPayment(
  baseUrl: string,
  key: string,
  fetchImpl: (input: Request) => Promise<Response>,
  RequestImpl: typeof Request,
): Promise<{payment: Payment; requestId: string | null; replayed: Payment}> {
  const client = createClient<paths>({baseUrl, fetch: fetchImpl, Request: RequestImpl, headers: {Authorization: \`Bearer \${key}\`}})
  const body = {
    amount: 2000,
    currency: 'EUR',
    payment_method: 'card' as const,
    payment_method_data: {type: 'card' as const, card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}},
    return_url: 'https://shop.example/return',
    metadata: {order: 'generated-client-1'},
  }
  const key1 = 'generated-client-' + Math.random()
  const {data, error, response} = await client.POST('/payments', {params: {header: {'Idempotency-Key': key1}}, body})
  if (error) throw new Error(\`\${response.status} \${error.error.code}: \${error.error.message}\`)
  const status: components['schemas']['PaymentStatus'] = data.status
  void status
  const again = await client.GET('/payments/{id}', {params: {path: {id: data.id}}})
  if (again.error) throw new Error(again.error.error.code)
  return {payment: data, requestId: response.headers.get('Request-Id'), replayed: again.data}
}

/** Compile-time checks: the generated types are strict enough to catch these. */
export function typeChecks(client: ReturnType<typeof createClient<paths>>): void {
  // @ts-expect-error amount is an integer of minor units, not a string
  void client.POST('/payments', {body: {amount: '20.00', currency: 'EUR'}})
  // @ts-expect-error not one of the 43 method codes
  const m: components['schemas']['MethodCode'] = 'cheque'
  void m
  // @ts-expect-error capture_method is automatic or manual
  void client.POST('/payments', {body: {amount: 100, currency: 'EUR', capture_method: 'later'}})
}
`

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    outDir: 'out',
    rootDir: '.',
    types: [],
  },
  files: ['schema.d.ts', 'client.ts'],
}

let t: TestEngine
let dir: string
beforeAll(async () => {
  t = await bootEngine()
  // inside node_modules so the generated client resolves openapi-fetch like any project would
  mkdirSync(join(ROOT, 'node_modules/.cache'), {recursive: true})
  dir = mkdtempSync(join(ROOT, 'node_modules/.cache/gw-openapi-client-'))
})
afterAll(async () => {
  await t?.stop()
  if (dir) rmSync(dir, {recursive: true, force: true})
})

it('openapi-typescript types + openapi-fetch: the client compiles (tsc --strict) and creates a payment against the engine', async () => {
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(openapiDocument(), null, 2))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({type: 'module', private: true}))
  // the generator, as its users run it
  await run(join(ROOT, 'node_modules/.bin/openapi-typescript'), [join(dir, 'openapi.json'), '--output', join(dir, 'schema.d.ts')], {cwd: dir, timeout: 60_000})
  const types = readFileSync(join(dir, 'schema.d.ts'), 'utf8')
  expect(types).toContain('"/payments/{id}/capture"')
  expect(types).toContain('createPayment')
  writeFileSync(join(dir, 'client.ts'), CLIENT)
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2))
  const tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], {cwd: dir, timeout: 120_000}).catch(
    (e: {stdout?: string; stderr?: string; code?: number}) => ({stdout: e.stdout ?? '', stderr: `exit ${e.code}: ${e.stderr ?? ''}`}),
  )
  expect(`${tsc.stdout}${tsc.stderr}`.trim()).toBe('')

  const mod = (await import(pathToFileURL(join(dir, 'out/client.js')).href)) as {
    firstPayment(baseUrl: string, key: string, fetchImpl: (r: unknown) => Promise<unknown>, RequestImpl: unknown): Promise<{payment: any; requestId: string | null; replayed: any}>
  }
  const {payment, requestId, replayed} = await mod.firstPayment(t.engine.baseUrl, t.key, (r) => undiciFetch(r as UndiciRequest, {dispatcher: t.agent}), UndiciRequest)
  expect(payment).toMatchObject({object: 'payment', amount: 2000, currency: 'EUR', status: 'succeeded', amount_captured: 2000, metadata: {order: 'generated-client-1'}})
  expect(payment.id).toMatch(/^pay_[0-9A-Za-z]+$/)
  expect(requestId).toMatch(/^req_/)
  expect(replayed.id).toBe(payment.id)
}, 180_000)
