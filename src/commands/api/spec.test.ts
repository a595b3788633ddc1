import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {json} from '../../base/test-support/cli.js'
import {mockApi, type MockApi} from '../../base/test-support/mock-context.js'
import {apiSpec} from './spec.js'

let api: MockApi
beforeEach(() => {
  api = mockApi()
})
afterEach(async () => {
  await api.close()
})

const DOC = {openapi: '3.1.0', info: {title: 'gw API', version: 'v1'}, paths: {'/payments': {get: {operationId: 'listPayments'}, post: {operationId: 'createPayment'}, parameters: []}, '/balance': {get: {operationId: 'retrieveBalance'}}}}

function serve() {
  const auth: (string | undefined)[] = []
  api.pool
    .intercept({path: '/v1/openapi.json', method: 'GET'})
    .reply((o) => {
      auth.push((o.headers as Record<string, string>).authorization)
      return {statusCode: 200, data: DOC, responseOptions: json}
    })
    .persist()
  return auth
}

describe('api spec', () => {
  it('prints the document the server serves', async () => {
    serve()
    const t = api.context()
    expect(await apiSpec(t.ctx, {})).toEqual(DOC)
    expect(JSON.parse(t.stdout())).toEqual(DOC)
  })

  it('--output writes the file and says what it holds', async () => {
    serve()
    const t = api.context()
    const file = join(api.dir, 'openapi.json')
    const r = await apiSpec(t.ctx, {output: file})
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(DOC)
    expect(r).toMatchObject({output: file, openapi: '3.1.0', title: 'gw API', version: 'v1', operations: 3})
    expect(t.stdout()).toBe('')
    expect(t.stderr()).toContain(`Wrote ${file}: OpenAPI 3.1.0, gw API v1, 3 operations.`)
    await expect(apiSpec(t.ctx, {output: join(api.dir, 'no', 'dir', 'x.json')})).rejects.toThrow(/Cannot write --output .*ENOENT/)
  })

  it('the document is public: without an API key it is still fetched from the base URL', async () => {
    const auth = serve()
    const t = api.context({env: {GW_API_KEY: ''}})
    expect(await apiSpec(t.ctx, {})).toEqual(DOC)
    expect(auth).toEqual([undefined])
  })
})
