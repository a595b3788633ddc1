import {Flags} from '@oclif/core'
import type {Merchant} from '../../api/types.js'
import {countryFlag, idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {parseMetadata} from '../../base/parse.js'
import type {CreateMerchantParams} from '../../client/params.js'
import {renderMerchant} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class MerchantsCreate extends GwCommand<typeof MerchantsCreate> {
  static override summary = 'Onboard a sub-merchant; KYB review starts once it has a legal name and country.'
  static override operations = ['createMerchant'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %> --business-name "Bakery Jansen" --legal-name "Jansen B.V." --country NL --email ops@jansen.nl',
    {description: 'Keep only the id', command: '<%= config.bin %> <%= command.id %> --business-name Shop --json | jq -r .id'},
  ]

  static override flags = {
    'business-name': Flags.string({description: 'Name shown to customers.', required: true}),
    'legal-name': Flags.string({description: 'Registered legal name (needed for KYB).'}),
    country: countryFlag(),
    email: Flags.string({description: 'Contact email.'}),
    metadata: metadataFlag,
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Merchant> {
    return merchantsCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw merchants create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface MerchantsCreateOptions {
  'business-name': string
  'legal-name'?: string
  country?: string
  email?: string
  metadata?: string[]
  'idempotency-key'?: string
}

export async function merchantsCreate(ctx: Context, f: MerchantsCreateOptions): Promise<Merchant> {
  const body: CreateMerchantParams = {business_name: f['business-name']}
  if (f['legal-name']) body.legal_name = f['legal-name']
  if (f.country) body.country = f.country
  if (f.email) body.email = f.email
  const metadata = parseMetadata(f.metadata)
  if (metadata) body.metadata = metadata
  const merchant = await (await ctx.client()).merchants.create(body, {idempotencyKey: f['idempotency-key']})
  ctx.print(renderMerchant(merchant, ctx.color))
  return merchant
}
