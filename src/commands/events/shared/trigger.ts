// `gw trigger`: the real API flow behind an event type (./fixtures.ts: API calls, test helpers,
// clock advances), and the events it made fire.
import {randomBytes} from 'node:crypto'
import {readFileSync} from 'node:fs'
import type {GwEvent} from '../../../api/types.js'
import type {Context} from '../../../base/context.js'
import {parseDataPairs} from '../../api/shared/raw.js'
import {GwError, UsageError} from '../../../errors.js'
import {formatDuration} from '../../../output/detail.js'
import {closest} from '../../../suggest.js'
import {builtInFixtures, eventsSince, fixture, parseFixture, runFixture, toFixture, type Created, type Fixture} from './fixtures.js'
import {eventLine} from './format.js'

export interface TriggerResult {
  type: string
  created: Created[]
  clock_advanced_seconds: number
  events: {id: string; type: string; object: string | null}[]
}

/** `--override` values: `key=value` for the main step, `step:key=value` for a named one. */
export function parseOverrides(values: string[] | undefined): {step?: string; values: Record<string, unknown>}[] {
  return (values ?? []).map((v) => {
    const m = /^([A-Za-z_][A-Za-z0-9_]*):(?!=)(.+)$/.exec(v)
    return m ? {step: m[1], values: parseDataPairs([m[2]!], '--override')} : {values: parseDataPairs([v], '--override')}
  })
}

/** What `gw trigger` takes: --list, --fixture FILE, --override values. */
export interface TriggerOptions {
  list?: boolean
  fixture?: string
  override?: string[]
}

/** One line of `gw trigger --list`. */
export interface FixtureRow {
  type: string
  summary: string
  main_call: string
}

/** Runs the fixture of an event type (or a fixture file) and reports what it created and which events fired; --list lists them. */
export async function trigger(ctx: Context, flags: TriggerOptions, event: string | undefined): Promise<TriggerResult | FixtureRow[]> {
  const f = flags
  if (f.list || (!event && !f.fixture)) {
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
    fx = toFixture(parseFixture(text, f.fixture), event?.trim() ?? 'custom')
    if (event) fx.type = event.trim()
  } else {
    const type = event!.trim()
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
