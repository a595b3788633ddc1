// Flags shared by several commands, with parsers that explain bad input.
import {Flags} from '@oclif/core'
import {displayExponent, isKnownCurrency} from '../api/money.js'
import {METHOD_CODES, PAYMENT_METHODS} from '../api/catalog.js'
import {closest} from '../suggest.js'
import {UsageError} from '../errors.js'
import {parseMinorUnits, parseTimestamp} from './parse.js'

/** --currency as typed on the command line (or GW_CURRENCY), for hints that fit it. */
function currencyOnCommandLine(argv: readonly string[] | undefined): string | undefined {
  const args = argv ?? []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (a === '--currency') return args[i + 1]?.toUpperCase()
    if (a.startsWith('--currency=')) return a.slice('--currency='.length).toUpperCase()
  }
  return process.env.GW_CURRENCY?.toUpperCase()
}

export const amountFlag = Flags.custom<number>({
  parse: async (input, ctx, opts) => {
    const currency = currencyOnCommandLine((ctx as {argv?: string[]} | undefined)?.argv)
    const exponent = currency && /^[A-Z]{3}$/.test(currency) ? displayExponent(currency) : 2
    return parseMinorUnits(input, `--${opts.name}`, currency, exponent)
  },
})

export const currencyFlag = Flags.custom<string>({
  description: 'Three-letter ISO 4217 currency code, e.g. EUR.',
  parse: async (input) => {
    const code = input.trim().toUpperCase()
    if (!/^[A-Z]{3}$/.test(code) || !isKnownCurrency(code)) {
      throw new UsageError(`--currency "${input}" is not an ISO 4217 currency code.`, 'Use a three-letter code such as EUR, USD, JPY or BRL.')
    }
    return code
  },
})

export const countryFlag = Flags.custom<string>({
  description: 'Two-letter ISO 3166 country code, e.g. NL.',
  parse: async (input, _ctx, opts) => {
    const code = input.trim().toUpperCase()
    if (!/^[A-Z]{2}$/.test(code)) throw new UsageError(`--${opts.name} "${input}" is not a two-letter country code.`, 'Use a code such as NL, DE or BR.')
    return code
  },
})

export const methodFlag = Flags.custom<string>({
  description: 'Payment method code, e.g. card, ideal, pix, sepa_debit.',
  parse: async (input) => {
    const code = input.trim().toLowerCase().replaceAll('-', '_')
    if (Object.hasOwn(PAYMENT_METHODS, code)) return code
    const near = closest(code, METHOD_CODES)
    throw new UsageError(
      `--method "${input}" is not a payment method code.`,
      near.length ? `Did you mean ${near.map((n) => `--method ${n}`).join(' or ')}?` : `Codes: ${METHOD_CODES.join(', ')}.`,
    )
  },
})

export const idempotencyKeyFlag = Flags.custom<string>({
  description: 'Idempotency-Key for this POST (default: a new UUID, reused on retries). Repeat it to retry safely.',
  parse: async (input) => {
    if (!input || input.length > 255) throw new UsageError('--idempotency-key must be 1 to 255 characters.')
    return input
  },
})

export const metadataFlag = Flags.string({
  description: 'Metadata key=value; repeat for more keys.',
  multiple: true,
})

export const limitFlag = Flags.custom<number>({
  description: 'Page size, 1 to 100 (default 20; 100 per page with --all).',
  parse: async (input) => {
    const n = Number(input)
    if (!/^\d+$/.test(input.trim()) || n < 1 || n > 100) throw new UsageError(`--limit must be a whole number from 1 to 100, got "${input}".`)
    return n
  },
})

export const listFlags = {
  limit: limitFlag(),
  'starting-after': Flags.string({description: 'Cursor: objects older than this id (the last id of the previous page).', exclusive: ['ending-before']}),
  'ending-before': Flags.string({description: 'Cursor: objects newer than this id (the first id of the previous page).', exclusive: ['starting-after']}),
  all: Flags.boolean({description: 'Fetch every page. With --json into a pipe, prints one JSON object per line (NDJSON).'}),
}

export const timestampFlag = Flags.custom<string>({
  parse: async (input, _ctx, opts) => parseTimestamp(input, `--${opts.name}`),
})

/** --created-gte and --created-lte: a list's window of creation times. */
export const createdFlags = {
  'created-gte': timestampFlag({description: 'Created at or after this ISO 8601 date or date-time.'}),
  'created-lte': timestampFlag({description: 'Created at or before this ISO 8601 date or date-time.'}),
}

/** What createdFlags give a command's options. */
export interface CreatedOptions {
  'created-gte'?: string
  'created-lte'?: string
}

/** The API's creation-time window from createdFlags. */
export function createdParams(f: CreatedOptions) {
  return {created_gte: f['created-gte'], created_lte: f['created-lte']}
}

/** What listFlags give a command's options. */
export interface PagingOptions {
  limit?: number
  'starting-after'?: string
  'ending-before'?: string
  all?: boolean
}

/** The API's page parameters from listFlags. */
export function pageParams(f: Omit<PagingOptions, 'all'>) {
  return {limit: f.limit, starting_after: f['starting-after'], ending_before: f['ending-before']}
}

export {idArg} from './args.js'
