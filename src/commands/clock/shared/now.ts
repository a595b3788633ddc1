// The account's engine clock, as the API says it: deadlines (gw disputes), "reconnected at" and the
// time an event tail starts from (gw events tail) follow it, since a test clock can run ahead of
// real time. Every answer to an authenticated request carries it (Gw-Engine-Time), so any
// key learns it, and a command that has made a request already needs no other.
import type {Context} from '../../../base/context.js'
import {ApiError} from '../../../client/errors.js'
import type {GwClient} from '../../../client/index.js'
import {keyMode} from '../../../config/redact.js'

/** Contexts that were told once that the engine clock could not be learned. */
const told = new WeakSet<Context>()

/**
 * "Now" on the account's engine clock: the last answer's Gw-Engine-Time (moved on by the time
 * since); before any answer, that of one cheap request any key may make (GET /api_keys/self).
 * A server that does not send the header (an older one): its test clock where the key may
 * read it, else this computer's clock, said once on stderr for a test key (a live key has no test
 * clock: real time is its engine time).
 */
export async function engineNow(ctx: Context, client: GwClient): Promise<Date> {
  const said = client.engineTime()
  if (said) return said
  if (!client.engineTimeUnsaid) {
    try {
      await client.apiKeys.self()
    } catch (error) {
      // an answer without the key's object still says the time (a 403, a 404 of an older server)
      if (!(error instanceof ApiError) || error.status === 401 || error.status === 429 || error.status >= 500) throw error
    }
    const now = client.engineTime()
    if (now) return now
  }
  const key = (await ctx.apiKey()).value
  if (keyMode(key) !== 'test') return new Date()
  try {
    return new Date((await client.testHelpers.clock()).now)
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401 || error.status === 429 || error.status >= 500) throw error
  }
  const wall = new Date()
  if (!told.has(ctx)) {
    told.add(ctx)
    ctx.notice(
      ctx.errColor.yellow(
        `! ${new URL(client.baseUrl).host} does not say its engine time (no Gw-Engine-Time header: an older gw) and this key may not read its clock (test_helpers:read): times are counted from this computer's clock, now ${wall.toISOString()}. A test clock advanced on the gateway would make them wrong.`,
      ),
    )
  }
  return wall
}
