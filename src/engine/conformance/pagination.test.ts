// Pagination (docs/api.md#lists-and-pagination) on GET /payments and its filters.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {cardPayment, createPayment, expectError} from './helpers.js'

let t: TestEngine
/** ids of the 25 payments created in beforeAll, oldest first */
let ids: string[] = []
let customer: string
let created: any[] = []

beforeAll(async () => {
  t = await bootEngine()
  customer = (await t.api('POST', '/customers', {email: 'pager@example.com'})).body.id
  for (let i = 0; i < 25; i++) {
    const body = cardPayment({
      reference: `order-${i}`,
      // every 5th waits for confirmation; every 3rd belongs to the customer
      ...(i % 5 === 0 ? {confirm: false} : {}),
      ...(i % 3 === 0 ? {customer: {id: customer}} : {}),
    })
    const p = await createPayment(t, body)
    created.push(p)
    ids.push(p.id)
    // distinct created_at timestamps
    await t.advance(1)
  }
})
afterAll(async () => t.stop())

const newestFirst = () => [...ids].reverse()
const list = async (q = '') => {
  const r = await t.api('GET', `/payments${q}`)
  expect(r.status, r.text).toBe(200)
  return r.body
}

describe('list envelope', () => {
  it('object list, url /v1/payments, data newest first, default limit 20', async () => {
    const b = await list()
    expect(b.object).toBe('list')
    expect(b.url).toBe('/v1/payments')
    expect(b.data).toHaveLength(20)
    expect(b.has_more).toBe(true)
    expect(b.data.map((p: any) => p.id)).toEqual(newestFirst().slice(0, 20))
    const times = b.data.map((p: any) => p.created_at)
    expect([...times].sort().reverse()).toEqual(times)
    expect(b.data[0].object).toBe('payment')
  })

  it('an empty page is still an envelope', async () => {
    const b = await list('?reference=no-such-order')
    expect(b).toEqual({object: 'list', url: '/v1/payments', data: [], has_more: false})
  })
})

describe('limit', () => {
  it.each([1, 7, 25, 100])('limit=%i', async (n) => {
    const b = await list(`?limit=${n}`)
    expect(b.data.map((p: any) => p.id)).toEqual(newestFirst().slice(0, n))
    expect(b.has_more).toBe(n < 25)
  })

  it.each(['0', '101', '-1', 'abc', '2.5', ''])('limit=%j → 400', async (v) => {
    const e = expectError(await t.api('GET', `/payments?limit=${v}`), 400, 'invalid_request_error')
    expect(e.param).toBe('limit')
  })
})

describe('cursors', () => {
  it('starting_after walks older pages; has_more refers to the direction paged', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    let pages = 0
    for (;;) {
      const b = await list(`?limit=10${cursor ? `&starting_after=${cursor}` : ''}`)
      seen.push(...b.data.map((p: any) => p.id))
      pages++
      if (!b.has_more) break
      cursor = b.data.at(-1).id
    }
    expect(pages).toBe(3)
    expect(seen).toEqual(newestFirst())
  })

  it('ending_before walks newer pages, each page still newest first', async () => {
    const all = newestFirst()
    const oldest = all.at(-1)!
    const b = await list(`?limit=10&ending_before=${oldest}`)
    expect(b.data.map((p: any) => p.id)).toEqual(all.slice(14, 24))
    expect(b.has_more).toBe(true)
    const b2 = await list(`?limit=10&ending_before=${b.data[0].id}`)
    expect(b2.data.map((p: any) => p.id)).toEqual(all.slice(4, 14))
    expect(b2.has_more).toBe(true)
    const b3 = await list(`?limit=10&ending_before=${b2.data[0].id}`)
    expect(b3.data.map((p: any) => p.id)).toEqual(all.slice(0, 4))
    expect(b3.has_more).toBe(false)
  })

  it('ending_before the newest is empty; starting_after the oldest is empty', async () => {
    const all = newestFirst()
    expect(await list(`?ending_before=${all[0]}`)).toMatchObject({data: [], has_more: false})
    expect(await list(`?starting_after=${all.at(-1)}`)).toMatchObject({data: [], has_more: false})
  })

  it('starting_after and ending_before are mutually exclusive', async () => {
    expectError(await t.api('GET', `/payments?starting_after=${ids[3]}&ending_before=${ids[1]}`), 400, 'invalid_request_error')
  })

  it('an unknown cursor → 400', async () => {
    expectError(await t.api('GET', '/payments?starting_after=pay_nope'), 400, 'invalid_request_error')
  })

  it('cursors compose with filters', async () => {
    const mine = created.filter((p) => p.customer === customer).map((p) => p.id).reverse()
    expect(mine).toHaveLength(9)
    const a = await list(`?customer=${customer}&limit=4`)
    expect(a.data.map((p: any) => p.id)).toEqual(mine.slice(0, 4))
    expect(a.has_more).toBe(true)
    const b = await list(`?customer=${customer}&limit=4&starting_after=${a.data.at(-1).id}`)
    expect(b.data.map((p: any) => p.id)).toEqual(mine.slice(4, 8))
    const c = await list(`?customer=${customer}&limit=4&starting_after=${b.data.at(-1).id}`)
    expect(c.data.map((p: any) => p.id)).toEqual(mine.slice(8))
    expect(c.has_more).toBe(false)
    const back = await list(`?customer=${customer}&limit=4&ending_before=${c.data[0].id}`)
    expect(back.data.map((p: any) => p.id)).toEqual(mine.slice(4, 8))
    expect(back.has_more).toBe(true)
  })
})

