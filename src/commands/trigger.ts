import {randomBytes} from 'node:crypto'
import {Args, Flags} from '@oclif/core'
import type {GwEvent} from '../api/types.js'
import {closest} from '../suggest.js'
import {parseDataPairs} from '../base/parse.js'
import {formatDuration} from '../output/detail.js'
import {builtInFixtures, eventsSince, fixture, parseFixture, runFixture, toFixture, type Created, type Fixture} from '../events/fixtures.js'
import {readFileSync} from 'node:fs'
import {eventLine} from '../events/format.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../base/command.js'
import {GwError, UsageError} from '../errors.js'

export interface TriggerResult {
  type: string
  created: Created[]
  clock_advanced_seconds: number
  events: {id: string; type: string; object: string | null}[]
}

export default class Trigger extends GwCommand<typeof Trigger> {
  static override summary = 'Test mode: make the gateway emit an event by running the real API flow behind it.'
  static override description = `Each event type has a fixture: a file of API calls, test helpers and clock advances that cause it (gw trigger --list shows them). It prints what it created and the events that fired, which reach webhook endpoints and \`gw listen\` like any other.
--fixture FILE runs your own fixture file, Stripe-style: {"fixtures": [{"name": "payment", "path": "/v1/payments", "method": "post", "params": {...}}, {"name": "refund", "path": "/v1/refunds", "method": "post", "params": {"payment": "\${payment:id}"}}]}. A later call uses an earlier response with \${name:path}; \${reference}, \${exp_year} and \${today} are filled in. The built-in fixtures are such files (fixtures/ in the package).
--override key=value sets a field of the main call (the step marked "main", else the first POST); --override name:key=value sets a field of the step with that name (nested keys with dots or brackets; key:=JSON for raw JSON). Some fixtures advance the engine clock (refunds 30 minutes, settlement 2 days, merchant KYB 61 s).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> payment.succeeded',
    {description: 'A bigger payment in another currency', command: '<%= config.bin %> <%= command.id %> payment.succeeded --override amount=5000 --override currency=USD'},
    {description: 'A failed refund (advances the clock 30 minutes)', command: '<%= config.bin %> <%= command.id %> refund.failed'},
    {description: 'Your own flow from a fixture file, with an override for its "refund" step', command: '<%= config.bin %> <%= command.id %> --fixture checkout-and-refund.json --override refund:amount=500'},
    {description: 'Every fixture', command: '<%= config.bin %> <%= command.id %> --list'},
  ]

  static override args = {
    event: Args.string({description: 'Event type to trigger, e.g. payment.succeeded (see --list).'}),
  }

  static override flags = {
    list: Flags.boolean({description: 'List the event types that can be triggered and what each does.'}),
    fixture: Flags.string({description: 'Run this fixture file (JSON: a list of API calls; see the description).', exclusive: ['list']}),
    override: Flags.string({description: 'key=value for the main call (amount=5000, currency=USD, metadata.order=42), or step:key=value for a named step.', multiple: true}),
  }

  async run(): Promise<TriggerResult | {type: string; summary: string; main_call: string}[]> {
    return trigger(this.ctx, this.flags, this.args)
  }
}

/** `--override` values: `key=value` for the main step, `step:key=value` for a named one. */
export function parseOverrides(values: string[] | undefined): {step?: string; values: Record<string, unknown>}[] {
  return (values ?? []).map((v) => {
    const m = /^([A-Za-z_][A-Za-z0-9_]*):(?!=)(.+)$/.exec(v)
    return m ? {step: m[1], values: parseDataPairs([m[2]!], '--override')} : {values: parseDataPairs([v], '--override')}
  })
}

export async function trigger(ctx: Context, flags: GwFlags<typeof Trigger>, args: GwArgs<typeof Trigger>): Promise<TriggerResult | {type: string; summary: string; main_call: string}[]> {
  const f = flags
  if (f.list || (!args.event && !f.fixture)) {
    if (!f.list) throw new UsageError('Which event? Give an event type, or --fixture FILE.', `e.g. gw trigger payment.succeeded; the list: gw trigger --list`)
    const rows = builtInFixtures().map((x) => ({type: x.type, summary: x.summary, main_call: x.mainCall}))
    const w = Math.max(...rows.map((r) => r.type.length))
    for (const r of rows) ctx.print(`${ctx.color.bold(r.type.padEnd(w))}  ${r.summary}`)
    ctx.print('')
    ctx.print(ctx.color.dim('--override applies to POST /v1/payments, except merchant.updated (POST /v1/merchants) and provider.health.changed (the health call); step:key=value targets a named step.'))
    return rows
  }
  let fx: Fixture
  if (f.fixture) {
    let text: string
    try {
      text = readFileSync(f.fixture, 'utf8')
    } catch (error) {
      throw new UsageError(`Cannot read --fixture ${f.fixture}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`)
    }
    fx = toFixture(parseFixture(text, f.fixture), args.event?.trim() ?? 'custom')
    if (args.event) fx.type = args.event.trim()
  } else {
    const type = args.event!.trim()
    const found = fixture(type)
    if (!found) {
      const near = closest(type, builtInFixtures().map((x) => x.type))
      throw new UsageError(`No fixture for "${type}".`, near.length ? `Did you mean ${near.join(' or ')}? (gw trigger --list shows them all)` : 'gw trigger --list shows the event types it can trigger.')
    }
    fx = found
  }
  const type = fx.type
  const overrides = parseOverrides(f.override)
  if (await ctx.isLive()) throw new UsageError('gw trigger works in test mode only: it creates payments and uses test helpers.', 'Use a sk_test_ key (e.g. gw login --local).')

  const client = await ctx.client()
  const c = ctx.color
  const created: Created[] = []
  const touched = new Set<string>()
  let advanced = 0
  const before = (await client.events.list({limit: 1})).data[0]?.id ?? null
  ctx.print(`Triggering ${c.bold(type)}${fx.summary ? `: ${fx.summary}` : ''}`)
  await runFixture(fx.file, {
    client,
    reference: `gw_trigger_${randomBytes(5).toString('hex')}`,
    overrides,
    record: (x) => {
      created.push(x)
      touched.add(x.id)
      ctx.print(`  ${x.step.padEnd(46)} ${x.id}${x.status ? `  ${x.status}` : ''}`)
    },
    advanced: (seconds, why) => {
      advanced += seconds
      ctx.print(`  ${`advance the clock ${formatDuration(seconds)}`.padEnd(46)} ${c.dim(why)}`)
    },
  })

  // the events are committed with the calls that caused them; give a busy engine a moment
  const known = builtInFixtures().some((x) => x.type === type)
  let events: GwEvent[] = []
  for (let i = 0; i < 10; i++) {
    events = await eventsSince(client, before, touched, type)
    if (!known || events.some((e) => e.type === type)) break
    await ctx.sleep(200)
  }
  ctx.print('')
  if (events.length) {
    ctx.print('Events:')
    for (const e of events) ctx.print(`  ${eventLine(e, c)}`)
  }
  if (advanced) ctx.notice(c.dim(`The engine clock moved ${formatDuration(advanced)} ahead (gw clock get).`))
  const result: TriggerResult = {
    type,
    created,
    clock_advanced_seconds: advanced,
    events: events.map((e) => ({id: e.id, type: e.type, object: ((e.data?.object as {id?: string}) ?? {}).id ?? null})),
  }
  if (known && !events.some((e) => e.type === type)) {
    throw new GwError(`The flow ran, but no ${type} event appeared.`, {hint: 'Check `gw events list` and the --override values.'})
  }
  return result
}
