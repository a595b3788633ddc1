// `gw settlement reconcile` throughput: a 1M-line orders file against a period of settlement
// lines for half of them (the rest are "not settled"), in process. Prints lines/s and the heap
// retained at the peak (forced GCs), which must not grow with the file.
import {Readable} from 'node:stream'
import {setFlagsFromString} from 'node:v8'
import {runInNewContext} from 'node:vm'
import {reconcile} from '../dist/commands/settlement/shared/reconcile.js'

export async function reconcileBench({orders = 1_000_000, settled = 500_000} = {}) {
  const lines = []
  for (let i = 0; i < settled; i++) lines.push({type: 'payment', payment: `pay_${i}`, reference: `order-${i}`, amount: 1000 + (i % 500), currency: 'EUR', created_at: '2026-03-01T10:00:00.000Z'})
  const report = {id: 'stl_1', object: 'settlement_report', provider: 'prov_x', date: '2026-03-01', currency: 'EUR', lines, payout: null}
  async function* file() {
    yield 'reference,amount,currency\n'
    for (let i = 0; i < orders; i += 1000) {
      let chunk = ''
      for (let k = i; k < i + 1000; k++) chunk += `order-${k},${1000 + (k % 500)},EUR\n`
      yield chunk
    }
  }
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc')
  gc()
  const before = process.memoryUsage().heapUsed
  let peak = before
  let samples = 0
  const t0 = performance.now()
  const summary = await reconcile({
    orders: Readable.from(file()),
    reports: [report],
    onOrders: () => {
      if (++samples % 10 === 0) {
        gc()
        peak = Math.max(peak, process.memoryUsage().heapUsed)
      }
    },
    onFinding: () => {},
  })
  const ms = performance.now() - t0
  return {orders, settled, ms, linesPerSec: (orders + settled) / (ms / 1000), retainedMiB: (peak - before) / 1048576, matched: summary.matched, notSettled: summary.counts.not_settled}
}
