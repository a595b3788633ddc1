// Providers on screen: health, auth rate, fees and latency, in a list and one provider's view.
import type {Provider} from '../../../api/types.js'
import {formatMoney} from '../../../api/money.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'

const pct = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(1)}%`)
const bps = (n: number) => `${(n / 100).toFixed(2)}%`

export function renderProvider(x: Provider, p: Painter): string {
  const fixed = Object.entries(x.fees.fixed).map(([cur, n]) => formatMoney(n, cur))
  return renderFields(
    `${p.bold(x.id)}  ${paintStatus(p, x.status)}`,
    [
      ['Methods', x.methods.join(', ')],
      ['Currencies', x.currencies.join(', ')],
      ['Regions', x.regions.join(', ')],
      ['Auth rate 7d', `${pct(x.auth_rate_7d)} of ${x.attempts_7d} attempts`],
      ['Fees', `${bps(x.fees.percent_bps)}${fixed.length ? ` + ${fixed.join(' / ')}` : ''}`],
      ['Latency', `p50 ${x.latency_ms.p50} ms · p99 ${x.latency_ms.p99} ms`],
      ['Mode', x.livemode ? 'live' : 'test'],
    ],
    p,
  )
}

export const providerColumns: Columns<Provider> = {
  head: ['ID', 'STATUS', 'METHODS', 'CURRENCIES', 'AUTH 7D', 'FEE', 'P50'],
  fit: {flex: ['METHODS', 'CURRENCIES'], drop: ['P50', 'FEE', 'CURRENCIES']},
  row: (x, p) => [x.id, paintStatus(p, x.status), x.methods.join(','), x.currencies.join(','), pct(x.auth_rate_7d), bps(x.fees.percent_bps), `${x.latency_ms.p50}ms`],
}
