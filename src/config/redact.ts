// API keys are never shown whole: the first 8 and the last 4 characters at most.

export function redactKey(key: string | undefined | null): string {
  if (!key) return ''
  if (key.length < 16) return `${key.slice(0, Math.min(8, Math.max(0, key.length - 4)))}…`
  return `${key.slice(0, 8)}…${key.slice(-4)}`
}

/** Replaces every occurrence of `secret` in `text` by its redacted form. */
export function scrub(text: string, secret: string | undefined | null): string {
  if (!secret || secret.length < 8) return text
  return text.split(secret).join(redactKey(secret))
}

export type KeyMode = 'test' | 'live' | 'unknown'

/** The mode of a key the CLI can use: a secret key (sk_) or a restricted one (rk_, issue 36); publishable keys are for browsers. */
export function keyMode(key: string | undefined | null): KeyMode {
  if (key?.startsWith('sk_test_') || key?.startsWith('rk_test_')) return 'test'
  if (key?.startsWith('sk_live_') || key?.startsWith('rk_live_')) return 'live'
  return 'unknown'
}

/** A key's type by its prefix: secret (sk_) or restricted (rk_); undefined for anything else. */
export function keyType(key: string | undefined | null): 'secret' | 'restricted' | undefined {
  if (key?.startsWith('sk_')) return 'secret'
  if (key?.startsWith('rk_')) return 'restricted'
  return undefined
}
