// Routing rules on screen: their providers and conditions in words, in a list and one rule's view.
import type {RoutingRule} from '../../../api/types.js'
import type {Painter} from '../../../output/color.js'
import {renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'

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
