// Id arguments. Kept apart from flags.ts (and its catalogs) so that a command taking only an id,
// like `gw payments get`, loads nothing else at start.
import {Args} from '@oclif/core'
import {UsageError} from '../errors.js'

/** An id argument that must carry the resource's prefix. */
export function idArg(prefix: string, noun: string, hint?: string) {
  return Args.string({
    description: `${noun} id (${prefix}...)`,
    required: true,
    parse: async (input) => {
      const id = input.trim()
      if (!id.startsWith(prefix)) {
        throw new UsageError(`"${input}" is not a ${noun} id; ${noun} ids start with ${prefix}.`, hint)
      }
      return id
    },
  })
}
