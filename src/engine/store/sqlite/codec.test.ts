import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {describe, expect, it} from 'vitest'
import {pack, PACK_MIN, unpack} from './codec.js'
import {SqliteStore} from './sqlite-store.js'

describe('stored JSON codec', () => {
  it('packs large values small and gives them back exactly; small values stay text', () => {
    const payment = JSON.stringify({id: 'pay_1', object: 'payment', amount: 2000, currency: 'EUR', status: 'succeeded', description: 'ünïcode ✓ "quoted"', metadata: {order: '42'}})
    const big = payment.repeat(6)
    const packed = pack(big)
    expect(Buffer.isBuffer(packed)).toBe(true)
    expect((packed as Buffer).length).toBeLessThan(big.length / 3)
    expect(unpack(packed)).toBe(big)
    const small = 'x'.repeat(PACK_MIN - 1)
    expect(pack(small)).toBe(small)
    expect(unpack(small)).toBe(small)
    expect(unpack(null)).toBeNull()
    expect(() => unpack(Buffer.from([99, 1, 2]))).toThrow(/unknown dictionary 99/)
  })

  it('what the writer thread packs, the store reads back byte for byte; the file holds it packed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-codec-'))
    try {
      const path = join(dir, 'gw.db')
      const store = new SqliteStore({path, durability: 'normal'})
      const json = `{"id":"evt_1","object":"event","type":"payment.succeeded","created_at":"2026-01-01T00:00:00.000Z","livemode":false,"request_id":null,"data":{"object":${JSON.stringify({id: 'pay_1', note: 'ü'.repeat(700)})}}}`
      await store.commit({events: [{id: 'evt_1', type: 'payment.succeeded', created_at: '2026-01-01T00:00:00.000Z', json}]})
      expect((await store.getEvent('evt_1'))!.json).toBe(json)
      await store.close()
      const raw = new Database(path, {readonly: true})
      const row = raw.prepare("SELECT json FROM events WHERE id = 'evt_1'").get() as {json: unknown}
      raw.close()
      expect(Buffer.isBuffer(row.json)).toBe(true)
      expect((row.json as Buffer).length).toBeLessThan(json.length / 2)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
