import {Flags} from '@oclif/core'
import type {Customer} from '../../api/types.js'
import {idArg, idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {parseMetadata} from '../../base/parse.js'
import type {UpdateCustomerParams} from '../../client/params.js'
import {renderCustomer} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class CustomersUpdate extends GwCommand<typeof CustomersUpdate> {
  static override summary = 'Change a customer: email, name, description or metadata.'
  static override operations = ['updateCustomer'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %> cus_123 --email jane@example.org',
    '<%= config.bin %> <%= command.id %> cus_123 --description "" --metadata tier=gold',
  ]

  static override args = {id: idArg('cus_', 'customer', 'List them with: gw customers list')}
  static override flags = {
    email: Flags.string({description: 'New email address ("" clears it).'}),
    name: Flags.string({description: 'New full name ("" clears it).'}),
    description: Flags.string({description: 'New description ("" clears it).'}),
    metadata: metadataFlag,
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Customer> {
    return customersUpdate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw customers update` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CustomersUpdateOptions {
  email?: string
  name?: string
  description?: string
  metadata?: string[]
  'idempotency-key'?: string
  id: string
}

export async function customersUpdate(ctx: Context, f: CustomersUpdateOptions): Promise<Customer> {
  const body: UpdateCustomerParams = {}
  if (f.email !== undefined) body.email = f.email === '' ? null : f.email
  if (f.name !== undefined) body.name = f.name === '' ? null : f.name
  if (f.description !== undefined) body.description = f.description === '' ? null : f.description
  const metadata = parseMetadata(f.metadata)
  if (metadata) body.metadata = metadata
  if (Object.keys(body).length === 0) throw new UsageError('Nothing to change.', 'Pass --email, --name, --description or --metadata.')
  const customer = await (await ctx.client()).customers.update(f.id, body, {idempotencyKey: f['idempotency-key']})
  ctx.print(renderCustomer(customer, ctx.color))
  return customer
}
