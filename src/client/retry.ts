// Retry delays. 5xx and connection errors: exponential backoff (0.5 s, 1 s, 2 s, ... capped
// at 8 s) with jitter, so that many clients do not retry in lockstep. 429: the server's
// Retry-After, plus a little jitter.

export const BACKOFF_BASE_MS = 500
export const BACKOFF_CAP_MS = 8000

/** Delay before retry number `attempt + 1`: half the exponential step fixed, half random. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt)
  return Math.round(step / 2 + random() * (step / 2))
}

/** Retry-After seconds, never less than what the server asked, plus up to 10 % jitter. */
export function retryAfterDelay(seconds: number, random: () => number = Math.random): number {
  const ms = Math.max(0, seconds) * 1000
  return Math.round(ms + random() * Math.max(100, ms * 0.1))
}
