// The outline of a large JSON body read in parts (docs/decisions.md#large-snapshots): what it reads is what JSON.parse
// reads, it accepts exactly the bodies JSON.parse accepts, and it refuses deep nesting by name.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {propertyRuns} from '../test-support/property-runs.js'
import {JsonScanError, JsonScanner, type Member} from './json-scan.js'

const scanner = (text: string) => new JsonScanner(Buffer.from(text, 'utf8'), {maxDepth: 32, sliceBytes: 64})

/** Reads a document as the snapshot load does: root members with `rows` in the same pass, each array of rows in batches, the rest parsed whole. */
async function readAll(text: string): Promise<unknown> {
  const s = scanner(text)
  const root = await s.members(s.all, 1, 'rows')
  const out: Record<string, unknown> = {}
  for (const [k, m] of root) out[k] = k === 'rows' && m.members ? await rows(s, m.members) : s.parse(m)
  return out
}

async function rows(s: JsonScanner, members: Map<string, Member>): Promise<unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, m] of members) {
    if (s.kindOf(m) !== 'array') {
      out[k] = s.parse(m)
      continue
    }
    const items: unknown[] = []
    for await (const b of s.items(m, 3, 50)) {
      expect(b.first).toBe(items.length)
      items.push(...b.items)
    }
    out[k] = items
  }
  return out
}

const json = fc.jsonValue({maxDepth: 4})
const doc = fc.record({
  format: fc.string(),
  version: fc.integer(),
  rows: fc.record({objects: fc.array(json, {maxLength: 30}), events: fc.array(json, {maxLength: 5}), settings: fc.dictionary(fc.string(), fc.string())}),
  extra: json,
})
/** JSON text with white space wherever JSON allows it. */
const spaced = (v: unknown, indent: number | string) => JSON.stringify(v, null, indent)

describe('JsonScanner', () => {
  it('reads what JSON.parse reads, in any layout, whatever the batch boundaries', async () => {
    await fc.assert(
      fc.asyncProperty(doc, fc.constantFrom<number | string>(0, 1, '\t', ' \r\n'.slice(0, 1)), async (d, indent) => {
        const text = spaced(d, indent)
        expect(await readAll(text)).toEqual(JSON.parse(text))
      }),
      {numRuns: propertyRuns(200)},
    )
  })

  it('accepts exactly what JSON.parse accepts: a damaged body is a JsonScanError, never another error or a wrong reading', async () => {
    await fc.assert(
      fc.asyncProperty(doc, fc.nat(), fc.constantFrom('cut', 'drop', 'insert'), fc.constantFrom(...'{}[],:"\\ 0x'.split('')), async (d, at, how, ch) => {
        const text = JSON.stringify(d)
        const i = at % (text.length + 1)
        const bad = how === 'cut' ? text.slice(0, i) : how === 'drop' ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + ch + text.slice(i)
        let parsed: unknown
        let valid = true
        try {
          parsed = JSON.parse(bad)
        } catch {
          valid = false
        }
        const isObject = valid && parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
        if (isObject) expect(await readAll(bad)).toEqual(JSON.parse(bad))
        else await expect(readAll(bad)).rejects.toBeInstanceOf(JsonScanError)
      }),
      {numRuns: propertyRuns(600)},
    )
  })

  it('refuses nesting deeper than its limit without recursing into it', async () => {
    const deep = `{"rows":{"objects":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}}`
    await expect(readAll(deep)).rejects.toThrow(/more than 32 levels deep/)
    const ok = `{"rows":{"objects":[${'['.repeat(29)}${']'.repeat(29)}]}}`
    expect(await readAll(ok)).toEqual(JSON.parse(ok))
  })

  it('gives the event loop back while it reads a long document', async () => {
    const text = JSON.stringify({rows: {objects: Array.from({length: 2000}, (_, i) => ({id: `cus_${i}`, name: 'x'.repeat(50)}))}})
    let turns = 0
    const counting = setInterval(() => turns++, 0)
    await readAll(text)
    clearInterval(counting)
    expect(turns).toBeGreaterThan(5)
  })
})
