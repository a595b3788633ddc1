// The generated types (src/api/contract.gen.ts) are those of the document as it is now: a change
// to a shape in src/api/openapi/ that was not followed by `npm run contract` fails here.
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {CONTRACT_FILE, contractTypes} from './generate.js'

describe('the generated contract types', () => {
  it('are up to date with the document (run `npm run contract` after changing a shape)', async () => {
    expect(await contractTypes()).toBe(readFileSync(CONTRACT_FILE, 'utf8'))
  }, 60_000)
})
