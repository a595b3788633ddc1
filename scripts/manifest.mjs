// The build's oclif manifest step: writes oclif.manifest.json, the list of commands with their
// flags that gw ships so that oclif need not load every command file to find one. It is what the
// oclif CLI's `oclif manifest` writes (the same @oclif/core Plugin, loaded as that command loads
// it), with the commands in the order of their ids (oclif loads the command files concurrently,
// and the order `oclif manifest` wrote them in changed from one build to the next), and without
// the oclif CLI (docs/decisions.md#the-build-needs-few-tools). It prints nothing.
//
//   node scripts/manifest.mjs [plugin dir]      (after dist/ is written; default: the repository)
import {renameSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Plugin} from '@oclif/core'

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'))
// (a manifest already there is not read: ignoreManifest)
const plugin = new Plugin({errorOnManifestCreate: true, ignoreManifest: true, respectNoCacheDefault: true, root, type: 'core'})
await plugin.load()
if (!plugin.valid || Object.keys(plugin.manifest.commands).length === 0) {
  process.stderr.write(`manifest: oclif found no command under ${root}: build it first\n`)
  process.exit(1)
}
const commands = Object.fromEntries(Object.entries(plugin.manifest.commands).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
// (written whole, then renamed: whoever reads the manifest meanwhile reads the old one or the new)
const file = join(root, 'oclif.manifest.json')
writeFileSync(`${file}.${process.pid}`, JSON.stringify({...plugin.manifest, commands}, null, 2))
renameSync(`${file}.${process.pid}`, file)
