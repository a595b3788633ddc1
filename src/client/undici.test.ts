// The client loads undici's internal files directly (src/client/undici.ts). These tests fail
// loudly when an undici upgrade moves or changes them: then either pin the old version again
// or update the paths in undici.ts.
import {createRequire} from 'node:module'
import {readFileSync} from 'node:fs'
import * as undiciIndex from 'undici'
import {MockAgent} from 'undici'
import {describe, expect, it} from 'vitest'
import {Agent, request, stream, UNDICI_INTERNALS} from './undici.js'
import {Writable} from 'node:stream'

const require = createRequire(import.meta.url)

describe('undici internals the client deep-imports', () => {
  it('package.json pins undici to one exact version, the one installed', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {dependencies: Record<string, string>}
    const installed = (JSON.parse(readFileSync(require.resolve('undici/package.json'), 'utf8')) as {version: string}).version
    expect(pkg.dependencies.undici).toMatch(/^\d+\.\d+\.\d+$/)
    expect(installed).toBe(pkg.dependencies.undici)
  })

  it('the paths resolve to the same objects the undici index exports', () => {
    for (const path of Object.values(UNDICI_INTERNALS)) expect(() => require.resolve(path), path).not.toThrow()
    expect(Agent).toBe(undiciIndex.Agent)
    expect(typeof require(UNDICI_INTERNALS.request)).toBe('function')
    expect(typeof require(UNDICI_INTERNALS.stream)).toBe('function')
    // the index builds its request()/stream() from these very functions
    expect(undiciIndex.Dispatcher.prototype.request).toBe(require(UNDICI_INTERNALS.request))
    expect(undiciIndex.Dispatcher.prototype.stream).toBe(require(UNDICI_INTERNALS.stream))
  })

  it('request() and stream() send method, path, query, headers and body through the given dispatcher', async () => {
    const mock = new MockAgent()
    mock.disableNetConnect()
    const pool = mock.get('https://api.example.test')
    let seen: {path: string; method: string; body: unknown; headers: unknown} | undefined
    pool.intercept({path: '/v1/things?limit=2', method: 'POST'}).reply(201, (opts) => {
      seen = {path: opts.path, method: opts.method, body: opts.body, headers: opts.headers}
      return {ok: true}
    })
    const res = await request('https://api.example.test/v1/things?limit=2', {method: 'POST', headers: {'x-a': '1'}, body: '{"a":1}', dispatcher: mock})
    expect(res.statusCode).toBe(201)
    expect(await res.body.json()).toEqual({ok: true})
    expect(seen).toMatchObject({path: '/v1/things?limit=2', method: 'POST', body: '{"a":1}', headers: {'x-a': '1'}})

    pool.intercept({path: '/v1/stream', method: 'GET'}).reply(200, 'chunk')
    let text = ''
    await stream('https://api.example.test/v1/stream', {method: 'GET', dispatcher: mock, opaque: null}, ({statusCode}) => {
      expect(statusCode).toBe(200)
      return new Writable({
        write(chunk: Buffer, _enc, cb) {
          text += chunk.toString()
          cb()
        },
      })
    })
    expect(text).toBe('chunk')
    await mock.close()
  })
})
