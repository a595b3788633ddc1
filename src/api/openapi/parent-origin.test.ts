// The Gw-Parent-Origin header as the OpenAPI document describes it: every value its schema allows
// is one the engine takes (a generated client or a fuzzer that follows the document sends valid
// origins), and the origins browsers send match it.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {propertyRuns} from '../../engine/test-support/property-runs.js'
import {parentOrigin} from '../../engine/app/payments.js'
import {openapiDocument} from './document.js'

const doc = openapiDocument() as {paths: Record<string, Record<string, {parameters?: {name?: string; in?: string; schema?: {pattern?: string; format?: string}}[]}>>}
const schemas = [doc.paths['/payments/{id}/confirm']!.post!, doc.paths['/checkout_sessions/{id}/pay']!.post!].map((op) => op.parameters!.find((p) => p.name === 'Gw-Parent-Origin')!.schema!)

describe('Gw-Parent-Origin in the OpenAPI document', () => {
  it('is described as an origin on both operations, one schema', () => {
    expect(schemas[0]).toEqual(schemas[1])
    expect(schemas[0]).toMatchObject({type: 'string', format: 'uri', pattern: expect.any(String)})
  })

  it('every value the pattern allows is an origin the engine takes as it is', () => {
    const pattern = new RegExp(schemas[0]!.pattern!)
    fc.assert(
      fc.property(fc.stringMatching(pattern), (v) => {
        expect(parentOrigin(v)).toBe(v)
      }),
      {numRuns: propertyRuns(3000)},
    )
  })

  it('matches the origins pages have, and not what the engine refuses', () => {
    const pattern = new RegExp(schemas[0]!.pattern!)
    for (const ok of ['https://shop.example', 'http://localhost:3000', 'https://127.0.0.1:8443', 'http://10.0.0.1', 'https://a-b.c.example:65535']) expect(ok).toMatch(pattern)
    for (const bad of ['0', 'https://0', 'https://1.2', 'https://Shop.example', 'https://shop.example:443', 'http://shop.example:80', 'https://shop.example/', 'https://user@shop.example', 'ftp://shop.example', 'https://shop.example:65536', 'https://0x1f', 'https://xn--a.example', 'https://-a.example', 'https://a-.example'])
      expect(bad).not.toMatch(pattern)
  })
})
