import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {propertyRuns} from '../test-support/property-runs.js'
import {apiJson, toApi} from './internal.js'

describe('apiJson', () => {
  it('is JSON.stringify(toApi(obj)) for any object, with or without an internal part, wherever it sits', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({maxDepth: 3})), fc.option(fc.jsonValue({maxDepth: 2}), {nil: undefined}), fc.nat(), (members, x, at) => {
        const entries = Object.entries(members).filter(([k]) => k !== '_x')
        if (x !== undefined) entries.splice(at % (entries.length + 1), 0, ['_x', x])
        const obj = Object.fromEntries(entries)
        const before = JSON.stringify(obj)
        expect(apiJson(obj)).toBe(JSON.stringify(toApi(obj)))
        // the object itself is left as it was
        expect(JSON.stringify(obj)).toBe(before)
      }),
      {numRuns: propertyRuns(1000)},
    )
    expect(apiJson({id: 'pay_1', _x: {secret: 1}, amount: 5})).toBe('{"id":"pay_1","amount":5}')
    expect(apiJson([1, 2])).toBe('[1,2]')
    expect(apiJson(null)).toBe('null')
  })
})
