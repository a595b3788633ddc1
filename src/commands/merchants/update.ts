import {Flags} from '@oclif/core'
import type {Merchant} from '../../api/types.js'
import {countryFlag, idArg, idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {parseMetadata} from '../../base/parse.js'
import type {MerchantParams} from '../../client/params.js'
import {renderMerchant} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

const capability = (name: string) => Flags.string({description: `Turn the ${name} capability on or off (only once KYB is complete).`, options: ['active', 'inactive']})

export default class MerchantsUpdate extends GwCommand<typeof MerchantsUpdate> {
  static override summary = 'Change a sub-merchant: names, country, email, metadata or capabilities.'
  static override operations = ['updateMerchant'] as const
  static override description = 'Adding the legal name and country starts KYB review. Capabilities can change only once KYB is complete.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> mer_123 --legal-name "Jansen B.V." --country NL',
    '<%= config.bin %> <%= command.id %> mer_123 --payouts inactive',
  ]

  static override args = {id: idArg('mer_', 'merchant', 'List them with: gw merchants list')}
  static override flags = {
    'business-name': Flags.string({description: 'Name shown to customers.'}),
    'legal-name': Flags.string({description: 'Registered legal name.'}),
    country: countryFlag(),
    email: Flags.string({description: 'Contact email.'}),
    metadata: metadataFlag,
    'card-payments': capability('card_payments'),
    'local-payments': capability('local_payments'),
    payouts: capability('payouts'),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Merchant> {
    return merchantsUpdate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw merchants update` takes: its flags and arguments by name (run() passes them as parsed). */
export interface MerchantsUpdateOptions {
  'business-name'?: string
  'legal-name'?: string
  country?: string
  email?: string
  metadata?: string[]
  'card-payments'?: string
  'local-payments'?: string
  payouts?: string
  'idempotency-key'?: string
  id: string
}

export async function merchantsUpdate(ctx: Context, f: MerchantsUpdateOptions): Promise<Merchant> {
  const body: MerchantParams = {}
  if (f['business-name'] !== undefined) body.business_name = f['business-name']
  if (f['legal-name'] !== undefined) body.legal_name = f['legal-name']
  if (f.country !== undefined) body.country = f.country
  if (f.email !== undefined) body.email = f.email
  const metadata = parseMetadata(f.metadata)
  if (metadata) body.metadata = metadata
  const caps: NonNullable<MerchantParams['capabilities']> = {}
  if (f['card-payments']) caps.card_payments = f['card-payments'] as 'active' | 'inactive'
  if (f['local-payments']) caps.local_payments = f['local-payments'] as 'active' | 'inactive'
  if (f.payouts) caps.payouts = f.payouts as 'active' | 'inactive'
  if (Object.keys(caps).length) body.capabilities = caps
  if (Object.keys(body).length === 0)
    throw new UsageError('Nothing to change.', 'Pass --business-name, --legal-name, --country, --email, --metadata, --card-payments, --local-payments or --payouts.')
  const merchant = await (await ctx.client()).merchants.update(f.id, body, {idempotencyKey: f['idempotency-key']})
  ctx.print(renderMerchant(merchant, ctx.color))
  return merchant
}
