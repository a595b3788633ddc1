// Card numbers at rest, as a tenant (or whoever copies the database) would look for them (SQLite,
// and PostgreSQL in the conformance-postgres project): cards customers type through every way in
// — the API's payment_method_data, a saved payment method, the hosted card form, a checkout
// session's page — rest nowhere whole (the database's files byte for byte, the WAL too, every
// value decoded; PostgreSQL's every text column and a pg_dump), nor in a snapshot without
// include_secrets; they keep their brand, last four and behaviour, refunds and saved cards work,
// and a secret key's include_secrets snapshot carries them whole to load elsewhere, where they are
// sealed again. Published test cards stay whole: public, and their digits are their behaviour.
// (docs/api.md#secrets-at-rest)
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {isPublishedTestCard} from '../domain/secrets.js'
import {bootEngine, card, type AsKey, type TestEngine} from '../test-support/harness.js'
import {databaseText, ownStore} from '../test-support/database-text.js'
import {cardPayment, RETURN_URL} from './helpers.js'

/** `prefix` and the digit that makes it pass the Luhn check. */
function luhn(prefix: string): string {
  for (let d = 0; d <= 9; d++) {
    const n = prefix + d
    let sum = 0
    for (let i = 0; i < n.length; i++) {
      let v = n.charCodeAt(n.length - 1 - i) - 48
      if (i % 2 === 1) v = v * 2 > 9 ? v * 2 - 9 : v * 2
      sum += v
    }
    if (sum % 10 === 0) return n
  }
  throw new Error('unreachable')
}

/** Cards customers typed: none a published test card (each path gets its own, so each is looked for on its own). */
const TYPED = {api: luhn('491761234567890'), saved: luhn('552961234567812'), form: luhn('453217654321098'), session: luhn('401288123456789'), amex: luhn('34876512345678')}
const form = (fields: Record<string, string>) => ({body: new URLSearchParams(fields).toString(), headers: {'content-type': 'application/x-www-form-urlencoded'}})

let t: TestEngine
let a: AsKey & {id: string}
let url: string | undefined
const made: Record<string, string> = {}

beforeAll(async () => {
  const own = await ownStore()
  url = own.url
  t = await bootEngine({rateLimit: 0, ...own.opts})
  a = await t.account('cards')
  for (const n of Object.values(TYPED)) expect(isPublishedTestCard(n), n).toBe(false)
  // the API: a card in the payment's body
  const api = await a.api('POST', '/payments', cardPayment({}, TYPED.api))
  expect(api.status, api.text).toBe(201)
  made.api = api.body.id
  const amex = await a.api('POST', '/payments', cardPayment({}, TYPED.amex))
  expect(amex.status, amex.text).toBe(201)
  // a saved card, and a payment with it
  const customer = (await a.api('POST', '/customers', {email: 'saved@example.com'})).body
  const pm = await a.api('POST', '/payment_methods', {...card(TYPED.saved), customer: customer.id})
  expect(pm.status, pm.text).toBe(201)
  const saved = await a.api('POST', '/payments', {amount: 1200, currency: 'EUR', payment_method_id: pm.body.id, customer: customer.id, return_url: RETURN_URL})
  expect(saved.status, saved.text).toBe(201)
  made.saved = saved.body.id
  // the hosted card form
  const waiting = (await a.api('POST', '/payments', {amount: 1800, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})).body
  const typed = await t.raw('POST', waiting.next_action.url, form({outcome: 'approve', number: TYPED.form.replace(/(\d{4})/g, '$1 ').trim(), exp: '12/34', cvc: '123'}))
  expect(typed.status, typed.text.slice(0, 300)).toBe(303)
  made.form = waiting.id
  // a checkout session's page
  const session = (await a.api('POST', '/checkout_sessions', {amount: 2100, currency: 'EUR', success_url: RETURN_URL, cancel_url: RETURN_URL})).body
  const paid = await t.raw('POST', session.url, form({method: 'card', number: TYPED.session, exp: '12/34', cvc: '123'}))
  expect(paid.status, paid.text.slice(0, 300)).toBe(303)
  made.session = (await a.api('GET', `/checkout_sessions/${session.id}`)).body.payment
})
afterAll(async () => t?.stop())

