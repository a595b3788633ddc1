// gw serve --store postgres://… --import-from DIR: a SQLite data dir's contents move into an
// empty PostgreSQL database and are served as they were.
import {rmSync} from 'node:fs'
import {afterAll, describe, expect, it} from 'vitest'
import {EngineConfigError, startEngine} from '../../index.js'
import {bootEngine, card, type TestEngine} from '../../test-support/harness.js'
import {freshDatabase} from '../../test-support/pg.js'

describe('--import-from a SQLite data dir', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c()
  })

  it('copies payments, events, idempotency records, jobs and the clock; refuses a database that holds data', async () => {
    const sqlite = await bootEngine({store: undefined, storeUrl: 'sqlite'})
    const dataDir = sqlite.dataDir
    const key = 'import-key-1'
    const created = await sqlite.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), capture_method: 'manual'}, {'idempotency-key': key})
    expect(created.status).toBe(201)
    await sqlite.advance(3600)
    const events = (await sqlite.api('GET', '/events?limit=100')).body
    const clock = (await sqlite.api('GET', '/test_helpers/clock')).body
    await sqlite.agent.close()
    await sqlite.engine.close()

    const url = await freshDatabase('import')
    const pg: TestEngine = await bootEngine({dataDir, storeUrl: url, importFrom: dataDir})
    cleanups.push(async () => {
      await pg.stop()
      rmSync(dataDir, {recursive: true, force: true})
    })
    expect((await pg.api('GET', `/payments/${created.body.id}`)).body).toEqual(created.body)
    expect((await pg.api('GET', '/events?limit=100')).body.data).toEqual(events.data)
    const replay = await pg.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), capture_method: 'manual'}, {'idempotency-key': key})
    expect(replay.text).toBe(created.text)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect((await pg.api('GET', '/test_helpers/clock')).body.offset_seconds).toBe(clock.offset_seconds)
    // the authorization's expiry job came along: it still runs
    await pg.advance(7 * 86_400)
    expect((await pg.api('GET', `/payments/${created.body.id}`)).body.status).toBe('canceled')

    await expect(startEngine({dataDir, port: 0, storeUrl: url, importFrom: dataDir, log: () => {}})).rejects.toThrow(EngineConfigError)
    await expect(startEngine({dataDir, port: 0, storeUrl: url, importFrom: dataDir, log: () => {}})).rejects.toThrow(/empty PostgreSQL database/)
  })
})
