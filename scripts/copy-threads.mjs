// The build's one copy step: worker threads that run as module files of their own (the SQLite
// writer and checkpointer, src/engine/**/*-thread.mjs) go beside the compiled modules that start
// them, which tsc does not do for .mjs sources.
import {copyFileSync, readdirSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'src')
for (const entry of readdirSync(src, {recursive: true, withFileTypes: true})) {
  if (!entry.isFile() || !entry.name.endsWith('-thread.mjs')) continue
  const from = join(entry.parentPath ?? entry.path, entry.name)
  copyFileSync(from, join(root, 'dist', relative(src, from)))
}
