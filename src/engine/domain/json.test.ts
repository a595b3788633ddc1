import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {propertyRuns} from '../test-support/property-runs.js'
import {jsonString} from './json.js'

describe('jsonString', () => {
  it('writes any string as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.string({unit: 'binary', maxLength: 40}), (s) => {
        expect(jsonString(s)).toBe(JSON.stringify(s))
      }),
      {numRuns: propertyRuns(5000)},
    )
    for (const s of ['', 'pay_0VbmQKfLmy86QTKFW9xZCTGt', 'a"b', 'a\\b', 'tab\there', '\u0000', '\u001f', '\u007f', 'é€', '😀', '\ud800', 'x\udfffy', '\u2028\u2029']) expect(jsonString(s)).toBe(JSON.stringify(s))
  })
})
