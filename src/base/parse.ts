// Parsers for flag values every topic may take (metadata, durations, amounts, timestamps). Each
// throws a UsageError that names the flag and shows the fix. A topic's own parsers are in
// src/commands/<topic>/shared/.
import {UsageError} from '../errors.js'

/** `--metadata k=v` (repeatable) -> {k: v} */
export function parseMetadata(values: string[] | undefined, flag = '--metadata'): Record<string, string> | undefined {
  if (!values?.length) return undefined
  const out: Record<string, string> = {}
  for (const v of values) {
    const i = v.indexOf('=')
    if (i <= 0) throw new UsageError(`${flag} "${v}" is not key=value.`, `Write it like ${flag} order_id=1234 (repeat the flag for more keys).`)
    out[v.slice(0, i)] = v.slice(i + 1)
  }
  return out
}

const UNITS: Record<string, number> = {
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  d: 86_400, day: 86_400, days: 86_400,
  w: 604_800, week: 604_800, weeks: 604_800,
}

/**
 * One rule for every duration (clock advance, --within, --timeout, --since): a number needs a
 * unit, and a bare number is read as seconds, said on stderr so `gw clock advance 7` never
 * silently means 7 seconds.
 */
export function bareSecondsNotice(text: string, flag: string): string | undefined {
  const t = text.trim()
  if (!/^\d+$/.test(t) || t === '0') return undefined
  return `! ${flag} ${t} has no unit: read as ${t} second${t === '1' ? '' : 's'}. Write ${t}d for days, ${t}h for hours, ${t}m for minutes.`
}

/** Human durations -> seconds: "7d", "36h", "90m", "1d12h", "2 days", "1.5h", or plain seconds "3600". */
export function parseDuration(text: string, flag = 'duration'): number {
  const t = text.trim().toLowerCase()
  const fail = () =>
    new UsageError(`${flag} "${text}" is not a duration.`, 'Use a number with a unit: 30s, 90m, 36h, 7d, 2w, or combined like 1d12h.')
  if (/^\d+$/.test(t)) return Number(t)
  const re = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*/gy
  let total = 0
  let matched = 0
  let m: RegExpExecArray | null
  while ((m = re.exec(t))) {
    const unit = UNITS[m[2]]
    if (!unit) throw fail()
    total += Number(m[1]) * unit
    matched = re.lastIndex
  }
  if (matched !== t.length || matched === 0) throw fail()
  return Math.round(total)
}

/** Most minor units one payment may carry (docs/api.md: eight digits, as card networks allow). */
export const MAX_AMOUNT = 99_999_999

/** An example amount in a currency for hints: "2000 = 20.00 EUR", "2000 = ¥2,000 JPY". */
function amountExample(currency: string | undefined, exp: number): string {
  const code = (currency ?? 'EUR').toUpperCase()
  if (exp === 0) return `${code} has no minor unit: --amount 2000 is 2000 ${code}`
  return `--amount counts minor units: 2000 = ${(2000 / 10 ** exp).toFixed(exp)} ${code}`
}

/**
 * Minor units: a positive whole number up to MAX_AMOUNT, with a pointer to --display-amount for
 * decimals. `currency` (when the command line has one) makes the example fit it (JPY has no minor unit).
 */
export function parseMinorUnits(text: string, flag = '--amount', currency?: string, exponent = 2): number {
  const t = text.trim()
  if (/^-\d+(\.\d+)?$/.test(t) || /^0+$/.test(t)) {
    throw new UsageError(`${flag} must be positive (more than zero), got "${text}".`, `${amountExample(currency, exponent)}.`)
  }
  if (!/^\d+$/.test(t)) {
    throw new UsageError(
      `${flag} "${text}" is not a whole number of minor units.`,
      /^\d*\.\d+$/.test(t)
        ? exponent === 0
          ? `${amountExample(currency, exponent)}; give a whole number, e.g. ${flag} ${Math.round(Number(t))}.`
          : `${amountExample(currency, exponent)}. For a decimal amount use --display-amount ${t}.`
        : `Example: ${flag} 2000 (${amountExample(currency, exponent)}).`,
    )
  }
  const n = Number(t)
  if (!Number.isSafeInteger(n) || n > MAX_AMOUNT) {
    throw new UsageError(`${flag} ${t} is too large: at most ${MAX_AMOUNT.toLocaleString('en-US')} minor units.`, `${amountExample(currency, exponent)}.`)
  }
  return n
}

/** An ISO 8601 date or date-time for created_gte/created_lte; a bare date is midnight UTC. */
export function parseTimestamp(text: string, flag: string): string {
  const t = text.trim()
  const ok = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(t) && !Number.isNaN(Date.parse(t))
  if (!ok) throw new UsageError(`${flag} "${text}" is not an ISO 8601 date or date-time.`, `e.g. ${flag} 2025-01-31 or ${flag} 2025-01-31T12:00:00Z`)
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00:00Z` : t).toISOString()
}
