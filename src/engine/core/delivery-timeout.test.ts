// The webhook attempt timeout: an option (the engine tests set it short), whose default is what
// docs/api.md promises receivers.
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {DELIVERY_TIMEOUT_MS} from '../domain/webhooks.js'
import {DeliveryWorker, type Accounts} from './delivery-worker.js'

const api = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8')

describe('webhook attempt timeout', () => {
  it('defaults to the 10 s docs/api.md gives a receiver to acknowledge; the option sets it', () => {
    // the documented figure: a 2xx within 10 seconds, in the delivery rules and the limits table
    expect(api).toMatch(/succeeds only on a 2xx within\s+10 seconds/)
    expect(api).toContain('| webhook acknowledgement | 10 seconds |')
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000)
    // (the worker reads the accounts only once started)
    const app = {} as Accounts
    expect(new DeliveryWorker(app).timeoutMs).toBe(10_000)
    expect(new DeliveryWorker(app, {perEndpoint: 4}).timeoutMs).toBe(10_000)
    expect(new DeliveryWorker(app, {timeoutMs: 1500}).timeoutMs).toBe(1500)
  })
})
