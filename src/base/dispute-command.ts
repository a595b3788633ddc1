// Base of the `gw disputes` commands: the engine's "now" for deadlines, and
// dispute_not_actionable explained in words under the API's own error lines.
import type {Command} from '@oclif/core'
import type {Dispute} from '../api/types.js'
import {ApiError} from '../client/errors.js'
import type {GwClient} from '../client/index.js'
import {GwCommand} from './command.js'
import {engineNow, notActionableReason} from './disputes.js'

export abstract class DisputeCommand<T extends typeof Command> extends GwCommand<T> {
  private explanation?: string

  /** "Now" for deadlines: the engine clock in test mode, real time otherwise. */
  protected async now(client: GwClient): Promise<Date> {
    return engineNow(client, (await this.apiKey()).value)
  }

  /**
   * Runs a POST on a dispute; when the API answers dispute_not_actionable, looks the dispute
   * up and says why in words (already submitted at this stage, or resolved).
   */
  protected async explained<R>(
    client: GwClient,
    id: string,
    fn: () => Promise<R>,
    explain: (dp: Dispute) => string | undefined = notActionableReason,
  ): Promise<R> {
    try {
      return await fn()
    } catch (error) {
      if (error instanceof ApiError && error.code === 'dispute_not_actionable') {
        let dp: Dispute | undefined
        try {
          dp = await client.disputes.get(id)
        } catch {
          dp = undefined
        }
        this.explanation = (dp && explain(dp)) ?? 'Only a dispute in needs_response can be answered or accepted: it was already answered at this stage, or it is resolved.'
      }
      throw error
    }
  }

  protected override formatError(err: Error): string {
    const text = super.formatError(err)
    return this.explanation ? `${text}\n  ${this.explanation}` : text
  }
}
