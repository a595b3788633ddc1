import {describe, expect, it} from 'vitest'
import * as pkg from '../index.js'
import {computeSignature, parseSignatureHeader, signatureHeader, SignatureVerificationError, verifySignature, type SignatureFailureReason} from './webhook-signature.js'

const SECRET = 'whsec_test_0123456789abcdefghijklmnopqrstuvwxyz'
const OTHER = 'whsec_other_secret_zzzzzzzzzzzzzzzzzzzzzzzzzzzz'
const T = 1_700_000_000
const NOW = T * 1000
const event = {id: 'evt_1', object: 'event', type: 'payment.succeeded', created_at: '2023-11-14T22:13:20.000Z', livemode: false, request_id: 'req_1', data: {object: {id: 'pay_1', amount: 2000, currency: 'EUR', description: 'Crème brûlée — 2×'}}}
const RAW = JSON.stringify(event)

function reason(fn: () => unknown): SignatureFailureReason | undefined {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(SignatureVerificationError)
    return (e as SignatureVerificationError).reason
  }
  return undefined
}

describe('verifySignature', () => {
  it('signs `${t}.${body}` with HMAC-SHA256 in lowercase hex (known vector)', () => {
    // echo -n '1700000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac 'whsec_test'
    const v1 = computeSignature('whsec_test', '{"id":"evt_1"}', 1_700_000_000)
    expect(v1).toBe('c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925')
    expect(signatureHeader('whsec_test', '{"id":"evt_1"}', 1_700_000_000)).toBe(`t=1700000000,v1=${v1}`)
    // bytes and string sign the same
    expect(computeSignature('whsec_test', Buffer.from('{"id":"evt_1"}'), 1_700_000_000)).toBe(v1)
  })

  it('accepts what the engine signs (the same function), as a string or as raw bytes', () => {
    const header = signatureHeader(SECRET, RAW, T)
    expect(verifySignature({payload: RAW, header, secret: SECRET, now: NOW})).toEqual({timestamp: T, signature: header.split('v1=')[1]})
    expect(verifySignature({payload: Buffer.from(RAW, 'utf8'), header, secret: SECRET, now: new Date(NOW)}).timestamp).toBe(T)
    expect(verifySignature({payload: new Uint8Array(Buffer.from(RAW)), header, secret: SECRET, now: NOW}).timestamp).toBe(T)
  })

  it('is the package export, loading no oclif or engine code', async () => {
    expect(pkg.verifySignature).toBe(verifySignature)
    expect(pkg.SIGNATURE_HEADER).toBe('Service-Signature')
    const {readFileSync} = await import('node:fs')
    const src = readFileSync(new URL('./webhook-signature.ts', import.meta.url), 'utf8') + readFileSync(new URL('../index.ts', import.meta.url), 'utf8')
    expect(src).not.toMatch(/from '@oclif|from '\.\.\/engine|from '\.\/engine|from 'ink'|from 'react'/)
  })

  it('rejects a wrong secret and a tampered body', () => {
    const header = signatureHeader(SECRET, RAW, T)
    expect(reason(() => verifySignature({payload: RAW, header, secret: OTHER, now: NOW}))).toBe('signature_mismatch')
    expect(reason(() => verifySignature({payload: RAW.replace('2000', '2001'), header, secret: SECRET, now: NOW}))).toBe('signature_mismatch')
    // the signature of another timestamp does not carry over
    const moved = header.replace(`t=${T}`, `t=${T + 1}`)
    expect(reason(() => verifySignature({payload: RAW, header: moved, secret: SECRET, now: NOW}))).toBe('signature_mismatch')
  })

  it('verifies the raw bytes, not re-serialised JSON', () => {
    const header = signatureHeader(SECRET, RAW, T)
    const pretty = JSON.stringify(JSON.parse(RAW), null, 2)
    expect(reason(() => verifySignature({payload: pretty, header, secret: SECRET, now: NOW}))).toBe('signature_mismatch')
    // a body whose bytes differ from JSON.stringify's output (spacing, escapes) verifies only as sent
    const sent = '{"id": "evt_2", "object":"event", "note":"caf\\u00e9"}'
    const h2 = signatureHeader(SECRET, sent, T)
    expect(verifySignature({payload: Buffer.from(sent), header: h2, secret: SECRET, now: NOW}).timestamp).toBe(T)
    expect(reason(() => verifySignature({payload: JSON.stringify(JSON.parse(sent)), header: h2, secret: SECRET, now: NOW}))).toBe('signature_mismatch')
    // the raw bytes of non-ASCII text: a latin1 decode is not the body
    expect(reason(() => verifySignature({payload: Buffer.from(RAW, 'utf8').toString('latin1'), header, secret: SECRET, now: NOW}))).toBe('signature_mismatch')
  })

  it('rejects malformed and partial headers', () => {
    const good = signatureHeader(SECRET, RAW, T)
    const v1 = good.split('v1=')[1]!
    const cases: (string | undefined | null | string[])[] = [
      undefined,
      null,
      '',
      '   ',
      `v1=${v1}`, // no timestamp
      `t=${T}`, // no signature
      `t=${T},v1=${v1.slice(0, 40)}`, // truncated signature
      `t=${T},v1=${v1.toUpperCase()}`, // not lowercase hex
      `t=abc,v1=${v1}`,
      `t=${T};v1=${v1}`, // wrong separator
      `t=${T},v0=${v1}`, // unknown scheme only
      'garbage',
    ]
    for (const header of cases) expect(reason(() => verifySignature({payload: RAW, header, secret: SECRET, now: NOW})), String(header)).toBe('malformed_header')
    expect(() => parseSignatureHeader(`t=${T},v1=${v1.slice(0, 40)}`)).toThrow(/not 64 lowercase hex/)
    expect(() => parseSignatureHeader(`v1=${v1}`)).toThrow(/no t=/)
    expect(() => parseSignatureHeader(undefined)).toThrow(/No Service-Signature header/)
  })

  it('accepts the header array Node gives for a repeated header, and spaces around parts', () => {
    const good = signatureHeader(SECRET, RAW, T)
    expect(verifySignature({payload: RAW, header: [good], secret: SECRET, now: NOW}).timestamp).toBe(T)
    expect(verifySignature({payload: RAW, header: good.replace(',', ' , '), secret: SECRET, now: NOW}).timestamp).toBe(T)
  })

  it('passes when any of several v1 values matches, in any position', () => {
    const sig = computeSignature(SECRET, RAW, T)
    const old = computeSignature(OTHER, RAW, T)
    expect(verifySignature({payload: RAW, header: `t=${T},v1=${old},v1=${sig}`, secret: SECRET, now: NOW}).signature).toBe(sig)
    expect(verifySignature({payload: RAW, header: `t=${T},v1=${sig},v1=${old}`, secret: SECRET, now: NOW}).signature).toBe(sig)
    // with a malformed v1 beside a good one, the good one still counts
    expect(verifySignature({payload: RAW, header: `t=${T},v1=abc,v1=${sig}`, secret: SECRET, now: NOW}).signature).toBe(sig)
    // none of them matches
    expect(reason(() => verifySignature({payload: RAW, header: `t=${T},v1=${old},v1=${'0'.repeat(64)}`, secret: SECRET, now: NOW}))).toBe('signature_mismatch')
  })

  it('takes several secrets during a rotation', () => {
    const header = signatureHeader(OTHER, RAW, T)
    expect(verifySignature({payload: RAW, header, secret: [SECRET, OTHER], now: NOW}).timestamp).toBe(T)
    expect(reason(() => verifySignature({payload: RAW, header, secret: [SECRET], now: NOW}))).toBe('signature_mismatch')
  })

  it('signs with several secrets during a rotation overlap: one v1 each, either secret verifies', () => {
    const header = signatureHeader([OTHER, SECRET], RAW, T)
    expect(header.match(/v1=/g)).toHaveLength(2)
    expect(verifySignature({payload: RAW, header, secret: SECRET, now: NOW}).timestamp).toBe(T)
    expect(verifySignature({payload: RAW, header, secret: OTHER, now: NOW}).timestamp).toBe(T)
    expect(reason(() => verifySignature({payload: RAW, header, secret: 'whsec_neither', now: NOW}))).toBe('signature_mismatch')
  })

  it('enforces the tolerance both ways, inclusive at the edge', () => {
    const header = signatureHeader(SECRET, RAW, T)
    const at = (offsetS: number) => (T + offsetS) * 1000
    expect(verifySignature({payload: RAW, header, secret: SECRET, now: at(300)}).timestamp).toBe(T)
    expect(verifySignature({payload: RAW, header, secret: SECRET, now: at(-300)}).timestamp).toBe(T)
    let err: SignatureVerificationError | undefined
    try {
      verifySignature({payload: RAW, header, secret: SECRET, now: at(301)})
    } catch (e) {
      err = e as SignatureVerificationError
    }
    expect(err?.reason).toBe('timestamp_out_of_tolerance')
    expect(err?.ageSeconds).toBe(301)
    expect(err?.message).toMatch(/5m 1s old/)
    try {
      verifySignature({payload: RAW, header, secret: SECRET, now: at(-3600)})
    } catch (e) {
      err = e as SignatureVerificationError
    }
    expect(err?.reason).toBe('timestamp_out_of_tolerance')
    expect(err?.ageSeconds).toBe(-3600)
    expect(err?.message).toMatch(/1h in the future/)
    // a custom tolerance, and 0 to skip the time check (replaying a saved delivery)
    expect(reason(() => verifySignature({payload: RAW, header, secret: SECRET, now: at(61), tolerance: 60}))).toBe('timestamp_out_of_tolerance')
    expect(verifySignature({payload: RAW, header, secret: SECRET, now: at(86_400 * 365), tolerance: 0}).timestamp).toBe(T)
  })

  it('checks the signature before the time: a forged old header is a mismatch, not a timing error', () => {
    const forged = `t=${T - 10_000},v1=${'a'.repeat(64)}`
    expect(reason(() => verifySignature({payload: RAW, header: forged, secret: SECRET, now: NOW}))).toBe('signature_mismatch')
  })

  it('uses the current time by default', () => {
    const header = signatureHeader(SECRET, RAW)
    expect(verifySignature({payload: RAW, header, secret: SECRET}).timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
    expect(reason(() => verifySignature({payload: RAW, header: signatureHeader(SECRET, RAW, T), secret: SECRET}))).toBe('timestamp_out_of_tolerance')
  })

  it('refuses misuse with a TypeError (no secret, a parsed body)', () => {
    const header = signatureHeader(SECRET, RAW, T)
    expect(() => verifySignature({payload: RAW, header, secret: '', now: NOW})).toThrow(TypeError)
    expect(() => verifySignature({payload: event as unknown as string, header, secret: SECRET, now: NOW})).toThrow(/raw body/)
  })
})
