// The evidence form inside the console, in process (test-support/harness.tsx): at 80×24 a long
// pasted text stays inside the frame (its last lines under a count of those above, nothing past
// the footer), the value is listed on one line with its count, the review fits, and n sends
// nothing.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {Dispute} from '../../api/types.js'
import {bootEngine, card, type TestEngine} from '../../engine/test-support/harness.js'
import {openConsoleInProcess, type ConsoleUnderTest} from '../test-support/harness.js'

let t: TestEngine
let c: ConsoleUnderTest | undefined

beforeAll(async () => {
  t = await bootEngine()
}, 60_000)

afterEach(async () => {
  await c?.close()
  c = undefined
})

afterAll(async () => t?.stop())

/** A dispute of its own, alone in the queue (those of earlier tests accepted). */
async function soleDispute(reference: string): Promise<Dispute> {
  const open = (await t.api('GET', '/disputes?status=needs_response&limit=100')).body.data as Dispute[]
  for (const d of open) await t.api('POST', `/disputes/${d.id}/accept`)
  const paid = (await t.api('POST', '/payments', {amount: 1500, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference})).body
  return (await t.api('POST', '/test_helpers/disputes', {payment: paid.id, reason: 'product_not_received'})).body
}

/** From a queue of one dispute: open it, the evidence form, and the value of shipping_address (3rd of its checklist). */
async function openShippingAddress(con: ConsoleUnderTest) {
  await con.waitFor(/1 dispute\b/)
  con.send('\r')
  await con.waitFor('[ ] shipping_address')
  con.send('e')
  await con.waitFor('Field key')
  con.send('3')
  con.send('\r')
  await con.waitFor('Esc cancels (here: back to the key)')
}

describe('gw console in process: the evidence form at 80×24', () => {
  it('keeps a long pasted text inside the frame: the last lines shown under a count of those above, nothing past the footer', async () => {
    const dp = await soleDispute('ORDER-80x24')
    c = await openConsoleInProcess(t, {cols: 80, rows: 24, initial: [{view: 'home'}, {view: 'disputes'}]})
    await openShippingAddress(c)
    const text = Array.from({length: 40}, (_, i) => `line ${i + 1} of what the customer wrote about the parcel that never came`).join('\r')
    c.send(text)
    const pasted = await c.waitFor('line 40 of what the customer wrote')
    const rows = pasted.split('\n')
    // the frame around it: the status line and tabs on top, the footer last
    expect(rows[0]).toContain(' TEST ')
    expect(rows[1]).toContain('1 Home')
    expect(rows.filter((r) => r.trim()).at(-1)).toContain('Esc leave the form')
    expect(pasted).toMatch(/↑ \d+ lines above/)
    expect(pasted).toContain(`Dispute ${dp.id}`)
    // kept, listed on one line with its count; then the review, inside the frame as well
    c.send('\r')
    await c.waitFor('shipping_address = (40 lines) line 1 of what the customer wrote')
    c.send('\r')
    await c.waitFor('File URL')
    c.send('\r')
    const review = await c.waitFor('Submit this evidence?')
    expect(review).toContain('Esc leave the form')
    // nothing is sent: n cancels
    c.send('n')
    await c.waitFor('Canceled; no evidence was submitted.')
    expect((await t.api('GET', `/disputes/${dp.id}`)).body.status).toBe('needs_response')
  })
})
