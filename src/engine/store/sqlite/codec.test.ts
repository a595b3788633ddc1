import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {describe, expect, it} from 'vitest'
import {deflateRawSync} from 'node:zlib'
import {CURRENT, DICTIONARIES, pack, PACK_MIN, unpack} from './codec.js'
import {SqliteStore} from './sqlite-store.js'
import {PLATFORM_ACCOUNT} from '../../ports/store.js'

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
    expect(() => unpack(Buffer.from([99, 1, 2]))).toThrow(/unknown format 99/)
  })

  it('packs in format 2 (zstd with the dictionary): a payment of ~950 bytes takes under 200', () => {
    const payment = JSON.stringify({id: 'pay_0VbmXk3RZ5oGf1Hq2Lw9TcYd', object: 'payment', amount: 3150, amount_captured: 3150, amount_refunded: 0, currency: 'EUR', status: 'succeeded', payment_method: 'card', payment_method_id: null, payment_method_details: {card: {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, funding: 'credit', country: 'US'}}, capture_method: 'automatic', customer: null, description: 'bench order', reference: 'pay_0VbmXk3RZ5oGf1Hq2Lw9TcYd', metadata: {}, provider: 'prov_atlas', provider_attempts: [{provider: 'prov_atlas', outcome: 'approved', decline_code: null, latency_ms: 212, attempted_at: '2026-11-23T05:31:05.123Z'}], risk: {score: 12, decision: 'approved', checks: {avs_result: 'unavailable', cvv_result: 'pass'}}, next_action: null, return_url: null, refunded: false, partially_refunded: false, failure_code: null, failure_message: null, livemode: false, created_at: '2026-11-23T05:31:05.123Z', merchant: null})
    const packed = pack(payment) as Buffer
    expect(CURRENT).toBe(2)
    expect(packed[0]).toBe(2)
    expect(packed.length).toBeLessThan(200)
    expect(unpack(packed)).toBe(payment)
  })

  it('still reads values packed in format 1 (raw deflate with the same dictionary), as stores written before 2026-11 hold them', () => {
    const value = JSON.stringify({id: 'evt_1', object: 'event', note: 'ünïcode ✓'.repeat(80)})
    const z = deflateRawSync(value, {level: 1, windowBits: 12, memLevel: 4, dictionary: DICTIONARIES[1]})
    expect(unpack(Buffer.concat([Buffer.from([1]), z]))).toBe(value)
  })

  it('what the writer thread packs, the store reads back byte for byte; the file holds it packed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-codec-'))
    try {
      const path = join(dir, 'gw.db')
      const store = new SqliteStore({path, durability: 'normal'})
      const json = `{"id":"evt_1","object":"event","type":"payment.succeeded","created_at":"2026-01-01T00:00:00.000Z","livemode":false,"request_id":null,"data":{"object":${JSON.stringify({id: 'pay_1', note: 'ü'.repeat(700)})}}}`
      await store.account(PLATFORM_ACCOUNT).commit({events: [{id: 'evt_1', type: 'payment.succeeded', created_at: '2026-01-01T00:00:00.000Z', json}]})
      expect((await store.account(PLATFORM_ACCOUNT).getEvent('evt_1'))!.json).toBe(json)
      await store.close()
      const raw = new Database(path, {readonly: true})
      const row = raw.prepare("SELECT json FROM events WHERE id = 'evt_1'").get() as {json: unknown}
      raw.close()
      expect(Buffer.isBuffer(row.json)).toBe(true)
      expect((row.json as Buffer)[0]).toBe(2)
      expect((row.json as Buffer).length).toBeLessThan(json.length / 2)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
