// `node bench/openapi-validate.js` (after npm run build): the request validator compiled from the
// OpenAPI document, ajv compiling at start versus ajv standalone code generated at build, on the
// create-payment body. Prints figures; asserts nothing.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'

const ROOT = resolve(import.meta.dirname, '..')
const log = (s = '') => process.stdout.write(s + '\n')
const ms = (t0) => performance.now() - t0

const VALID = {
  amount: 2000,
  currency: 'EUR',
  payment_method: 'card',
  payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}, billing_details: {address: {postal_code: '1011', country: 'NL'}}},
  return_url: 'https://shop.example/return',
  reference: 'order-1',
  customer: {email: 'a@example.com', name: 'Ada'},
  metadata: {order: '1', channel: 'web'},
}
const INVALID = {...VALID, amount: 20.5}

function rate(label, fn, arg, seconds = 1.5) {
  for (let i = 0; i < 20_000; i++) fn(arg) // warm-up
  let n = 0
  const t0 = performance.now()
  const end = t0 + seconds * 1000
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) fn(arg)
    n += 1000
  }
  const el = ms(t0)
  log(`${label.padEnd(58)} ${Math.round((n / el) * 1000).toLocaleString('en-US').padStart(11)} /s   ${((el * 1e6) / n).toFixed(0).padStart(6)} ns/call`)
}

async function main() {
  log(`openapi-validate bench: node ${process.version}, ${new Date().toISOString()}`)
  let t0 = performance.now()
  const {openapiDocument} = await import(pathToFileURL(join(ROOT, 'dist/api/openapi/document.js')).href)
  const doc = openapiDocument()
  log(`build the document in memory                               ${ms(t0).toFixed(1)} ms`)
  t0 = performance.now()
  const v = await import(pathToFileURL(join(ROOT, 'dist/engine/http/openapi-validate.js')).href)
  log(`import the validator module (ajv, ajv-formats)             ${ms(t0).toFixed(1)} ms`)
  t0 = performance.now()
  const create = v.requestValidator('createPayment')
  log(`compile: createPayment only (first use)                    ${ms(t0).toFixed(1)} ms`)
  t0 = performance.now()
  const n = v.compileAll()
  log(`compile: the other ${n - 1} operations                          ${ms(t0).toFixed(1)} ms`)

  // standalone: generate at "build", load at start
  const {default: standaloneCode} = await import('ajv/dist/standalone/index.js')
  const schema = v.httpSchema(doc.components.schemas.PaymentCreate, doc)
  t0 = performance.now()
  const ajv = v.newAjv()
  const compiledFn = ajv.compile(schema)
  const code = standaloneCode(ajv, compiledFn)
  const genMs = ms(t0)
  mkdirSync(join(ROOT, 'node_modules/.cache'), {recursive: true})
  const dir = mkdtempSync(join(ROOT, 'node_modules/.cache/gw-ajv-standalone-'))
  try {
    const file = join(dir, 'create-payment.mjs')
    writeFileSync(file, code)
    log(`standalone: generate code for createPayment (build time)   ${genMs.toFixed(1)} ms, ${(code.length / 1024).toFixed(1)} KiB`)
    t0 = performance.now()
    const standalone = (await import(pathToFileURL(file).href)).default
    log(`standalone: import the generated module (start time)       ${ms(t0).toFixed(1)} ms`)
    log()
    if (!standalone(VALID) || standalone(INVALID) || !compiledFn(VALID) || compiledFn(INVALID)) throw new Error('validators disagree')
    rate('ajv compiled at start: valid create-payment body', compiledFn, VALID)
    rate('ajv standalone (generated at build): valid body', standalone, VALID)
    rate('ajv compiled at start: invalid body (amount 20.5)', compiledFn, INVALID)
    rate('ajv standalone: invalid body (amount 20.5)', standalone, INVALID)
    // the hand-written validation it replaces (validate.ts with the create-payment field specs of services/payments.ts)
    const {validate} = await import(pathToFileURL(join(ROOT, 'dist/engine/http/validate.js')).href)
    const billing = {name: {type: 'string', maxLength: 200}, email: {type: 'string', maxLength: 200}, phone: {type: 'string', maxLength: 40}, address: {type: 'object', fields: {line1: {type: 'string', maxLength: 200}, line2: {type: 'string', maxLength: 200}, city: {type: 'string', maxLength: 100}, state: {type: 'string', maxLength: 100}, postal_code: {type: 'string', maxLength: 20}, country: {type: 'string', maxLength: 2}}}}
    const CREATE = {
      amount: {type: 'integer', required: true, min: 1, max: 99_999_999, hint: "in the currency's minor unit (2000 = €20.00)"},
      currency: {type: 'string', required: true},
      payment_method: {type: 'string'},
      payment_method_id: {type: 'string'},
      payment_method_data: {type: 'object', fields: {type: {type: 'string', required: true, enum: ['card']}, card: {type: 'object', required: true, fields: {number: {type: 'string', required: true, maxLength: 30}, exp_month: {type: 'integer', required: true}, exp_year: {type: 'integer', required: true}, cvc: {type: 'string', maxLength: 4}}}, customer: {type: 'string'}, billing_details: {type: 'object', fields: billing}}},
      reference: {type: 'string', maxLength: 255},
      customer: {type: 'string_or_object', fields: {id: {type: 'string'}, email: {type: 'string', maxLength: 200}, name: {type: 'string', maxLength: 200}}},
      return_url: {type: 'string', maxLength: 2048},
      capture_method: {type: 'string', enum: ['automatic', 'manual']},
      confirm: {type: 'boolean'},
      description: {type: 'string', maxLength: 1000, nullable: true},
      metadata: {type: 'string_map', maxKeys: 50},
      merchant: {type: 'string'},
    }
    rate('hand-written validate.ts: valid body', (b) => validate(b, CREATE), VALID)
    rate('hand-written validate.ts: invalid → ApiError', (b) => {
      try {
        validate(b, CREATE)
      } catch {
        /* the 400 */
      }
    }, INVALID)
    rate('requestValidator(createPayment): valid body', (b) => create({body: b}), VALID)
    rate('requestValidator(createPayment): invalid → ApiError', (b) => {
      try {
        create({body: b})
      } catch {
        /* the 400 */
      }
    }, INVALID)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

await main()
