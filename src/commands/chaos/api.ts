import {Flags} from '@oclif/core'
import {CHAOS_API_FAULTS, type ChaosApiFault, type ChaosRule} from '../../api/types.js'
import {announce, ending, parseLatency, parseRate} from './shared/rules.js'
import {GwCommand, UsageError, type Context} from '../../base/command.js'

export default class ChaosApi extends GwCommand<typeof ChaosApi> {
  static override summary = "Rehearse the API failing: fault a share of this account's requests (test keys)."
  static override operations = ['createChaosApiFault'] as const
  static override description = `Matching requests (--method, --path: /payments, /payments/* for one segment, /refunds/** for any depth) are answered 500, 503 or 429 with Retry-After, slowed (--fault slow --latency 800ms), or done and committed and then left without a response (--fault response_lost): a client that retries with the same Idempotency-Key gets the original answer, one that retries without makes a second payment.
Every fault ends: after --count faults, or --for (engine clock; 10m when neither is given). See them with gw chaos status, end them with gw chaos clear. gw logs tail marks injected faults.`
  static override examples = [
    {description: 'The next 3 payment creations fail with 503 and Retry-After', command: '<%= config.bin %> <%= command.id %> --method POST --path /payments --fault 503 --count 3'},
    {description: 'The work is done but the answer is lost, once: does your client pay twice?', command: '<%= config.bin %> <%= command.id %> --method POST --path /payments --fault response_lost --count 1'},
    {description: 'Half of all reads slowed by 800 ms for ten minutes, the same half every run', command: '<%= config.bin %> <%= command.id %> --method GET --path "/**" --fault slow --latency 800ms --rate 0.5 --seed 42 --for 10m'},
  ]

  static override flags = {
    method: Flags.string({description: 'The HTTP method to fault (default: any).', options: ['GET', 'POST', 'DELETE', '*'], default: '*'}),
    path: Flags.string({description: 'The API path under /v1: /payments, /payments/*, /refunds/**.', required: true}),
    fault: Flags.string({description: 'What the matching requests get.', options: [...CHAOS_API_FAULTS], required: true}),
    rate: Flags.string({description: 'The share of matching requests to fault, 0 to 1 (default 1: every one).'}),
    count: Flags.integer({description: 'How many faults, then it ends.', min: 1}),
    for: Flags.string({description: 'How long it lasts on the engine clock: 90s, 10m, 2h (default 10m without --count).'}),
    latency: Flags.string({description: 'The slow fault\'s delay: 800ms, 2s (default 2s).'}),
    seed: Flags.integer({description: 'Fault the same requests every run (with --rate below 1).'}),
  }

  async run(): Promise<ChaosRule> {
    return chaosApi(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw chaos api` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ChaosApiOptions {
  method: string
  path: string
  fault: string
  rate?: string
  count?: number
  for?: string
  latency?: string
  seed?: number
}

export async function chaosApi(ctx: Context, f: ChaosApiOptions): Promise<ChaosRule> {
  const rate = f.rate !== undefined ? parseRate(f.rate, '--rate') : undefined
  if (f.latency !== undefined && f.fault !== 'slow') throw new UsageError('--latency goes with --fault slow.')
  const path = f.path.startsWith('/') ? f.path : `/${f.path}`
  const rule = await (await ctx.client()).chaos.addApiFault({
    method: f.method as 'GET' | 'POST' | 'DELETE' | '*',
    path,
    fault: f.fault as ChaosApiFault,
    ...(rate !== undefined ? {rate} : {}),
    ...(f.latency !== undefined ? {latency_ms: parseLatency(f.latency)} : {}),
    ...ending(f),
  })
  return announce(ctx, rule)
}
