import {readFile} from 'node:fs/promises'
import {Flags} from '@oclif/core'
import {idempotencyKeyFlag} from '../../base/flags.js'
import {UsageError} from '../../errors.js'
import {dataFlag, normalizePath, parseDataPairs, pathArg} from './shared/raw.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class ApiPost extends GwCommand<typeof ApiPost> {
  static override summary = 'Send a raw POST request with a JSON body: built from -d pairs, or as it is (--input FILE, - for stdin).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> /payments -d amount=2000 -d currency=EUR -d payment_method=card -d payment_method_data[type]=card -d payment_method_data[card][number]=4242424242424242 -d payment_method_data[card][exp_month]=12 -d payment_method_data[card][exp_year]=2030',
    '<%= config.bin %> <%= command.id %> /refunds -d payment=pay_123 -d amount=500',
    {description: 'Send a number as a string with := and JSON', command: '<%= config.bin %> <%= command.id %> /customers -d email=a@example.com -d \'metadata:={"order":"123"}\''},
    {description: 'A JSON body as it is, from a file or stdin', command: 'echo \'{"url":"https://shop.example/hooks","enabled_events":["*"]}\' | <%= config.bin %> <%= command.id %> /webhook_endpoints --input -'},
    {description: 'Or a JSON object as the one -d', command: '<%= config.bin %> <%= command.id %> /refunds -d \'{"payment":"pay_123","amount":500}\''},
  ]

  static override args = {path: pathArg}
  static override flags = {
    data: dataFlag,
    input: Flags.string({description: 'The request body as it is: a JSON file, or - for stdin (instead of -d).', exclusive: ['data']}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<unknown> {
    return apiPost(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw api post` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ApiPostOptions {
  data?: string[]
  input?: string
  'idempotency-key'?: string
  path: string
}

export async function apiPost(ctx: Context, o: ApiPostOptions): Promise<unknown> {
  const body = o.input !== undefined ? await jsonBody(ctx, o.input) : rawObject(o.data) ?? parseDataPairs(o.data)
  await ctx.confirmLive(`POST ${normalizePath(o.path)}`)
  const res = await (await ctx.client()).request('POST', normalizePath(o.path), {body, idempotencyKey: o['idempotency-key']})
  ctx.print(typeof res.data === 'string' ? res.data : JSON.stringify(res.data, null, 2))
  return res.data
}

/** --input FILE or -: the body as it is, which must be a JSON object. */
async function jsonBody(ctx: Context, input: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = input === '-' ? await ctx.readStdin() : await readFile(input, 'utf8')
  } catch (e) {
    throw new UsageError(`--input ${input}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`)
  }
  const body = rawObject([text])
  if (!body) throw new UsageError(`--input ${input} is not a JSON object.`, 'e.g. {"payment": "pay_123", "amount": 500}')
  return body
}

/** A single -d that is a whole JSON object is the body as it is (as gh api --input would send it). */
function rawObject(data: string[] | undefined): Record<string, unknown> | undefined {
  if (data?.length !== 1 || !data[0]!.trim().startsWith('{')) return undefined
  try {
    const v = JSON.parse(data[0]!) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined
  } catch {
    throw new UsageError(`-d starts like a JSON object but is not valid JSON.`, 'Quote it whole: -d \'{"amount": 500}\', or use --input FILE.')
  }
}
