// API keys are never shown whole: their prefix and last four characters at most (redactSecret,
// src/api/keys.ts, the engine's rule too).
import {redactSecret} from '../api/keys.js'

/** Replaces every occurrence of `secret` in `text` by its redacted form. */
export function scrub(text: string, secret: string | undefined | null): string {
  if (!secret || secret.length < 8) return text
  return text.split(secret).join(redactSecret(secret))
}

export type KeyMode = 'test' | 'live' | 'unknown'

/** The mode of a key the CLI can use: a secret key (sk_) or a restricted one (rk_, as support agents use); publishable keys are for browsers. */
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
