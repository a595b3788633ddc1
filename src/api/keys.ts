// The vocabulary of API keys (docs/decisions.md#api-keys), shared by the engine and the CLI: what a restricted key
// can be given, one resource each, `read` or `write` (write includes read).
export const KEY_RESOURCES = [
  'payments',
  'refunds',
  'disputes',
  'customers',
  'payment_methods',
  'webhooks',
  'events',
  'routing',
  'merchants',
  'settlement',
  'request_logs',
  'test_helpers',
  'accounts',
] as const
export type KeyResource = (typeof KEY_RESOURCES)[number]
export const KEY_LEVELS = ['read', 'write'] as const

/** The prefix of a secret: an API key's type and mode (`sk_test_`), or a webhook signing secret's `whsec_`. */
const SECRET_PREFIX = /^(?:[srp]k_(?:test|live)_|whsec_)/

/** The characters of a secret past its prefix that stay hidden when its last four are shown: fewer, and it is shown by its prefix alone. */
const HIDDEN_AT_LEAST = 8

/**
 * How a secret (an API key, a webhook signing secret) is shown anywhere but the one answer that
 * made it, by the engine and the CLI alike: its prefix, an ellipsis and its last four characters
 * (`sk_test_…wXyZ`, `whsec_…wXyZ`); a string too short to hide much, its prefix and the ellipsis
 * (`sk_test_…`); nothing for none. An idempotent replay of the request that made a secret answers
 * this form (the engine never stores the secret itself: docs/api.md#secrets-at-rest).
 */
export function redactSecret(secret: string | null | undefined): string {
  if (!secret) return ''
  const prefix = SECRET_PREFIX.exec(secret)?.[0] ?? ''
  return secret.length >= prefix.length + 4 + HIDDEN_AT_LEAST ? `${prefix}…${secret.slice(-4)}` : `${prefix}…`
}

/** Whether a secret in an answer is only its redacted form (an idempotent replay of the request that made it: the secret was shown once). */
export const isRedactedSecret = (secret: string | null | undefined): boolean => typeof secret === 'string' && secret.includes('…')
