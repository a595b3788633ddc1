/** Strings JSON writes as they are, between quotes: no quote, backslash, control character or surrogate. */
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

/**
 * `JSON.stringify(s)` for a string, without the call for the plain ones: its fixed cost is most
 * of what a short key or id costs (the idempotency hash writes some twenty of them per payment).
 */
export const jsonString = (s: string): string => (PLAIN_STRING.test(s) ? `"${s}"` : JSON.stringify(s))