describe('cards customers type rest nowhere whole', () => {
  it('each payment succeeded with its brand and last four; a refund of one and a second payment with the saved card work', async () => {
    for (const [path, id] of Object.entries(made)) {
      const p = (await a.api('GET', `/payments/${id}`)).body
      expect(p.status, path).toBe('succeeded')
      expect(p.payment_method_details.card.last4, path).toBe(TYPED[path as keyof typeof TYPED].slice(-4))
    }
    expect((await a.api('GET', `/payments/${made.saved}`)).body.payment_method_details.card.brand).toBe('mastercard')
    const refund = await a.api('POST', '/refunds', {payment: made.api, amount: 500})
    expect(refund.status, refund.text).toBe(201)
    // the search by last four still finds them
    expect((await a.api('GET', `/payments?card_last4=${TYPED.form.slice(-4)}`)).body.data.map((p: {id: string}) => p.id)).toEqual([made.form])
  })

  it('no database file (its WAL included), stored value, PostgreSQL column or dump holds a typed number; the published test cards stay whole', async () => {
    // a published test card, to show the search reads what is there
    expect((await a.api('POST', '/payments', cardPayment({}, '4000000000003220'))).status).toBe(201)
    const text = await databaseText(t, url)
    for (const [path, n] of Object.entries(TYPED)) expect(text.includes(n), `${path}: ${n} rests whole`).toBe(false)
    expect(text).toContain('4000000000003220')
    // what the behaviour needs is there: the first six and last four of each
    for (const n of Object.values(TYPED)) expect(text).toMatch(new RegExp(`${n.slice(0, 6)}0*[0-9]0*${n.slice(-4)}`))
  })

  it('a snapshot holds them masked; a secret key with include_secrets holds them whole, and loading it elsewhere seals them again', async () => {
    const plain = await a.api('GET', '/test_helpers/snapshot')
    expect(plain.status).toBe(200)
    for (const n of Object.values(TYPED)) expect(plain.text.includes(n), n).toBe(false)
    expect(plain.text).not.toContain('gwenc1:')
    const whole = await a.api('GET', '/test_helpers/snapshot?include_secrets=true')
    expect(whole.status).toBe(200)
    for (const n of Object.values(TYPED)) expect(whole.text, n).toContain(n)
    // loaded into another account: its payments keep their last four, and nothing rests whole
    const b = await t.account('cards-elsewhere')
    const loaded = await b.api('POST', '/test_helpers/snapshot', whole.body)
    expect(loaded.status, loaded.text.slice(0, 300)).toBe(200)
    expect((await b.api('GET', `/payments/${made.form}`)).body.payment_method_details.card.last4).toBe(TYPED.form.slice(-4))
    const text = await databaseText(t, url)
    for (const n of Object.values(TYPED)) expect(text.includes(n), n).toBe(false)
    // and a snapshot of that account with include_secrets gives them back whole
    const again = await b.api('GET', '/test_helpers/snapshot?include_secrets=true')
    for (const n of Object.values(TYPED)) expect(again.text, n).toContain(n)
  })
})

describe('a database from before cards were sealed', () => {
  it('its whole card numbers are sealed at the first start, and rest nowhere after', async () => {
    const old = luhn('498765123456789')
    expect(isPublishedTestCard(old)).toBe(false)
    // a payment as an older gw stored it: the number whole, nothing sealed
    const store = t.engine.app.core.engineStore.account(a.id)
    await store.transact(async (tx) => {
      const got = (await tx.get<any>('payment', made.api))!
      const {sealed_number: _s, fingerprint: _f, ...instrument} = got.obj._x.instrument
      tx.commit({puts: [{kind: 'payment', obj: {...got.obj, _x: {...got.obj._x, instrument: {...instrument, number: old}}}, expectVersion: got.version}]})
    })
    expect(await databaseText(t, url)).toContain(old)
    // back to before this gw: the sealing not done
    await t.engine.close()
    if (url) {
      const {sql} = await import('../test-support/pg.js')
      await sql(url, "DELETE FROM settings WHERE key = 'fleet.cards_sealed'")
    } else {
      const db = new Database(join(t.dataDir, 'gw.db'))
      db.exec("DELETE FROM settings WHERE key = 'fleet.cards_sealed'")
      db.close()
    }
    await t.restart()
    const p = (await t.engine.app.core.engineStore.account(a.id).get<any>('payment', made.api))!.obj
    expect(p._x.instrument.sealed_number).toMatch(/^gwenc1:/)
    expect(p._x.instrument.number).not.toBe(old)
    expect(p._x.instrument.number.slice(-4)).toBe(old.slice(-4))
    await t.restart() // (SQLite: the file after a close's checkpoint)
    expect((await databaseText(t, url)).includes(old)).toBe(false)
    // and its refund still works
    expect((await a.api('POST', '/refunds', {payment: made.api, amount: 100})).status).toBe(201)
  })
})
