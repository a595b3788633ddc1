// Waiting in tests for what happens in the background (a delivery, a fleet instance, a restart):
// polls `fn` until it gives a truthy value, failing with what was awaited after `timeoutMs`.
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(everyMs)
  }
}
