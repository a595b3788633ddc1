import {randomBytes} from 'node:crypto'
import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {createKeyFile, parseKeyFile, readKeyFile, SecretBox, SecretOpenError} from './secret-box.js'

const dir = mkdtempSync(join(tmpdir(), 'gw-box-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

describe('SecretBox', () => {
  it('seals with a fresh IV each time and opens with the same key only; a changed value does not open', () => {
    const key = randomBytes(32)
    const box = new SecretBox(key)
    const a = box.seal('whsec_secret')
    const b = box.seal('whsec_secret')
    expect(a).toMatch(/^gwenc1:[A-Za-z0-9_-]+$/)
    expect(a).not.toBe(b)
    expect(a).not.toContain('secret')
    expect(new SecretBox(Buffer.from(key)).open(a)).toBe('whsec_secret')
    expect(() => SecretBox.ephemeral().open(a)).toThrow(SecretOpenError)
    const flipped = a.slice(0, -2) + (a.at(-2) === 'A' ? 'B' : 'A') + a.at(-1)
    expect(() => box.open(flipped)).toThrow(SecretOpenError)
    expect(() => box.open('whsec_plain')).toThrow(SecretOpenError)
    expect(box.sealed(a)).toBe(a)
    expect(box.open(box.sealed('whsec_plain'))).toBe('whsec_plain')
  })

  it('the check value is the same for the same key and says nothing of it', () => {
    const key = randomBytes(32)
    expect(new SecretBox(key).check).toBe(new SecretBox(Buffer.from(key)).check)
    expect(new SecretBox(key).check).not.toBe(SecretBox.ephemeral().check)
    expect(new SecretBox(key).check).not.toContain(key.toString('hex').slice(0, 16))
  })
})

describe('key files', () => {
  it('are made 0600 with 32 random bytes, once: a second make reads the first', () => {
    const path = join(dir, 'secrets.key')
    const key = createKeyFile(path)
    expect(key).toHaveLength(32)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readFileSync(path)).toEqual(key)
    expect(createKeyFile(path)).toEqual(key)
    expect(readKeyFile(path)).toEqual(key)
    expect(readKeyFile(join(dir, 'none.key'))).toBeUndefined()
  })

  it('take 32 bytes raw, as hex or as base64 (a newline allowed); anything else is refused with the reason', () => {
    const key = randomBytes(32)
    expect(parseKeyFile(key)).toEqual(key)
    expect(parseKeyFile(Buffer.from(key.toString('hex') + '\n'))).toEqual(key)
    expect(parseKeyFile(Buffer.from(key.toString('base64') + '\n'))).toEqual(key)
    expect(parseKeyFile(Buffer.from(key.toString('base64url')))).toEqual(key)
    expect(parseKeyFile(Buffer.from('short'))).toBeUndefined()
    const bad = join(dir, 'bad.key')
    writeFileSync(bad, 'not a key\n')
    expect(() => readKeyFile(bad)).toThrow(/holds no secrets key: it must be 32 bytes/)
  })
})
