import type {Customer} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {renderCustomer} from '../../output/detail.js'

export default class CustomersGet extends GwCommand<typeof CustomersGet> {
  static override summary = 'Show one customer.'
  static override examples = ['<%= config.bin %> <%= command.id %> cus_123']
  static override args = {id: idArg('cus_', 'customer')}

  async run(): Promise<Customer> {
    const customer = await (await this.client()).customers.get(this.args.id)
    this.print(renderCustomer(customer, this.color))
    return customer
  }
}
