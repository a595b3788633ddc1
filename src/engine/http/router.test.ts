// The router takes each route's method and path from the OpenAPI document, and refuses a test
// helper (the document's x-test-helper) to a live-mode key before its handler runs.
import {describe, expect, it} from 'vitest'
import {OPERATIONS, openapiDocument} from '../../api/openapi/document.js'
import {toApiError} from './errors.js'
import {listUrl, Router, type RequestCtx} from './router.js'

type Json = Record<string, any>
const ran: string[] = []
const ok = async () => ({status: 200, body: {}})

describe('routes keyed by operationId', () => {
  it("a route's method and path are the document's", () => {
    const r = new Router().on('retrievePayment', ok).on('capturePayment', ok).on('listChaos', ok).on('clearChaos', ok)
    expect(r.match('GET', '/payments/pay_1')).toMatchObject({route: {operationId: 'retrievePayment', write: false}, params: {id: 'pay_1'}})
    expect(r.match('POST', '/payments/pay_1/capture')).toMatchObject({route: {operationId: 'capturePayment', write: true}})
    // one path, two methods, two operations
    expect(r.match('GET', '/chaos')?.route.operationId).toBe('listChaos')
    expect(r.match('DELETE', '/chaos')?.route.operationId).toBe('clearChaos')
    expect(r.match('POST', '/payments/pay_1')).toBeUndefined()
    expect(r.list()).toEqual(['DELETE /chaos clearChaos', 'GET /chaos listChaos', 'GET /payments/{id} retrievePayment', 'POST /payments/{id}/capture capturePayment'])
    const doc = openapiDocument() as Json
    for (const line of r.list()) {
      const [method, path, id] = line.split(' ')
      expect(doc.paths[path!][method!.toLowerCase()].operationId).toBe(id)
    }
  })

  it('literal segments win over a parameter (api_keys/self is not a key id)', () => {
    const r = new Router().on('retrieveApiKey', ok).on('retrieveCurrentApiKey', ok)
    expect(r.match('GET', '/api_keys/self')?.route.operationId).toBe('retrieveCurrentApiKey')
    expect(r.match('GET', '/api_keys/key_1')?.route.operationId).toBe('retrieveApiKey')
  })

  it('an operation routed twice, or one the router does not serve (public, at the root), is refused when the routes are made', () => {
    expect(() => new Router().on('listPayments', ok).on('listPayments', ok)).toThrow(/listPayments has a route already/)
    expect(() => new Router().on('getLiveness' as never, ok as never)).toThrow(/not an operation of the API that the router serves/)
    expect(() => new Router().on('noSuchOperation' as never, ok as never)).toThrow(/not an operation/)
  })

  it("the document's test helpers answer a live-mode key 400 test_mode_only before their handler runs; other operations run", async () => {
    const helpers = [...OPERATIONS.values()].filter((o) => o.testHelper).map((o) => o.id)
    expect(helpers).toContain('testAdvanceClock')
    expect(helpers).toContain('createChaosApiFault')
    const r = new Router()
    for (const id of [...helpers, 'listPayments']) r.on(id as 'listPayments', async () => (ran.push(id), {status: 200, body: {}}))
    const run = async (id: string, livemode: boolean) => {
      const op = OPERATIONS.get(id)!
      const m = r.match(op.method.toUpperCase(), op.path.replace('{id}', 'x_1'))!
      expect(m.route.operationId).toBe(id)
      return m.route.handler({livemode} as RequestCtx, {} as never)
    }
    for (const id of helpers) {
      const e = toApiError(await run(id, true).catch((err: unknown) => err))
      expect(e, id).toMatchObject({status: 400, code: 'test_mode_only'})
    }
    expect(ran).toEqual([])
    await run('listPayments', true)
    for (const id of helpers) await run(id, false)
    expect(ran).toEqual(['listPayments', ...helpers])
  })

  it("a list's url is the path the request named, its parameters decoded", () => {
    expect(listUrl({path: '/payments'})).toBe('/v1/payments')
    expect(listUrl({path: '/payments/'})).toBe('/v1/payments')
    expect(listUrl({path: '/events/evt%5F1/deliveries'})).toBe('/v1/events/evt_1/deliveries')
  })
})
