import {idempotencyKeyFlag} from '../../base/flags.js'
import {parseDataPairs} from '../../base/parse.js'
import {dataFlag, normalizePath, pathArg} from '../../base/raw.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class ApiPost extends GwCommand<typeof ApiPost> {
  static override summary = 'Send a raw POST request with a JSON body built from -d pairs.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> /payments -d amount=2000 -d currency=EUR -d payment_method=card -d payment_method_data[type]=card -d payment_method_data[card][number]=4242424242424242 -d payment_method_data[card][exp_month]=12 -d payment_method_data[card][exp_year]=2030',
    '<%= config.bin %> <%= command.id %> /refunds -d payment=pay_123 -d amount=500',
    {description: 'Send a number as a string with := and JSON', command: '<%= config.bin %> <%= command.id %> /customers -d email=a@example.com -d \'metadata:={"order":"123"}\''},
  ]

  static override args = {path: pathArg}
  static override flags = {data: dataFlag, 'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<unknown> {
    return apiPost(this.ctx, this.flags, this.args)
  }
}

export async function apiPost(ctx: Context, flags: GwFlags<typeof ApiPost>, args: GwArgs<typeof ApiPost>): Promise<unknown> {
  const body = parseDataPairs(flags.data)
  await ctx.confirmLive(`POST ${normalizePath(args.path)}`)
  const res = await (await ctx.client()).request('POST', normalizePath(args.path), {body, idempotencyKey: flags['idempotency-key']})
  ctx.print(typeof res.data === 'string' ? res.data : JSON.stringify(res.data, null, 2))
  return res.data
}
