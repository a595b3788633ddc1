// The engine's clock, read through the API: deadlines (gw disputes) and the time an event tail
// starts from (gw events tail) follow it, since a test clock can run ahead of real time.
import {ApiError} from '../../../client/errors.js'
import type {GwClient} from '../../../client/index.js'
import {keyMode} from '../../../config/redact.js'

/**
 * "Now" for deadlines: the engine's clock in test mode (it can run ahead of real time, and
 * deadlines follow it), real time in live mode or when the server has no test clock.
 */
export async function engineNow(client: GwClient, apiKey: string | undefined): Promise<Date> {
  if (keyMode(apiKey) !== 'test') return new Date()
  try {
    return new Date((await client.testHelpers.clock()).now)
  } catch (error) {
    if (error instanceof ApiError && error.status < 500 && error.status !== 401 && error.status !== 429) return new Date()
    throw error
  }
}
