// Shared by `gw api get|post|delete`: raw requests against the base URL.
import {Args, Flags} from '@oclif/core'
import {UsageError} from '../errors.js'

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
