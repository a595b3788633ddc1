// Detail views and list columns for providers, merchants and routing rules.
import type {Merchant, Provider, RoutingRule} from '../api/types.js'
import {paintStatus, type Painter} from './color.js'
import {renderFields} from './detail.js'
import {formatMoney} from '../api/money.js'
import type {Columns} from './table.js'

const date = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : '')
const pct = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(1)}%`)
const bps = (n: number) => `${(n / 100).toFixed(2)}%`
const kv = (m: Record<string, string> | null | undefined) =>
  m && Object.keys(m).length ? Object.entries(m).map(([k, v]) => `${k}=${v}`).join(', ') : undefined

export function describeRuleProviders(r: RoutingRule): string {
  return r.providers.map((p) => (p.weight === undefined ? p.provider : `${p.provider}:${p.weight}`)).join(', ')
}

export function describeConditions(c: RoutingRule['conditions']): string {
  const parts: string[] = []
  if (c.payment_method) parts.push(`method=${c.payment_method}`)
  if (c.currency) parts.push(`currency=${c.currency}`)
  if (c.amount_gte !== undefined) parts.push(`amount>=${c.amount_gte}`)
  if (c.amount_lte !== undefined) parts.push(`amount<=${c.amount_lte}`)
  if (c.card_brand) parts.push(`brand=${c.card_brand}`)
  if (c.country) parts.push(`country=${c.country}`)
  return parts.length ? parts.join(' ') : 'any payment'
}

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

export function renderMerchant(m: Merchant, p: Painter): string {
  const caps = Object.entries(m.capabilities).map(([k, v]) => `${k} ${v}`).join(', ')
  return renderFields(
    `${p.bold(m.id)}  ${paintStatus(p, m.kyb_status)}`,
    [
      ['Business name', m.business_name],
      ['Legal name', m.legal_name],
      ['Country', m.country],
      ['Email', m.email],
      ['KYB status', m.kyb_status],
      ['Capabilities', caps],
      ['MID', m.mid],
      ['Metadata', kv(m.metadata)],
      ['Mode', m.livemode ? 'live' : 'test'],
      ['Created', m.created_at],
    ],
    p,
  )
}

export const merchantColumns: Columns<Merchant> = {
  head: ['ID', 'BUSINESS NAME', 'COUNTRY', 'KYB', 'CREATED'],
  row: (x, p) => [x.id, x.business_name, x.country ?? '', paintStatus(p, x.kyb_status), date(x.created_at)],
}

export function renderRoutingRule(r: RoutingRule, p: Painter): string {
  return renderFields(
    `${p.bold(r.id)}  ${r.action}`,
    [
      ['Priority', String(r.priority)],
      ['Action', r.action],
      ['Providers', describeRuleProviders(r) || '(none)'],
      ['When', describeConditions(r.conditions)],
      ['Merchant', r.merchant ?? 'all merchants'],
      ['Mode', r.livemode ? 'live' : 'test'],
      ['Created', r.created_at],
    ],
    p,
  )
}

export const routingRuleColumns: Columns<RoutingRule> = {
  head: ['ID', 'PRIORITY', 'ACTION', 'PROVIDERS', 'WHEN', 'MERCHANT'],
  row: (x) => [x.id, String(x.priority), x.action, describeRuleProviders(x), describeConditions(x.conditions), x.merchant ?? ''],
}
