// `gw webhooks verify`: checks a signature like a receiver would, and when it fails, works out
// why: a malformed header, a body that was re-serialised (pretty-printed, reformatted) or gained
// a trailing newline, a timestamp outside the tolerance (and by how much), or a wrong secret.
import {
  DEFAULT_TOLERANCE_SECONDS,
  describeAge,
  matchingSignature,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  SignatureVerificationError,
  type ParsedHeader,
} from '../../../api/webhook-signature.js'

export type VerifyVerdict =
  | 'valid'
  | 'malformed_header'
  | 'wrong_secret'
  | 'reserialized_body'
  | 'trailing_newline'
  | 'timestamp_out_of_tolerance'

export interface VerifyReport {
  valid: boolean
  verdict: VerifyVerdict
  /** one sentence: what is wrong (or that it is valid) */
  message: string
  /** what to do about it */
  hints: string[]
  timestamp: number | null
  /** now - timestamp, in seconds (positive: signed in the past) */
  age_seconds: number | null
  tolerance_seconds: number
  signatures: number
}

/** JSON renderings a receiver commonly turns the raw body into. */
function reserialisations(text: string): {name: string; bytes: string}[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return []
  }
  return [
    {name: 'compact JSON (JSON.stringify)', bytes: JSON.stringify(value)},
    {name: 'pretty-printed JSON (2 spaces)', bytes: JSON.stringify(value, null, 2)},
    {name: 'pretty-printed JSON (4 spaces)', bytes: JSON.stringify(value, null, 4)},
    {name: 'pretty-printed JSON (tabs)', bytes: JSON.stringify(value, null, '\t')},
  ].filter((v) => v.bytes !== text)
}

export function explainSignature(opts: {payload: Buffer; header: string; secret: string; tolerance?: number; now?: number}): VerifyReport {
  const tolerance = opts.tolerance ?? DEFAULT_TOLERANCE_SECONDS
  const nowS = (opts.now ?? Date.now()) / 1000
  const base = {tolerance_seconds: tolerance, timestamp: null, age_seconds: null, signatures: 0}
  const secretHints = opts.secret.startsWith('whsec_') ? [] : [`The secret does not start with whsec_: it should be the endpoint's signing secret (printed once by \`gw webhooks create\` / \`rotate-secret\`, or \`gw listen --print-secret\`), not an API key.`]

  let parsed: ParsedHeader
  try {
    parsed = parseSignatureHeader(opts.header)
  } catch (e) {
    return {
      ...base,
      valid: false,
      verdict: 'malformed_header',
      message: (e as SignatureVerificationError).message,
      hints: [`The ${SIGNATURE_HEADER} header looks like t=1700000000,v1=<64 hex characters> (more v1= values may follow). Pass the whole value, unquoted and unchanged.`],
    }
  }
  const age = nowS - parsed.timestamp
  const timing = {timestamp: parsed.timestamp, age_seconds: Math.round(age), signatures: parsed.signatures.length}
  const late = tolerance > 0 && Math.abs(age) > tolerance
  const lateText = `The timestamp t=${parsed.timestamp} (${new Date(parsed.timestamp * 1000).toISOString()}) is ${describeAge(age)}, outside the ${describeAge(tolerance).replace(/ old$/, '')} tolerance.`

  const raw = opts.payload
  if (matchingSignature([opts.secret], raw, parsed)) {
    if (late)
      return {
        ...base,
        ...timing,
        valid: false,
        verdict: 'timestamp_out_of_tolerance',
        message: `The signature matches, but the ${lateText.slice(4)}`,
        hints: [
          age > 0
            ? 'A delivery this old is rejected as a possible replay. If you are checking a saved delivery, pass --tolerance 0 (skip the time check) or a larger --tolerance.'
            : "The timestamp is ahead of this machine's clock: check the clock (NTP) of the sender and of this machine.",
        ],
      }
    return {...base, ...timing, valid: true, verdict: 'valid', message: `Valid: a v1 signature matches, signed ${describeAge(age)}.`, hints: []}
  }

  const text = raw.toString('utf8')
  // an editor or `echo` added a final newline to the saved body
  for (const trimmed of [text.replace(/\r?\n$/, ''), text.replace(/\s+$/, '')]) {
    if (trimmed !== text && matchingSignature([opts.secret], trimmed, parsed))
      return {
        ...base,
        ...timing,
        valid: false,
        verdict: 'trailing_newline',
        message: 'The payload has whitespace at its end that was not in the signed body: without it the signature matches.',
        hints: ['Save the body byte for byte (e.g. `printf %s "$BODY"`, not `echo`), or strip the final newline. The secret is right.', ...(late ? [lateText] : [])],
      }
  }
  for (const form of reserialisations(text)) {
    if (matchingSignature([opts.secret], form.bytes, parsed))
      return {
        ...base,
        ...timing,
        valid: false,
        verdict: 'reserialized_body',
        message: `The payload is not the bytes that were signed: it is JSON that was re-serialised. Its ${form.name} form matches the signature, so the secret is right.`,
        hints: [
          'Verify the raw request body before parsing it: in Express use express.raw({type: "application/json"}) on the webhook route (not express.json()), in node:http concatenate the request chunks into a Buffer.',
          'JSON.stringify(JSON.parse(body)) is not the original body in general (spacing, key order, number and unicode formatting).',
          ...(late ? [lateText] : []),
        ],
      }
  }
  const parses = reserialisations(text).length > 0 || (() => {
    try {
      JSON.parse(text)
      return true
    } catch {
      return false
    }
  })()
  return {
    ...base,
    ...timing,
    valid: false,
    verdict: 'wrong_secret',
    message: `No v1 signature (${parsed.signatures.length} in the header) matches this payload with this secret, and no re-serialised form of the payload matches either: the secret is most likely wrong.`,
    hints: [
      ...secretHints,
      'Each endpoint has its own secret; `gw webhooks rotate-secret` replaces it (older deliveries stay signed with the old one); `gw listen` signs with its own (`gw listen --print-secret`).',
      ...(parses ? [] : ['The payload is not JSON: is it the request body?']),
      'If the secret is right, the body was changed in a way that cannot be undone (a proxy, a charset conversion): verify the raw bytes as received.',
      ...(late ? [lateText] : []),
    ],
  }
}
