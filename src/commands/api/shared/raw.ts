// Shared by `gw api get|post|delete`: raw requests against the base URL, their PATH and -d
// key=value data (which `gw trigger --override` takes too).
import {Args, Flags} from '@oclif/core'
import {UsageError} from '../../../errors.js'

export const pathArg = Args.string({
  description: 'Path relative to the base URL, e.g. /payments or /payments/pay_123 (a leading /v1 is accepted).',
  required: true,
})

export const dataFlag = Flags.string({
  char: 'd',
  description: 'key=value (whole numbers, true, false and null are sent as JSON, except string fields such as card number, cvc, reference, ids and metadata) or key:=JSON for exact JSON; nested keys: card[number]=... Repeatable.',
  multiple: true,
})

export function normalizePath(path: string): string {
  const p = path.trim()
  if (/^https?:\/\//.test(p)) {
    throw new UsageError(`PATH "${path}" must be relative to the base URL.`, 'e.g. gw api get /payments (the base URL comes from the profile or --base-url)')
  }
  const withSlash = p.startsWith('/') ? p : `/${p}`
  return withSlash.replace(/^\/v1(?=\/|$)/, '') || '/'
}

/**
 * `gw api -d` pairs -> a JSON object. `key=value` guesses the type (integers, true/false,
 * null become JSON; everything else a string), except for fields that are always strings
 * (card number, cvc, reference, ids, metadata values...); `key:=JSON` takes raw JSON. Nested keys:
 * `card[number]=4242...` or `card.number=4242...`.
 */
export function parseDataPairs(pairs: string[] | undefined, flag = '-d'): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const pair of pairs ?? []) {
    const raw = pair.indexOf(':=')
    const eq = pair.indexOf('=')
    let key: string
    let value: unknown
    if (raw > 0 && raw < eq) {
      key = pair.slice(0, raw)
      const text = pair.slice(raw + 2)
      try {
        value = JSON.parse(text)
      } catch {
        throw new UsageError(`${flag} "${pair}": the value after := is not JSON.`, `e.g. ${flag} 'metadata:={"a":"b"}' or ${flag} 'reference:="123"'`)
      }
    } else if (eq > 0) {
      key = pair.slice(0, eq)
      const path = keyPath(key, flag, pair)
      value = STRING_FIELDS.has(path[path.length - 1]) || path[0] === 'metadata' ? pair.slice(eq + 1) : guessValue(pair.slice(eq + 1))
    } else {
      throw new UsageError(`${flag} "${pair}" is not key=value.`, `e.g. ${flag} amount=2000 ${flag} currency=EUR (key:=JSON for raw JSON).`)
    }
    setPath(out, keyPath(key, flag, pair), value)
  }
  return out
}

/** Fields the API always types as strings, even when their value is all digits. */
const STRING_FIELDS = new Set([
  'number', 'cvc', 'postal_code', 'line1', 'country', 'reference', 'description', 'name', 'email', 'id', 'customer',
  'payment', 'payment_method_id', 'merchant', 'provider', 'url', 'return_url', 'currency', 'starting_after', 'ending_before', 'date',
])

function guessValue(v: string): unknown {
  if (/^-?(0|[1-9]\d{0,15})$/.test(v)) return Number(v)
  if (v === 'true') return true
  if (v === 'false') return false
  if (v === 'null') return null
  return v
}

function keyPath(key: string, flag: string, pair: string): string[] {
  const parts = key.replace(/\[([^\]]*)\]/g, '.$1').split('.')
  if (parts.some((p) => p === '')) throw new UsageError(`${flag} "${pair}": malformed key "${key}".`, 'Nested keys look like card[number]=... or card.number=...')
  return parts
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown) {
  let node = target
  for (const part of path.slice(0, -1)) {
    const next = node[part]
    if (next === undefined || next === null || typeof next !== 'object') node[part] = {}
    node = node[part] as Record<string, unknown>
  }
  node[path[path.length - 1]] = value
}
