import type {TestClock} from '../../api/types.js'
import {renderClock} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class ClockGet extends GwCommand<typeof ClockGet> {
  static override summary = "Test helper: show the engine's clock."
  static override operations = ['testGetClock'] as const
  static override description = 'Authorization expiry, dispute deadlines, voucher expiry, webhook retries and settlement all follow this clock.'
  static override examples = ['<%= config.bin %> <%= command.id %>']

  async run(): Promise<TestClock> {
    return clockGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw clock get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ClockGetOptions {

}

export async function clockGet(ctx: Context, o: ClockGetOptions): Promise<TestClock> {
  const clock = await (await ctx.client()).testHelpers.clock()
  ctx.print(renderClock(clock, ctx.color))
  return clock
}
