import {Args, Flags} from '@oclif/core'
import type {TestClock} from '../../api/types.js'
import {bareSecondsNotice, parseDuration} from '../../base/parse.js'
import {renderClock, renderFired} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class ClockAdvance extends GwCommand<typeof ClockAdvance> {
  static override summary = "Test helper: move the engine's clock forward."
  static override operations = ['testAdvanceClock'] as const
  static override description = 'Time passing makes its effects happen: uncaptured authorizations expire after 7d, dispute deadlines pass, vouchers expire, webhooks retry, settlements and payouts run. It then lists what fired (events by type, payouts, webhook attempts). A number without a unit is seconds, and it says so.'
  static override examples = [
    {description: 'Let uncaptured authorizations expire', command: '<%= config.bin %> <%= command.id %> 7d'},
    '<%= config.bin %> <%= command.id %> 36h',
    '<%= config.bin %> <%= command.id %> 1d12h',
    {description: 'In a test: answer once every webhook attempt it made due has ended', command: '<%= config.bin %> <%= command.id %> 3d --wait'},
  ]

  static override flags = {
    wait: Flags.boolean({description: 'Wait until every webhook attempt the advance made due (retries included) has ended and been recorded (up to 30 s), so what you look at next already saw them.', env: 'GW_WAIT'}),
  }

  static override args = {
    duration: Args.string({description: 'How far: 30s, 90m, 36h, 7d, 2w, or combined like 1d12h.', required: true}),
  }

  async run(): Promise<TestClock> {
    return clockAdvance(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw clock advance` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ClockAdvanceOptions {
  wait?: boolean
  duration: string
}

export async function clockAdvance(ctx: Context, o: ClockAdvanceOptions): Promise<TestClock> {
  const bare = bareSecondsNotice(o.duration, 'DURATION')
  if (bare) ctx.notice(ctx.errColor.yellow(bare))
  const seconds = parseDuration(o.duration, 'DURATION')
  if (seconds <= 0) throw new UsageError(`DURATION must be more than zero, got "${o.duration}".`, 'e.g. gw clock advance 7d')
  const clock = await (await ctx.client()).testHelpers.advanceClock(seconds, {wait: o.wait})
  ctx.print(renderClock(clock, ctx.color))
  if (clock.fired) ctx.print('\n' + renderFired(clock.fired, ctx.color))
  if (clock.pending_attempts) ctx.notice(ctx.errColor.yellow(`${clock.pending_attempts} webhook attempt(s) still due after waiting 30 s: a receiver is slow or not answering (gw webhooks deliveries shows them).`))
  return clock
}
