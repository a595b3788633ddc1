// The evidence form inside the console, in process (test-support/harness.tsx): at 80×24 a long
// pasted text stays inside the frame (its last lines under a count of those above, nothing past
// the footer), the value is listed on one line with its count, the review fits, and n sends
// nothing. A draft is never lost: the review holds while the engine cannot be reached, Ctrl-C
// asks as Esc does, and what was entered outlives the console and is offered again.
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
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
    // the review's pane: every line of the pasted text can be read before it is sent
    expect(review).toMatch(/What will be sent: lines 1–\d+ of 41/)
    expect(review).toContain('shipping_address:')
    expect(review).not.toContain('line 40 of what')
    for (let i = 0; i < 41 && !/What will be sent: lines \d+–41 of 41/.test(c.screen()); i++) {
      await c.press('\u001b[6~')
      await c.settle(50)
    }
    await c.waitFor(/What will be sent: lines \d+–41 of 41/)
    expect(c.screen()).toContain('line 40 of what the customer wrote')
    await c.press('\u001b[A')
    await c.waitFor(/What will be sent: lines \d+–40 of 41/)
    // nothing is sent: n cancels
    c.send('n')
    await c.waitFor('Canceled; no evidence was submitted.')
    expect((await t.api('GET', `/disputes/${dp.id}`)).body.status).toBe('needs_response')
  }, 90_000)
})

describe('gw console in process: an evidence draft is never lost', () => {
  it('holds the review while the engine cannot be reached; Ctrl-C asks as Esc does; the draft outlives the console (0600) and is offered again, and goes once sent', async () => {
    const config = mkdtempSync(join(tmpdir(), 'gw-console-drafts-'))
    try {
      const dp = await soleDispute('ORDER-DRAFT')
      c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'disputes'}], configDir: config})
      await openShippingAddress(c)
      await c.press('1 Main St', '\r')
      await c.waitFor('3. [x] shipping_address')
      await c.press('\r', '\r') // on to files, on to the review
      await c.waitFor('Submit this evidence?')
      // the engine goes away: the review holds, nothing is lost
      const port = Number(new URL(t.engine.baseUrl).port)
      await t.engine.close()
      await c.waitFor('Reconnecting to')
      await c.press('y')
      await c.waitFor('The engine cannot be reached (see the banner): nothing was sent.')
      expect(c.screen()).toContain('Submit this evidence?')
      // Ctrl-C asks, as Esc does; n goes back
      await c.press('\u0003')
      await c.waitFor('Discard the evidence you entered?')
      await c.press('n')
      await c.waitFor('Submit this evidence?')
      // a second Ctrl-C at the question quits, keeping the draft
      await c.press('\u0003')
      await c.waitFor('Ctrl-C: quit, keeping it as a draft')
      await c.press('\u0003')
      await c.done
      await c.close()
      c = undefined
      const file = join(config, 'console-drafts', 'default', `${dp.id}.json`)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(JSON.parse(readFileSync(file, 'utf8')).fields).toEqual({shipping_address: '1 Main St'})

      // the engine is back; a new console: the draft is offered on opening the form, and sent
      await t.restart({port})
      c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'disputes'}], configDir: config})
      await c.waitFor(/1 dispute\b/)
      await c.press('\r')
      await c.waitFor('[ ] shipping_address')
      await c.press('e')
      await c.waitFor(/Your draft, kept .*: 1 field \(shipping_address\)/)
      expect(c.screen()).toContain('3. [x] shipping_address')
      await c.press('\r', '\r')
      await c.waitFor('Submit this evidence?')
      await c.press('y')
      await c.waitFor(`Evidence sent: ${dp.id} is under_review`)
      expect(existsSync(file)).toBe(false)
      expect((await t.api('GET', `/disputes/${dp.id}`)).body.evidence.fields).toEqual({shipping_address: '1 Main St'})
    } finally {
      rmSync(config, {recursive: true, force: true})
    }
  }, 90_000)
})
