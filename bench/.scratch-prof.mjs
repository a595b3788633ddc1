import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Agent, request} from 'undici'
import {manyPayments} from './snapshot-read.js'
const {startEngine} = await import(process.cwd() + '/dist/engine/index.js')
const e = await startEngine({dataDir: mkdtempSync(join(tmpdir(), 'seca-')), port: 0, apiKey: 'sk_test_bench_0123456789abcdef', rateLimit: 0, durability: 'normal', log: () => {}, snapshotMaxBytes: 512*1024*1024})
const agent = new Agent({connect: {ca: e.caCertPem}, bodyTimeout: 0, headersTimeout: 0})
const call = async (m, p, b, key = e.secretKey) => { const r = await request(e.baseUrl + p, {method: m, dispatcher: agent, headers: {authorization: 'Bearer ' + key, ...(b ? {'content-type': 'application/json', 'idempotency-key': 'k' + Math.random()} : {})}, body: b ? (typeof b === 'string' ? b : JSON.stringify(b)) : undefined}); const t = await r.body.text(); return {status: r.statusCode, t, json: () => JSON.parse(t)} }
const acct = (await call('POST', '/accounts', {name: 'x'})).json()
const k = acct.secret_key
for (let i = 0; i < 20; i++) { const p = (await call('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}}, k)).json(); if (i%5===0) await call('POST', '/refunds', {payment: p.id, amount: 100}, k) }
const tpl = (await call('GET', '/test_helpers/snapshot', undefined, k)).json()
const N = Number(process.env.N ?? 2000)
const body = manyPayments(tpl, N)
let t = performance.now()
const l = await call('POST', '/test_helpers/snapshot', body, k)
console.log('load', l.status, (performance.now()-t).toFixed(0), 'ms', body.length)
const core = e.app.loaded(acct.id)
const {snapshotSecrets} = await import(process.cwd() + '/dist/engine/core/secrets.js')
for (let i = 0; i < 2; i++) {
t = performance.now(); const rows = await core.store.exportRows(); const t1 = performance.now()
const s = snapshotSecrets(rows, core.secrets, false); const t2 = performance.now()
const j = JSON.stringify({rows: s}); const t3 = performance.now()
console.log('export', (t1-t).toFixed(0), 'secrets', (t2-t1).toFixed(0), 'stringify', (t3-t2).toFixed(0), j.length)
t = performance.now(); const r = await call('GET', '/test_helpers/snapshot', undefined, k); console.log('GET', r.status, (performance.now()-t).toFixed(0), r.t.length)
}
await agent.close(); await e.close()
