// Flags shared by `gw routing-rules create` and `update`.
import {Flags} from '@oclif/core'
import type {RoutingRuleParams} from '../../../client/params.js'
import {amountFlag, countryFlag, currencyFlag} from '../../../base/flags.js'
import {UsageError} from '../../../errors.js'

/** `--provider prov_x[:weight]` for routing rules. */
export const ruleProviderFlag = Flags.custom<{provider: string; weight?: number}>({
  description: 'Provider for the rule, optionally with a split weight: prov_x or prov_x:70. Repeat for more.',
  multiple: true,
  parse: async (input) => {
    const m = /^(prov_[A-Za-z0-9_]+)(?::(\d+))?$/.exec(input.trim())
    if (!m) throw new UsageError(`--provider "${input}" is not prov_id or prov_id:weight.`, 'Example: --provider prov_atlas:70 --provider prov_borealis:30')
    return m[2] === undefined ? {provider: m[1]} : {provider: m[1], weight: Number(m[2])}
  },
})

export const ruleFlags = (required: boolean) => ({
  priority: Flags.integer({description: 'Lower numbers are evaluated first.', min: 0, max: 1_000_000, required}),
  action: Flags.string({description: 'prefer: try these providers first; split: share traffic by weight; block: never use these providers.', options: ['prefer', 'split', 'block'], required}),
  provider: ruleProviderFlag(),
  merchant: Flags.string({description: 'Apply only to payments of this sub-merchant (mer_...).'}),
  'payment-method': Flags.string({description: 'Condition: payment method code, e.g. card.'}),
  currency: currencyFlag({description: 'Condition: currency, e.g. EUR.'}),
  'amount-gte': amountFlag({description: 'Condition: amount at least this many minor units.'}),
  'amount-lte': amountFlag({description: 'Condition: amount at most this many minor units.'}),
  'card-brand': Flags.string({description: 'Condition: card brand, e.g. visa.'}),
  country: countryFlag({description: 'Condition: card or customer country, e.g. NL.'}),
})

/** What ruleFlags give a command's options. */
export interface RuleOptions {
  priority?: number
  action?: string
  provider?: {provider: string; weight?: number}[]
  merchant?: string
  'payment-method'?: string
  currency?: string
  'amount-gte'?: number
  'amount-lte'?: number
  'card-brand'?: string
  country?: string
}

export function ruleBody(f: RuleOptions): RoutingRuleParams {
  const body: RoutingRuleParams = {}
  if (f.priority !== undefined) body.priority = f.priority
  if (f.action !== undefined) body.action = f.action as RoutingRuleParams['action']
  if (f.provider?.length) body.providers = f.provider
  if (f.merchant !== undefined) body.merchant = f.merchant
  const c: NonNullable<RoutingRuleParams['conditions']> = {}
  if (f['payment-method'] !== undefined) c.payment_method = f['payment-method']
  if (f.currency !== undefined) c.currency = f.currency
  if (f['amount-gte'] !== undefined) c.amount_gte = f['amount-gte']
  if (f['amount-lte'] !== undefined) c.amount_lte = f['amount-lte']
  if (f['card-brand'] !== undefined) c.card_brand = f['card-brand']
  if (f.country !== undefined) c.country = f.country
  if (Object.keys(c).length) body.conditions = c
  return body
}
