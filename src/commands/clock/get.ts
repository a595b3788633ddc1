import type {TestClock} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {renderClock} from '../../output/detail.js'

export default class ClockGet extends GwCommand<typeof ClockGet> {
  static override summary = "Test helper: show the engine's clock."
  static override description = 'Authorization expiry, dispute deadlines, voucher expiry, webhook retries and settlement all follow this clock.'
  static override examples = ['<%= config.bin %> <%= command.id %>']

  async run(): Promise<TestClock> {
    const clock = await (await this.client()).testHelpers.clock()
    this.print(renderClock(clock, this.color))
    return clock
  }
}