describe('filters', () => {
  it('status', async () => {
    const b = await list('?status=requires_confirmation&limit=100')
    const expected = created.filter((p) => p.status === 'requires_confirmation').map((p) => p.id).reverse()
    expect(expected).toHaveLength(5)
    expect(b.data.map((p: any) => p.id)).toEqual(expected)
    const s = await list('?status=succeeded&limit=100')
    expect(s.data).toHaveLength(20)
    for (const p of s.data) expect(p.status).toBe('succeeded')
    expect((await list('?status=canceled')).data).toEqual([])
    expectError(await t.api('GET', '/payments?status=done'), 400, 'invalid_request_error')
  })

  it('customer', async () => {
    const b = await list(`?customer=${customer}&limit=100`)
    expect(b.data).toHaveLength(9)
    for (const p of b.data) expect(p.customer).toBe(customer)
    expect((await list('?customer=cus_nobody')).data).toEqual([])
  })

  it('reference', async () => {
    const b = await list('?reference=order-7')
    expect(b.data.map((p: any) => p.id)).toEqual([ids[7]])
  })

  it('created_gte and created_lte are inclusive', async () => {
    const from = created[5].created_at
    const to = created[9].created_at
    const b = await list(`?created_gte=${encodeURIComponent(from)}&created_lte=${encodeURIComponent(to)}&limit=100`)
    expect(b.data.map((p: any) => p.id)).toEqual(ids.slice(5, 10).reverse())
    const exact = await list(`?created_gte=${encodeURIComponent(from)}&created_lte=${encodeURIComponent(from)}`)
    expect(exact.data.map((p: any) => p.id)).toEqual([ids[5]])
    const gte = await list(`?created_gte=${encodeURIComponent(created[20].created_at)}`)
    expect(gte.data.map((p: any) => p.id)).toEqual(ids.slice(20).reverse())
    const lte = await list(`?created_lte=${encodeURIComponent(created[2].created_at)}`)
    expect(lte.data.map((p: any) => p.id)).toEqual(ids.slice(0, 3).reverse())
  })

  it('created filters accept other ISO 8601 forms (offsets, whole seconds)', async () => {
    const d = new Date(created[10].created_at)
    const floorSecond = new Date(Math.floor(d.getTime() / 1000) * 1000)
    const offset = floorSecond.toISOString().replace('.000Z', '+00:00')
    const b = await list(`?created_gte=${encodeURIComponent(offset)}&limit=100`)
    expect(b.data.map((p: any) => p.id)).toEqual(ids.slice(10).reverse())
  })

  it('invalid dates → 400', async () => {
    expectError(await t.api('GET', '/payments?created_gte=yesterday'), 400, 'invalid_request_error')
  })

  it('filters combine', async () => {
    const b = await list(`?customer=${customer}&status=requires_confirmation`)
    const expected = created.filter((p) => p.customer === customer && p.status === 'requires_confirmation').map((p) => p.id).reverse()
    expect(b.data.map((p: any) => p.id)).toEqual(expected)
  })
})

describe('GET /payments/{id}', () => {
  it('retrieves the payment as listed, including provider_attempts', async () => {
    const l = await list('?limit=1')
    const r = await t.api('GET', `/payments/${l.data[0].id}`)
    expect(r.body).toEqual(l.data[0])
    expect(Array.isArray(r.body.provider_attempts)).toBe(true)
  })
})

describe('every list endpoint shares the envelope and the page-size bounds', () => {
  it.each(['/payments', '/customers', '/payment_methods', '/events', '/providers'])('%s', async (path) => {
    const b = await t.api('GET', `${path}?limit=1`)
    expect(b.status, b.text).toBe(200)
    expect(b.body.object).toBe('list')
    expect(b.body.url).toBe(`/v1${path}`)
    expect(Array.isArray(b.body.data)).toBe(true)
    expect(b.body.data.length).toBeLessThanOrEqual(1)
    expect(typeof b.body.has_more).toBe('boolean')
    expect((await t.api('GET', `${path}?limit=100`)).status).toBe(200)
    for (const bad of ['0', '101']) expectError(await t.api('GET', `${path}?limit=${bad}`), 400, 'invalid_request_error')
    const first = (await t.api('GET', `${path}?limit=1`)).body.data[0]
    if (first) expectError(await t.api('GET', `${path}?starting_after=${first.id}&ending_before=${first.id}`), 400, 'invalid_request_error')
  })
})
