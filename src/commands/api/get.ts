import {GwCommand} from '../../base/command.js'
import {parseDataPairs} from '../../base/parse.js'
import {dataFlag, normalizePath, pathArg} from '../../base/raw.js'
import type {Query} from '../../client/http.js'

export default class ApiGet extends GwCommand<typeof ApiGet> {
  static override summary = 'Send a raw GET request; -d pairs become the query string.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> /payments -d limit=5 -d status=succeeded',
    '<%= config.bin %> <%= command.id %> /balance',
    '<%= config.bin %> <%= command.id %> /providers',
  ]

  static override args = {path: pathArg}
  static override flags = {data: dataFlag}

  async run(): Promise<unknown> {
    const query = parseDataPairs(this.flags.data) as Query
    const res = await (await this.client()).request('GET', normalizePath(this.args.path), {query})
    this.print(typeof res.data === 'string' ? res.data : JSON.stringify(res.data, null, 2))
    return res.data
  }
}
