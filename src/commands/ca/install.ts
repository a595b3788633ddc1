import {GwCommand} from '../../base/command.js'
import {caFlags, caTrust} from './shared/ca.js'
import type {TrustResult} from './shared/trust.js'

export default class CaInstall extends GwCommand<typeof CaInstall> {
  static override summary = "Make browsers trust the local engine's certificate authority, so hosted pages open without a warning."
  static override description = `Adds the CA to the browsers' NSS databases (Chromium's ~/.pki/nssdb, made when missing; Firefox profiles) with certutil (Debian: sudo apt-get install libnss3-tools), and to the system store with update-ca-certificates (as root; otherwise it prints the command). Restart the browser afterwards. Undo with gw ca uninstall.
The CA is the one gw serve made for this data dir; only this machine's engine has its key.`
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Browsers only, no root needed', command: '<%= config.bin %> <%= command.id %> --no-system'},
    {description: 'A CA from elsewhere (a shared --tls-dir)', command: '<%= config.bin %> <%= command.id %> --ca ./tls/ca.pem'},
  ]

  static override flags = caFlags

  async run(): Promise<TrustResult> {
    return caTrust(this.ctx, this.flags, 'install')
  }
}
