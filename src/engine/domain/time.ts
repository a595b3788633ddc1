// Instants as the API writes them: ISO 8601 in UTC with milliseconds, as Date#toISOString does.

const p2 = (n: number) => (n < 10 ? '0' + n : '' + n)
const p3 = (n: number) => (n < 10 ? '00' + n : n < 100 ? '0' + n : '' + n)

/** 9999-12-31T23:59:59.999Z and before: four-digit years, which this formats itself */
const FOUR_DIGIT_YEARS_END = 253_402_300_800_000

let lastTime = NaN
let lastText = ''

/**
 * `d.toISOString()`, about three times as fast: a payment writes some fifteen instants, most of
 * them the request's `now`, and the builtin (a call into the runtime that formats through a
 * buffer) cost more than its routing. The last instant formatted is kept. Years outside
 * 1970-9999 are left to the builtin (an invalid date throws as it does).
 */
export function iso(d: Date): string {
  const t = d.getTime()
  if (t === lastTime) return lastText
  if (!(t >= 0 && t < FOUR_DIGIT_YEARS_END)) return d.toISOString()
  // days since the epoch to a civil date (H. Hinnant, "chrono-compatible low-level date algorithms")
  const days = Math.floor(t / 86_400_000)
  let ms = t - days * 86_400_000
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const doe = z - era * 146_097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  const h = Math.floor(ms / 3_600_000)
  ms -= h * 3_600_000
  const mi = Math.floor(ms / 60_000)
  ms -= mi * 60_000
  const s = Math.floor(ms / 1000)
  ms -= s * 1000
  lastTime = t
  lastText = `${year}-${p2(month)}-${p2(day)}T${p2(h)}:${p2(mi)}:${p2(s)}.${p3(ms)}Z`
  return lastText
}
