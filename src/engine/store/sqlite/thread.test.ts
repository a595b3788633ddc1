import {describe, expect, it} from 'vitest'
import {threadExecArgv} from './thread.js'

describe('threadExecArgv', () => {
  it("inherits the process's options unless they hold --input-type", () => {
    expect(threadExecArgv(['--expose-gc'])).toBeUndefined()
    expect(threadExecArgv([])).toBeUndefined()
  })
  it('drops --input-type in both forms and keeps the rest', () => {
    expect(threadExecArgv(['--input-type=module', '--enable-source-maps'])).toEqual(['--enable-source-maps'])
    expect(threadExecArgv(['--input-type', 'module', '--expose-gc'])).toEqual(['--expose-gc'])
  })
})
