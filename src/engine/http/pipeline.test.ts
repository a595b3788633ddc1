import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {propertyRuns} from '../test-support/property-runs.js'
import {createHash} from 'node:crypto'
import {canonical, jsonDepthExceeds, MAX_JSON_DEPTH, requestTarget, sha256Hex} from './request.js'
import {sameSecret} from './access.js'

/** The former recursive definition, kept here as the reference the iterative one must match. */
function reference(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null'
  if (Array.isArray(v)) return `[${v.map(reference).join(',')}]`
  const o = v as Record<string, unknown>
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${reference(o[k])}`)
    .join(',')}}`
}

/** Depth of nesting of a parsed value (test-only, small inputs). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0
  const children = Array.isArray(v) ? v : Object.values(v as object)
  return 1 + Math.max(0, ...children.map(depthOf))
}

describe('canonical (the idempotency hash input)', () => {
  it('equals the recursive definition on any JSON value: keys sorted, same bytes otherwise', () => {
    fc.assert(
      fc.property(fc.jsonValue({maxDepth: 6}), (v) => {
        expect(canonical(v)).toBe(reference(v))
      }),
      {numRuns: propertyRuns(500)},
    )
  })

  it('writes any string and number as JSON.stringify does: quotes, backslashes, control characters, lone surrogates, exponents', () => {
    const str = fc.string({unit: 'binary', maxLength: 12})
    const num = fc.oneof(fc.double({noNaN: true, noDefaultInfinity: true}), fc.integer(), fc.constantFrom(-0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE))
    fc.assert(
      fc.property(fc.dictionary(str, fc.oneof(str, num, fc.boolean(), fc.constant(null), fc.array(fc.oneof(str, num), {maxLength: 3}))), (v) => {
        expect(canonical(v)).toBe(reference(v))
      }),
      {numRuns: propertyRuns(2000)},
    )
  })

  it('ignores key order and whitespace', () => {
    expect(canonical(JSON.parse('{"b": [1, {"y": 2, "x": 1}], "a": null}'))).toBe('{"a":null,"b":[1,{"x":1,"y":2}]}')
  })

  it('walks 100,000 levels without recursion', () => {
    let v: unknown = 1
    for (let i = 0; i < 100_000; i++) v = i % 2 ? [v] : {a: v}
    const out = canonical(v)
    expect(out.length).toBeGreaterThan(300_000)
  })
})

describe('sameSecret (API keys compared in constant time)', () => {
  it('is string equality, for any pair, prefixes and empty strings included', () => {
    fc.assert(
      fc.property(fc.string({unit: 'binary'}), fc.string({unit: 'binary'}), (a, b) => {
        expect(sameSecret(a, b)).toBe(a === b)
        expect(sameSecret(a, a)).toBe(true)
        expect(sameSecret(a, a + b)).toBe(b === '')
      }),
      {numRuns: propertyRuns(2000)},
    )
    const key = 'sk_test_0123456789abcdefghijklmnopqrstuv'
    expect(sameSecret(key, key.slice(0, -1))).toBe(false)
    expect(sameSecret(key, key.slice(0, -1) + 'w')).toBe(false)
    expect(sameSecret(key, '')).toBe(false)
  })
})

describe('jsonDepthExceeds (bound before parsing)', () => {
  const nest = (n: number, open = '[', close = ']') => open.repeat(n) + close.repeat(n)

  it(`allows ${MAX_JSON_DEPTH} levels and rejects ${MAX_JSON_DEPTH + 1}`, () => {
    expect(jsonDepthExceeds(Buffer.from(nest(MAX_JSON_DEPTH)))).toBe(false)
    expect(jsonDepthExceeds(Buffer.from(nest(MAX_JSON_DEPTH + 1)))).toBe(true)
    expect(jsonDepthExceeds(Buffer.from('{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1)))).toBe(true)
  })

  it('rejects 20,000 levels, closed or not, in one linear pass', () => {
    expect(jsonDepthExceeds(Buffer.from('['.repeat(20_000)))).toBe(true)
    expect(jsonDepthExceeds(Buffer.from('{"a":'.repeat(20_000)))).toBe(true)
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    const s = JSON.stringify({description: '['.repeat(100) + '\\"{{{{' + '"'.repeat(3), metadata: {k: '}}}]]]'}})
    expect(jsonDepthExceeds(Buffer.from(s))).toBe(false)
    expect(jsonDepthExceeds(Buffer.from(JSON.stringify({a: 'x\\'}) + '['.repeat(40)))).toBe(true)
  })

  it('agrees with the parsed depth of any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({maxDepth: 40}), fc.integer({min: 0, max: 40}), (v, limit) => {
        expect(jsonDepthExceeds(Buffer.from(JSON.stringify(v)), limit)).toBe(depthOf(v) > limit)
      }),
      {numRuns: propertyRuns(300)},
    )
  })
})

describe('requestTarget', () => {
  /** what a URL parser makes of the target, or undefined when it throws */
  const viaUrl = (t: string) => {
    try {
      const u = new URL(t, 'https://localhost')
      return {pathname: u.pathname, query: [...u.searchParams]}
    } catch {
      return undefined
    }
  }
  const ours = (t: string) => {
    const r = requestTarget(t)
    return r && {pathname: r.pathname, query: [...r.searchParams]}
  }

  it('splits a plain target as a URL parser does', () => {
    for (const t of ['/', '/v1', '/v1/', '/v1/payments', '/v1/payments?limit=3&status=succeeded', '/v1/payments/pay_ABC-12?', '/v1/events?type=payment.succeeded&created%5Bgte%5D=2026', '/??a'])
      expect(ours(t)).toEqual(viaUrl(t))
  })

  it('leaves what a parser rewrites to the parser: dot segments, escapes, backslashes, double slashes, fragments, absolute form', () => {
    for (const t of ['/v1/../v1/payments', '/v1/./payments', '/v1/%70ayments', '/v1\\payments', '//v1/payments', '/v1/payments#x', '/v1/payments?a=1#frag', 'https://example.com/v1/payments?x=1', '/v1/zahlungen/\u00e9', '//\u00e9'])
      expect(ours(t)).toEqual(viaUrl(t))
  })

  it('has no answer for a target no URL can be made of (GET // once stopped the engine)', () => {
    for (const t of ['//', '//:99999/x', '//a b']) expect(requestTarget(t)).toBeUndefined()
  })

  it('agrees with the URL parser on any target', () => {
    const char = fc.constantFrom(...'/?&=#%.\\ab_-Z09+\u00e9 ~:;@!'.split(''))
    fc.assert(
      fc.property(fc.array(char, {maxLength: 24}), (cs) => {
        const t = `/${cs.join('')}`
        expect(ours(t)).toEqual(viaUrl(t))
      }),
      {numRuns: propertyRuns(2000)},
    )
  })
})

describe('sha256Hex', () => {
  it('is the hex SHA-256 of the UTF-8 text', () => {
    for (const s of ['', 'POST /payments\n{}', '\u00e9\u20ac\u{1f600}']) expect(sha256Hex(s)).toBe(createHash('sha256').update(s).digest('hex'))
  })
})
