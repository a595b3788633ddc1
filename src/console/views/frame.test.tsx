// The console's frame and its lists, in process (test-support/harness.tsx: the app on fake TTY
// streams drawn into a headless terminal, an engine booted in this process): it fits 80×24 with
// its status line, tabs, body and footer; `?` shows the keys, `:` jumps, j/k move the selection,
// Enter opens a row and Esc comes back; the Payments search finds a customer's payments by an
// email typed in mixed case.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {Dispute, Payment} from '../../api/types.js'
import {bootEngine, card, type TestEngine} from '../../engine/test-support/harness.js'
import {openConsoleInProcess, type ConsoleUnderTest} from '../test-support/harness.js'

let t: TestEngine
let c: ConsoleUnderTest | undefined
let dispute: Dispute
let zoePaid: Payment

beforeAll(async () => {
  t = await bootEngine()
  const pay = async (amount: number, reference: string, email: string) =>
    (await t.api('POST', '/payments', {amount, currency: 'EUR', payment_method: 'card', payment_method_data: card(), customer: {email, name: 'Zoë Lovelace'}, reference})).body as Payment
  const disputed = await pay(2000, 'ORDER-1', 'zoe@lovelace-shop.example')
  dispute = (await t.api('POST', '/test_helpers/disputes', {payment: disputed.id, reason: 'product_not_received'})).body
  zoePaid = await pay(4000, 'ORDER-2', 'zoe@lovelace-shop.example')
  await pay(999, 'ORDER-3', 'someone@else.example')
}, 60_000)

afterEach(async () => {
  await c?.close()
  c = undefined
})

afterAll(async () => t?.stop())

describe('gw console in process: the frame', () => {
  it('fits 80×24: status line, tabs, body and footer; ? shows the keys, : jumps, j/k move, Enter opens, Esc comes back', async () => {
    c = await openConsoleInProcess(t, {cols: 80, rows: 24})
    const home = await c.waitFor(/Disputes due \(1\)/)
    const lines = home.split('\n')
    expect(lines.length).toBe(24)
    expect(lines[0]).toMatch(/ TEST .*engine \d{4}-\d\d-\d\d \d\d:\d\d UTC.*● live/)
    expect(lines[1]).toContain('1 Home  2 Payments  3 Disputes')
    expect(home).toContain(dispute.id)
    expect(home).toMatch(/↑↓ move · Enter open .*q quit/)

    c.send('?')
    await c.waitFor('Keys of home')
    expect(c.screen()).toContain('quit (the terminal is left as it was found)')
    c.send('x') // any key closes the help
    await c.waitFor('Needs attention now')

    c.send(':')
    await c.waitFor('Enter go · Esc cancel')
    c.send('pay')
    c.send('\r')
    const payments = await c.waitFor(/3 payments/)
    expect(payments).toContain('REFERENCE')
    // j moves the selection (reverse video) to the second row; k back
    const selected = () => c!.inverseRows().find((y) => y > 2)
    const first = selected()!
    expect(first).toBeGreaterThan(2)
    c.send('j')
    await c.waitFor(() => selected() === first + 1)
    c.send('k')
    await c.waitFor(() => selected() === first)
    // Enter opens, Esc comes back
    c.send('\r')
    await c.waitFor(/Captured +€/)
    c.send('\u001b')
    await c.waitFor('3 payments')
  }, 60_000)
})

describe('gw console in process: Payments', () => {
  it('finds the payments of an email typed in mixed case, newest first, and opens one', async () => {
    c = await openConsoleInProcess(t, {cols: 120, rows: 40, initial: [{view: 'home'}, {view: 'payments'}]})
    await c.waitFor('/ to search')
    c.send('/')
    await c.waitFor('pay_… · email')
    c.send('Zoe@Lovelace-Shop.Example')
    c.send('\r')
    const found = await c.waitFor(/2 payments/)
    expect(found).toContain('ORDER-2')
    expect(found).toContain('ORDER-1')
    expect(found).not.toContain('ORDER-3')
    expect(found.indexOf('ORDER-2')).toBeLessThan(found.indexOf('ORDER-1'))
    c.send('\r')
    await c.waitFor(`${zoePaid.id}  succeeded  €40.00 EUR`)
  })
})

