// The engine's secrets key (docs/decisions.md#secrets-at-rest): what the engine must keep able to use but must not leave
// readable in its database — webhook signing secrets — is sealed with AES-256-GCM under a key
// kept outside the database (a file: the data dir's `secrets.key`, or `--secrets-key-file` for a
// fleet). A copy of the database alone holds no working secret. A check value (an HMAC of a
// fixed label) lets every instance on one database prove it holds the same key without
// revealing it.
import {createCipheriv, createDecipheriv, createHmac, randomBytes} from 'node:crypto'
import {chmodSync, linkSync, readFileSync, rmSync, writeFileSync} from 'node:fs'

/** What a sealed value starts with (the format, so another can follow). */
const SEALED = 'gwenc1:'
const IV_BYTES = 12
const TAG_BYTES = 16
export const SECRETS_KEY_BYTES = 32
/** Sealed values opened recently: a delivery signs with its endpoint's secret on every attempt. */
const OPENED_MAX = 4096

export class SecretOpenError extends Error {}

export class SecretBox {
  private readonly opened = new Map<string, string>()
  /** Hex HMAC-SHA256 of a fixed label: equal for equal keys, and says nothing of the key. */
  readonly check: string
  /** the key of fingerprints, derived from the secrets key (never the key itself, which seals) */
  private readonly marks: Buffer

  constructor(private readonly key: Buffer) {
    if (key.length !== SECRETS_KEY_BYTES) throw new Error(`a secrets key is ${SECRETS_KEY_BYTES} bytes, not ${key.length}`)
    this.check = createHmac('sha256', key).update('gw secrets key check v1').digest('hex')
    this.marks = createHmac('sha256', key).update('gw fingerprint key v1').digest()
  }

  /**
   * A value's mark: equal for equal values under one key (the same card in two payments), 22
   * base64url characters of an HMAC-SHA256. Keyed, so a copy of the database cannot try every
   * number between a card's first six and last four digits against it.
   */
  fingerprint(value: string): string {
    return createHmac('sha256', this.marks).update(value).digest().subarray(0, 16).toString('base64url')
  }

  /** A key of its own, kept nowhere (an engine whose data lives no longer than its process: a test's Core). */
  static ephemeral(): SecretBox {
    return new SecretBox(randomBytes(SECRETS_KEY_BYTES))
  }

  static isSealed(value: string): boolean {
    return value.startsWith(SEALED)
  }

  /** `gwenc1:` + base64url(iv, tag, ciphertext): a fresh random IV each time. */
  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES)
    const c = createCipheriv('aes-256-gcm', this.key, iv)
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()])
    return SEALED + Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url')
  }

  /** The plain text of a sealed value; SecretOpenError when it is not one, or not sealed with this key. */
  open(sealed: string): string {
    const hit = this.opened.get(sealed)
    if (hit !== undefined) return hit
    if (!SecretBox.isSealed(sealed)) throw new SecretOpenError('the value is not sealed')
    const raw = Buffer.from(sealed.slice(SEALED.length), 'base64url')
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretOpenError('the sealed value is cut short')
    let plain: string
    try {
      const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES))
      d.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      plain = Buffer.concat([d.update(raw.subarray(IV_BYTES + TAG_BYTES)), d.final()]).toString('utf8')
    } catch {
      throw new SecretOpenError('the value was sealed with another secrets key, or changed')
    }
    if (this.opened.size >= OPENED_MAX) this.opened.clear()
    this.opened.set(sealed, plain)
    return plain
  }

  /** A sealed value as is; a plain one (stored before sealing existed, or from a snapshot) sealed. */
  sealed(value: string): string {
    return SecretBox.isSealed(value) ? value : this.seal(value)
  }
}

/**
 * A key file's 32 bytes: the file holds them raw (as the engine writes it), or as 64 hex
 * characters or base64 (as `openssl rand -hex 32` / `-base64 32` write them), a newline allowed.
 */
export function parseKeyFile(raw: Buffer): Buffer | undefined {
  if (raw.length === SECRETS_KEY_BYTES) return raw
  const text = raw.toString('latin1').trim()
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex')
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const b = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64')
    if (b.length === SECRETS_KEY_BYTES) return b
  }
  return undefined
}

/** Reads a key file; undefined when there is none. Throws (with the reason) when it is there but no key. */
export function readKeyFile(path: string): Buffer | undefined {
  let raw: Buffer
  try {
    raw = readFileSync(path)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new Error(`cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
  const key = parseKeyFile(raw)
  if (!key) throw new Error(`${path} holds no secrets key: it must be ${SECRETS_KEY_BYTES} bytes, or ${SECRETS_KEY_BYTES} bytes as hex or base64 (openssl rand -hex ${SECRETS_KEY_BYTES})`)
  return key
}

/**
 * Makes a key file of 32 random bytes, mode 0600, unless one is there already: written whole to a
 * temporary file, then linked into place (which fails when the file exists), so instances
 * starting at once on a shared volume agree on the first one and never read half of it. Its key
 * either way.
 */
export function createKeyFile(path: string): Buffer {
  const key = randomBytes(SECRETS_KEY_BYTES)
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  writeFileSync(tmp, key, {mode: 0o600, flag: 'wx'})
  try {
    chmodSync(tmp, 0o600)
    linkSync(tmp, path)
    return key
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(path)!
    throw e
  } finally {
    rmSync(tmp, {force: true})
  }
}
