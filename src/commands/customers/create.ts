import {Flags} from '@oclif/core'
import type {Customer} from '../../api/types.js'
import {idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {parseMetadata} from '../../base/parse.js'
import type {CreateCustomerParams} from '../../client/params.js'
import {renderCustomer} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class CustomersCreate extends GwCommand<typeof CustomersCreate> {
  static override summary = 'Create a customer.'
  static override operations = ['createCustomer'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %> --email jane@example.com --name "Jane Doe"',
    {description: 'Keep only the id', command: '<%= config.bin %> <%= command.id %> --email jane@example.com --json | jq -r .id'},
  ]

  static override flags = {
    email: Flags.string({description: 'Email address.'}),
    name: Flags.string({description: 'Full name.'}),
    description: Flags.string({description: 'Free-text description.'}),
    metadata: metadataFlag,
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Customer> {
    return customersCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw customers create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CustomersCreateOptions {
  email?: string
  name?: string
  description?: string
  metadata?: string[]
  'idempotency-key'?: string
}

export async function customersCreate(ctx: Context, f: CustomersCreateOptions): Promise<Customer> {
  const body: CreateCustomerParams = {}
  if (f.email) body.email = f.email
  if (f.name) body.name = f.name
  if (f.description) body.description = f.description
  const metadata = parseMetadata(f.metadata)
  if (metadata) body.metadata = metadata
  const customer = await (await ctx.client()).customers.create(body, {idempotencyKey: f['idempotency-key']})
  ctx.print(renderCustomer(customer, ctx.color))
  return customer
}
