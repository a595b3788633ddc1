import {readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Snapshot, SnapshotLoad} from '../../api/types.js'
import {at, cliEnv, json, type CliEnv} from '../../base/test-support/cli.js'
import SnapshotsLoad from './load.js'
import SnapshotsSave, {type SnapshotSaved} from './save.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const snapshot: Snapshot = {object: 'snapshot', format: 'gw.snapshot', version: 1, account: 'acct_a', livemode: false, created_at: '2026-11-24T00:00:00.000Z', engine_time: '2026-11-24T00:00:00.000Z', rows: {objects: [], events: [], jobs: [], idempotency: [], stats: [], settings: {}}}

describe('gw snapshots', () => {
  it('save writes the file readable by its owner only, an existing one included; --include-secrets asks for them and warns', async () => {
    const paths: string[] = []
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/test_helpers/snapshot'), method: 'GET'})
      .reply((o) => {
        paths.push(o.path)
        return {statusCode: 200, data: snapshot, responseOptions: json}
      })
      .persist()
    const file = join(cli.dir, 'world.json')
    writeFileSync(file, 'old', {mode: 0o644})
    const r = await cli.run<SnapshotSaved>(SnapshotsSave, [...at(), file])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(paths[0]).toBe('/v1/test_helpers/snapshot')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(snapshot)
    expect(r.stderr).not.toMatch(/signing secrets/)

    const fresh = join(cli.dir, 'with-secrets.json')
    const s = await cli.run<SnapshotSaved>(SnapshotsSave, [...at(), fresh, '--include-secrets'])
    expect(s.exitCode, s.stderr).toBe(0)
    expect(paths[1]).toBe('/v1/test_helpers/snapshot?include_secrets=true')
    expect(statSync(fresh).mode & 0o777).toBe(0o600)
    expect(s.stderr).toMatch(/holds working webhook signing secrets and whole card numbers/)
    expect(s.result?.secrets_included).toBe(true)
  })

  it('load says which endpoints got a new secret and how to learn it', async () => {
    const loaded: SnapshotLoad = {object: 'snapshot_load', from_account: 'acct_a', objects: 3, events: 2, jobs: 0, idempotency_keys: 1, new_webhook_secrets: 2, engine_time: '2026-11-24T00:00:00.000Z'}
    cli.pool.intercept({path: '/v1/test_helpers/snapshot', method: 'POST'}).reply(200, loaded, json)
    const file = join(cli.dir, 'world.json')
    writeFileSync(file, JSON.stringify(snapshot))
    const r = await cli.run(SnapshotsLoad, [...at(), file])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/2 webhook endpoint\(s\) came without their signing secret/)
    expect(r.stderr).toContain('gw webhooks rotate-secret ID --expires-in 0')
  })
})
