import {GwCommand, UsageError} from '../../base/command.js'
import {normalizePath, pathArg} from '../../base/raw.js'

export default class ApiDelete extends GwCommand<typeof ApiDelete> {
  static override summary = 'Send a raw DELETE request.'
  static override examples = ['<%= config.bin %> <%= command.id %> /webhook_endpoints/wh_123', '<%= config.bin %> <%= command.id %> /customers/cus_123']
  static override args = {path: pathArg}

  async run(): Promise<unknown> {
    const path = normalizePath(this.args.path)
    if (path === '/') throw new UsageError('PATH must name an object, e.g. /customers/cus_123.')
    await this.confirmLive(`DELETE ${path}`)
    const res = await (await this.client()).request('DELETE', path)
    this.print(typeof res.data === 'string' ? res.data : JSON.stringify(res.data, null, 2))
    return res.data
  }
}
