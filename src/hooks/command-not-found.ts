// `gw paymnets list`: @oclif/plugin-not-found's "did you mean", as a hook of gw itself, loaded
// only when a command is not found. As a plugin in package.json it would be loaded on every
// start (see src/base/plugin-commands.ts).
import type {Hook} from '@oclif/core'

const hook: Hook.CommandNotFound = async function (opts) {
  const {default: notFound} = await import('@oclif/plugin-not-found')
  return notFound.call(this, opts)
}

export default hook