describe('gw console in process: every key of a read', () => {
  /** The console on Payments, its first row selected: which row is selected now, and that first one. */
  async function onPayments(o: {escapeMs?: number} = {}) {
    const con = (c = await openConsoleInProcess(t, {cols: 120, rows: 40, initial: [{view: 'home'}, {view: 'payments'}], ...o}))
    await con.waitFor('3 payments')
    const selected = () => con.inverseRows().find((y) => y > 2)
    // the rows are painted just after Ink's frame that says "3 payments"
    await con.waitFor(() => selected() !== undefined)
    return {con, selected, first: selected()!}
  }
  /** Down as a slow link delivers it: ESC, then its rest `gap` ms later. */
  async function downInTwo(con: ConsoleUnderTest, gap: number) {
    con.send('\u001b')
    await new Promise((r) => setTimeout(r, gap))
    con.send('[B')
  }

  it('acts on each key of a read, in order; joins an escape sequence split across reads; keeps a paste into a field as text', async () => {
    const {con, selected, first} = await onPayments()
    // two j in one read: two rows down; Up Up in one read: back
    con.send('jj')
    await con.waitFor(() => selected() === first + 2)
    con.send('\u001b[A\u001b[A')
    await con.waitFor(() => selected() === first)
    // ESC, then the rest of Down a moment later: one Down, not Esc (back) and "[B"
    await downInTwo(con, 10)
    await con.waitFor(() => selected() === first + 1)
    expect(con.stack().at(-1)?.view).toBe('payments')
    // 3 then 2 in one read: Disputes, then Payments
    con.send('32')
    await con.waitFor(() => con.stack().at(-1)?.view === 'payments' && con.screen().includes('3 payments'))
    // `/`, a search and Enter in one read
    con.send('/Zoe@Lovelace-Shop.Example\r')
    await con.waitFor(/2 payments/)
    // a paste into the field stays text (its line break submits nothing); Enter then searches
    con.send('/')
    await con.waitFor('Enter search · Esc cancel')
    con.send('\u0015\u001b[200~ORDER-3\r\u001b[201~')
    await con.waitFor(/Search ORDER-3 /)
    expect(con.screen()).toContain('Enter search · Esc cancel')
    con.send('\r')
    await con.waitFor(/1 payment\b/)
    // a paste outside a field is no key: a pasted "q" does not quit
    con.send('\u001b[200~q\u001b[201~')
    con.send('j')
    await con.settle()
    expect(con.screen()).toContain('1 payment')
  })

  it('--escape-time: a lone ESC waits that long for the rest of a key (a slow link), and is Esc after it', async () => {
    const {con, selected, first} = await onPayments({escapeMs: 400})
    // the rest of Down 150 ms after its ESC: three times the default wait, within this one
    await downInTwo(con, 150)
    await con.waitFor(() => selected() === first + 1)
    expect(con.stack().at(-1)?.view).toBe('payments')
    // ESC alone: Esc once the wait is over (back to Home)
    con.send('\u001b')
    await con.waitFor(() => con.stack().at(-1)?.view === 'home')
  })
})


describe('gw console in process: questions and errors whole', () => {
  it('wraps a question onto the lines it needs; a wrong amount keeps the refund question open with why under it', async () => {
    c = await openConsoleInProcess(t, {cols: 80, rows: 24, initial: [{view: 'home'}, {view: 'payment', id: zoePaid.id}]})
    await c.waitFor(`${zoePaid.id}  succeeded`)
    await c.press('f')
    await c.waitFor('Refund how much?')
    await c.press('abc', '\r')
    await c.waitFor('"abc" is not an amount in EUR')
    expect(c.screen()).toContain('Refund how much?')
    await c.press('\u0015', '99999', '\r')
    // wrapped onto the lines it needs: read as one text
    await c.waitFor((screen) => screen.replace(/\s+/g, ' ').includes('is more than the €40.00 EUR still refundable. Type another, or Esc.'))
    await c.press('\u0015', '1.25', '\r')
    // the confirmation whole at 80 columns, however long: "Continue? [y/N]" never cut
    const asked = await c.waitFor('Continue? [y/N]')
    expect(asked.replace(/\s+/g, ' ')).toContain(`This will refund €1.25 EUR of ${zoePaid.id}.`)
    await c.press('\u001b')
    await c.waitFor(/Not done|nothing was sent|Canceled/i)
    expect((await t.api('GET', `/refunds?payment=${zoePaid.id}`)).body.data).toEqual([])
  }, 60_000)
})
