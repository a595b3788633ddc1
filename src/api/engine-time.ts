// The account's engine time on every authenticated answer (docs/decisions.md#the-gateways-clock): a test clock runs ahead of
// real time, and whatever a client shows against it (a dispute's time left, "reconnected at") must
// use it. Any key learns it this way, whatever its permissions; the clock endpoint needs
// test_helpers:read.

/** The response header: the account's engine clock when the answer was made, ISO 8601 UTC with milliseconds. */
export const ENGINE_TIME_HEADER = 'Gw-Engine-Time'

/** The header's value for an instant. */
export const engineTimeValue = (at: Date): string => at.toISOString()

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** The instant (ms) a header value names, or undefined when it is not one (absent, or malformed). */
export function parseEngineTime(value: string | null | undefined): number | undefined {
  if (!value || !ISO_UTC_MS.test(value)) return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}
