import {Flags} from '@oclif/core'
import type {Customer} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {parseMetadata} from '../../base/parse.js'
import type {CreateCustomerParams} from '../../client/params.js'
import {renderCustomer} from '../../output/detail.js'

export default class CustomersCreate extends GwCommand<typeof CustomersCreate> {
  static override summary = 'Create a customer.'
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
    const f = this.flags
    const body: CreateCustomerParams = {}
    if (f.email) body.email = f.email
    if (f.name) body.name = f.name
    if (f.description) body.description = f.description
    const metadata = parseMetadata(f.metadata)
    if (metadata) body.metadata = metadata
    const customer = await (await this.client()).customers.create(body, {idempotencyKey: f['idempotency-key']})
    this.print(renderCustomer(customer, this.color))
    return customer
  }
}
