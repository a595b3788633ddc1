import {GwCommand} from '../../base/command.js'
import type {TrustResult} from './shared/trust.js'
import {caFlags, caTrust} from './shared/ca.js'

export default class CaUninstall extends GwCommand<typeof CaUninstall> {
  static override summary = 'Remove the local engine\'s certificate authority from the browsers and the system store (what gw ca install added).'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --no-system']
  static override flags = caFlags

  async run(): Promise<TrustResult> {
    return caTrust(this.ctx, this.flags, 'uninstall')
  }
}
