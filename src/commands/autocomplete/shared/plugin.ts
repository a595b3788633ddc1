// `gw autocomplete` is @oclif/plugin-autocomplete's command, hosted among gw's own commands
// (src/commands/autocomplete/*) instead of listed as a plugin. oclif loads every plugin in
// package.json on every start (its package.json, its manifest, matching the dependency
// patterns): a few ms of each `gw` call for commands that run once in a while. The plugin
// exports no commands, so they are imported by file; package.json pins the plugin's version
// and test/plugins-e2e.test.ts runs them.
import type {Command} from '@oclif/core'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {pathToFileURL} from 'node:url'

export async function autocompleteCommand(file: 'index.js' | 'create.js' | 'script.js'): Promise<typeof Command> {
  const lib = dirname(createRequire(import.meta.url).resolve('@oclif/plugin-autocomplete'))
  const mod = (await import(pathToFileURL(join(lib, 'commands', 'autocomplete', file)).href)) as {default: typeof Command}
  return mod.default
}
