// Data reaches a terminal shown, not obeyed (docs/decisions.md#data-reaches-a-terminal-shown), end
// to end: a tenant's data holding terminal control sequences (a screen clear,
// an OSC title, a carriage-return overwrite, C1's CSI) reaches the built CLI's tables, detail views,
// timeline and error messages shown in caret notation, and its --json byte-exact.
import {afterAll, beforeAll, expect, it} from 'vitest'
import {HOSTILE, RAW_CONTROL, SHOWN} from '../src/output/test-support/hostile.js'
import {startCliWorld, type CliWorld} from './support/cli-world.js'

let w: CliWorld
let customer: {id: string}
let payment: {id: string}

const api = (method: 'POST', path: string, body: unknown) => w.api(method, path, body)

beforeAll(async () => {
  w = await startCliWorld('gw-e2e-terminal-', 'output/terminal.js')
  customer = await api('POST', '/customers', {email: 'ada@example.com', name: HOSTILE, description: HOSTILE, metadata: {note: HOSTILE}})
  const card = {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}
  payment = await api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card, customer: customer.id, reference: HOSTILE, description: HOSTILE, metadata: {order: HOSTILE}})
}, 60_000)

afterAll(async () => {
  await w?.close()
})

/** Human output: the data shown in caret notation, nothing sent as is. */
function shows(out: string, times: number) {
  expect(out).not.toMatch(RAW_CONTROL)
  expect(out.split(SHOWN).length - 1, out).toBeGreaterThanOrEqual(times)
}

it('tables, detail views and the timeline show control characters from data; nothing reaches the terminal as is', async () => {
  const [list, cus, pay, timeline] = await Promise.all([
    w.gw(['payments', 'list']),
    w.gw(['customers', 'get', customer.id]),
    w.gw(['payments', 'get', payment.id]),
    w.gw(['payments', 'timeline', payment.id, '--no-webhooks']),
  ])
  for (const r of [list, cus, pay, timeline]) expect(r.code, r.stderr).toBe(0)
  shows(list.stdout, 1) // the reference column
  shows(cus.stdout, 3) // name, description, metadata
  shows(pay.stdout, 3) // reference, description, metadata
  shows(timeline.stdout, 1) // "payment created ..., reference ..."
  // a table lays the shown form out: every line of the frame is as wide as the others
  const widths = new Set(list.stdout.trimEnd().split('\n').map((l) => [...l].length))
  expect(widths.size, list.stdout).toBe(1)
})

it('--json keeps the data byte-exact', async () => {
  const [raw, pay] = await Promise.all([w.gw(['customers', 'get', customer.id, '--json']), w.gwJson<any>(['payments', 'get', payment.id])])
  const cus = JSON.parse(raw.stdout)
  expect([cus.name, cus.description, cus.metadata.note]).toEqual([HOSTILE, HOSTILE, HOSTILE])
  expect([pay.reference, pay.description, pay.metadata.order]).toEqual([HOSTILE, HOSTILE, HOSTILE])
  // JSON's own escapes, and the C1 character JSON does not escape as it was stored
  expect(raw.stdout).toContain('\u009b31m')
  expect(raw.stdout).toContain('\\u001b[2J')
})

it('an error message quoting data shows it too', async () => {
  const r = await w.gw(['payments', 'list', '--metadata', `order${HOSTILE}`])
  expect(r.code).not.toBe(0)
  expect(r.stderr).not.toMatch(RAW_CONTROL)
  expect(r.stderr).toContain('^[[2J')
})
