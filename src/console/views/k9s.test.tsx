// What a k9s or lazygit user reaches for, in process (test-support/harness.tsx): a filter that
// narrows as it is typed, Esc clearing it before leaving the view, the filter gone once the view
// is left; sorting a list by a column; `:` with aliases, an object's id and :q; the last view
// remembered per profile.
import {mkdtempSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {Payment} from '../../api/types.js'
import {bootEngine, card, type TestEngine} from '../../engine/test-support/harness.js'
import {matchObject, matchView} from '../keymap.js'
import {lastView, rememberView} from '../remember.js'
import {openConsoleInProcess, type ConsoleUnderTest} from '../test-support/harness.js'

let t: TestEngine
let c: ConsoleUnderTest | undefined
const paid: Payment[] = []

beforeAll(async () => {
  t = await bootEngine()
  for (const [amount, reference] of [[3000, 'K9-B'], [1000, 'K9-C'], [2000, 'K9-A']] as const)
    paid.push((await t.api('POST', '/payments', {amount, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference})).body)
  await t.api('POST', '/test_helpers/disputes', {payment: paid[0]!.id, reason: 'fraudulent'})
  await t.api('POST', '/test_helpers/disputes', {payment: paid[1]!.id, reason: 'product_not_received'})
}, 60_000)

afterEach(async () => {
  await c?.close()
  c = undefined
})

afterAll(async () => t?.stop())

const order = (screen: string, refs: string[]) => refs.map((r) => screen.indexOf(r))

describe('gw console in process: what a k9s user reaches for', () => {
  it('narrows a filter as it is typed; Esc clears it before leaving; it is gone once the view is left', async () => {
    c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'disputes'}]})
    await c.waitFor('2 disputes')
    await c.press('/')
    await c.waitFor('Enter filter · Esc cancel')
    await c.press('f', 'r', 'a', 'u')
    // no Enter: the rows follow the typing
    await c.waitFor(/1 dispute\b/)
    expect(c.screen()).not.toContain('product_not_received')
    await c.press('\u001b') // leave the field: the filter stays
    await c.waitFor('Esc clear the filter')
    expect(c.screen()).toContain('1 dispute')
    await c.press('\u001b') // Esc clears it, still on Disputes
    await c.waitFor('2 disputes')
    expect(c.stack().at(-1)?.view).toBe('disputes')
    await c.press('/', 'fraud', '\r')
    await c.waitFor(/1 dispute\b/)
    await c.press('2')
    await c.waitFor('3 payments')
    await c.press('3')
    await c.waitFor('2 disputes')
  }, 60_000)

  it('sorts a list by its next column (s) and the other way (S)', async () => {
    c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'payments'}]})
    const first = await c.waitFor('3 payments')
    // newest first, as the API lists them
    expect(order(first, ['K9-A', 'K9-C', 'K9-B'])).toEqual([...order(first, ['K9-A', 'K9-C', 'K9-B'])].sort((a, b) => a - b))
    await c.press('s') // status
    await c.waitFor('sort: status ↑')
    await c.press('s') // amount
    const byAmount = await c.waitFor('sort: amount ↑')
    const asc = order(byAmount, ['K9-C', 'K9-A', 'K9-B'])
    expect(asc).toEqual([...asc].sort((a, b) => a - b))
    await c.press('S')
    const desc = await c.waitFor('sort: amount ↓')
    const down = order(desc, ['K9-B', 'K9-A', 'K9-C'])
    expect(down).toEqual([...down].sort((a, b) => a - b))
  }, 60_000)

  it('jumps by alias and by id at `:`, and :q quits', async () => {
    expect(matchView('dp')).toBe('disputes')
    expect(matchView('pay')).toBe('payments')
    expect(matchObject(`:${paid[2]!.id}`)).toEqual({view: 'payment', tab: 'payments', id: paid[2]!.id})
    expect(matchObject('ORDER-1')).toBeUndefined()
    c = await openConsoleInProcess(t)
    await c.waitFor('Needs attention now')
    await c.press(':', 'dp', '\r')
    await c.waitFor('2 disputes')
    await c.press(':', paid[2]!.id, '\r')
    await c.waitFor(`${paid[2]!.id}  succeeded`)
    expect(c.stack().map((r) => r.view)).toEqual(['home', 'payments', 'payment'])
    await c.press('\u001b')
    await c.waitFor('3 payments')
    await c.press(':', 'q', '\r')
    await c.done
  }, 60_000)

  it('remembers the view it was left on, per profile, in a file of its owner', () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-console-state-'))
    try {
      expect(lastView(root, 'support')).toBeUndefined()
      rememberView(root, 'support', 'disputes')
      expect(lastView(root, 'support')).toBe('disputes')
      expect(lastView(root, 'default')).toBeUndefined()
      expect(statSync(join(root, 'console-state', 'support.json')).mode & 0o777).toBe(0o600)
    } finally {
      rmSync(root, {recursive: true, force: true})
    }
  })
})
