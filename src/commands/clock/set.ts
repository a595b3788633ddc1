import {Flags} from '@oclif/core'
import type {TestClock} from '../../api/types.js'
import {renderClock} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'
import {clockSteps, MAX_ADVANCE_S, MAX_CLOCK_STEPS} from '../../api/clock-steps.js'

export default class ClockSet extends GwCommand<typeof ClockSet> {
  static override summary = "Test helper: freeze the engine's clock, let it tick again, or set it to a later instant."
  static override operations = ['testSetClock'] as const
  static override description =
    'Frozen, the clock moves only when advanced (gw clock advance) or set, so a test run that starts from a fixed instant gets the same timestamps every time (golden files, snapshots). The clock never moves back: --now must be the current engine time or later; one request moves it at most 400 days, so an instant further ahead is reached in steps of 400 days (the jobs due in each run before the next).'
  static override examples = [
    {description: 'Start a test run at a fixed instant, frozen', command: '<%= config.bin %> <%= command.id %> --now 2030-01-01T00:00:00Z --freeze'},
    {description: 'Let it tick again from where it stands', command: '<%= config.bin %> <%= command.id %> --unfreeze'},
  ]

  static override flags = {
    now: Flags.string({description: 'Set the clock to this instant (ISO 8601), the current engine time or later.'}),
    freeze: Flags.boolean({description: 'Freeze the clock (at --now, or where it stands).', exclusive: ['unfreeze']}),
    unfreeze: Flags.boolean({description: 'Let the clock tick again from where it stands.', exclusive: ['freeze']}),
  }

  async run(): Promise<TestClock> {
    return clockSet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw clock set` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ClockSetOptions {
  now?: string
  freeze?: boolean
  unfreeze?: boolean
}

export async function clockSet(ctx: Context, o: ClockSetOptions): Promise<TestClock> {
  if (o.now === undefined && !o.freeze && !o.unfreeze) throw new UsageError('Nothing to set.', 'Give --now TIME, --freeze or --unfreeze, e.g. gw clock set --now 2030-01-01T00:00:00Z --freeze')
  let now: string | undefined
  if (o.now !== undefined) {
    const t = Date.parse(o.now)
    if (!Number.isFinite(t)) throw new UsageError(`--now "${o.now}" is not a date-time.`, 'e.g. --now 2030-01-01T00:00:00Z')
    now = new Date(t).toISOString()
  }
  const client = await ctx.client()
  if (now) {
    // one request moves the clock at most 400 days: further, it is set in steps (each runs the jobs due in it)
    const steps = clockSteps(Date.parse((await client.testHelpers.clock()).now), Date.parse(now))
    if (steps.length > MAX_CLOCK_STEPS)
      throw new UsageError(`--now ${now} is more than ${MAX_CLOCK_STEPS} steps of ${MAX_ADVANCE_S / 86_400} days ahead of the engine clock.`, 'Choose an instant within about 10 years of the engine clock.')
    for (const at of steps.slice(0, -1)) await client.testHelpers.setClock({now: new Date(at).toISOString()})
  }
  const clock = await client.testHelpers.setClock({...(now ? {now} : {}), ...(o.freeze ? {frozen: true} : o.unfreeze ? {frozen: false} : {})})
  ctx.print(renderClock(clock, ctx.color) + (clock.frozen ? '\n' + ctx.color.dim('Frozen: it moves only when you advance or set it.') : ''))
  return clock
}
