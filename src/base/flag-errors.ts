// A 400 whose `param` is a field the user typed as a flag is a usage error: the message names
// the flag (--card, not payment_method_data.card.number) and the command exits 2, as for a
// bad value caught before sending (README, exit codes).
import {ApiError} from '../client/errors.js'

/** API param (exact, or a prefix ending in ".") -> the flag that set it. */
export type ParamFlags = Record<string, string>

export function flagForParam(param: string | undefined, map: ParamFlags): string | undefined {
  if (!param) return undefined
  if (map[param]) return map[param]
  const base = param.replace(/\[\d+\]$/, '')
  if (map[base]) return map[base]
  const prefix = Object.keys(map).filter((k) => k.endsWith('.') && param.startsWith(k)).sort((a, b) => b.length - a.length)[0]
  // "{rest}" stands for what follows the prefix: fields.tracking_number -> --field tracking_number
  return prefix ? map[prefix]!.replace('{rest}', param.slice(prefix.length)) : undefined
}

const VALUE_CODES = /^parameter_(invalid|missing|unknown)$|_invalid$|^currency_not_supported$/

/** Runs an API call; a 400 naming one of `map`'s params comes back naming the flag. */
export async function withFlagNames<T>(map: ParamFlags, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    // only errors about the typed value itself; state errors (amount_too_large against what is
    // left to refund, payment_not_capturable, ...) stay API errors, exit 1
    if (error instanceof ApiError && error.status === 400 && error.type === 'invalid_request_error' && VALUE_CODES.test(error.code)) {
      const flag = flagForParam(error.param, map)
      if (flag) error.flag = flag
    }
    throw error
  }
}
