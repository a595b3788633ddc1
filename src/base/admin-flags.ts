// Flags for the admin commands (merchants, routing rules).
import {Flags} from '@oclif/core'
import {UsageError} from '../errors.js'

export const countryFlag = Flags.custom<string>({
  description: 'Two-letter ISO 3166 country code, e.g. NL.',
  parse: async (input, _ctx, opts) => {
    const code = input.trim().toUpperCase()
    if (!/^[A-Z]{2}$/.test(code)) throw new UsageError(`--${opts.name} "${input}" is not a two-letter country code.`, 'Use a code such as NL, DE or BR.')
    return code
  },
})

/** `--provider prov_x[:weight]` for routing rules. */
export const ruleProviderFlag = Flags.custom<{provider: string; weight?: number}>({
  description: 'Provider for the rule, optionally with a split weight: prov_x or prov_x:70. Repeat for more.',
  multiple: true,
  parse: async (input) => {
    const m = /^(prov_[A-Za-z0-9_]+)(?::(\d+))?$/.exec(input.trim())
    if (!m) throw new UsageError(`--provider "${input}" is not prov_id or prov_id:weight.`, 'Example: --provider prov_atlas:70 --provider prov_borealis:30')
    return m[2] === undefined ? {provider: m[1]} : {provider: m[1], weight: Number(m[2])}
  },
})
