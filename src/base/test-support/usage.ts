// The UsageError a parser throws, for tests that check its message and hint.
import {expect} from 'vitest'
import {UsageError} from '../../errors.js'

export const usage = (fn: () => unknown): UsageError => {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return error as UsageError
  }
  throw new Error('expected a UsageError')
}
