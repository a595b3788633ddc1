import {Flags} from '@oclif/core'
import type {RoutingDecision} from '../../api/types.js'
import {amountFromFlags} from '../../base/amount.js'
import {amountFlag, countryFlag, currencyFlag, methodFlag} from '../../base/flags.js'
import {withFlagNames, type ParamFlags} from '../../base/flag-errors.js'
import type {SimulateRoutingParams} from '../../client/params.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class RoutingSimulate extends GwCommand<typeof RoutingSimulate> {
  static override summary = 'Dry-run routing: which providers a payment like this would go to now, and why. Creates nothing.'
  static override operations = ['simulateRouting'] as const
  static override description = `The same decision a payment would get now, with the current provider health, 7-day authorization rates and routing rules, shown as \`gw payments explain\` shows a routing pass: the rule that matches or smart routing, the providers excluded and why, each candidate's score with its parts, and the order providers would be tried in. Test a new routing rule before traffic hits it.
A split rule draws by weight as a payment would, so repeated simulations can differ.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --amount 2000 --currency EUR --method card',
    {description: 'As a sub-merchant, for a Visa card issued in the US (its rules apply)', command: '<%= config.bin %> <%= command.id %> --amount 2000 --currency EUR --method card --merchant mer_123 --card-brand visa --country US'},
    {description: 'The amount as a decimal', command: '<%= config.bin %> <%= command.id %> --display-amount 20.00 --currency EUR'},
    {description: 'Only the order providers would be tried in', command: "<%= config.bin %> <%= command.id %> --amount 2000 --currency EUR --json | jq -c .order"},
  ]

  static override flags = {
    amount: amountFlag({description: 'Amount in minor units (2000 = 20.00 EUR; JPY has none: 500 = ¥500).', exclusive: ['display-amount']}),
    'display-amount': Flags.string({description: 'Amount as a decimal in the currency (20.00), instead of --amount.', exclusive: ['amount']}),
    currency: currencyFlag({required: true}),
    method: methodFlag({default: 'card'}),
    merchant: Flags.string({description: 'Route as this sub-merchant (mer_...): its routing rules apply.'}),
    'card-brand': Flags.string({description: 'Card brand for rules that match one: visa, mastercard, amex, ...'}),
    country: countryFlag({description: "The card's issuing country for rules that match one, e.g. US."}),
  }

  async run(): Promise<RoutingDecision> {
    return routingSimulate(this.ctx, {...this.flags, ...this.args})
  }
}

/** The flag behind each query parameter, for the API's 400s. */
const SIMULATE_PARAMS: ParamFlags = {amount: '--amount', currency: '--currency', payment_method: '--method', card_brand: '--card-brand', country: '--country', merchant: '--merchant'}

/** What `gw routing simulate` takes: its flags and arguments by name (run() passes them as parsed). */
export interface RoutingSimulateOptions {
  amount?: number
  'display-amount'?: string
  currency: string
  method: string
  merchant?: string
  'card-brand'?: string
  country?: string
}

export async function routingSimulate(ctx: Context, f: RoutingSimulateOptions): Promise<RoutingDecision> {
  const amount = amountFromFlags(f, f.currency)
  const merchant = f.merchant?.trim()
  if (merchant !== undefined && !merchant.startsWith('mer_')) throw new UsageError(`--merchant "${merchant}" is not a merchant id; they start with mer_.`, 'List them with: gw merchants list')
  const brand = f['card-brand']?.trim().toLowerCase()
  if (brand !== undefined && f.method !== 'card') throw new UsageError(`--card-brand needs --method card, not --method ${f.method}.`)
  const params: SimulateRoutingParams = {amount, currency: f.currency, payment_method: f.method}
  if (brand) params.card_brand = brand
  if (f.country) params.country = f.country
  if (merchant) params.merchant = merchant
  const client = await ctx.client()
  const decision = await withFlagNames(SIMULATE_PARAMS, () => client.routing.simulate(params))
  if (!ctx.json) {
    const {renderSimulation} = await import('./shared/display.js')
    ctx.print(await renderSimulation(decision, ctx.color, {width: ctx.out.width}))
  }
  return decision
}
