import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {canonical, jsonDepthExceeds, MAX_JSON_DEPTH} from './pipeline.js'

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
      {numRuns: 500},
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
      {numRuns: 300},
    )
  })
})
