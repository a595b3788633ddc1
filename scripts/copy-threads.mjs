// A build step: worker threads that run as module files of their own (the SQLite writer and
// checkpointer, src/engine/**/*-thread.mjs) go beside the compiled modules that start them, which
// tsc does not do for .mjs sources. The target is dist/ (`node scripts/copy-threads.mjs [dir]`: a
// thread goes wherever tsc emitted the directory that starts it).
import {copyFileSync, existsSync, readdirSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'src')
const dist = resolve(root, process.argv[2] ?? 'dist')
for (const entry of readdirSync(src, {recursive: true, withFileTypes: true})) {
  if (!entry.isFile() || !entry.name.endsWith('-thread.mjs')) continue
  const from = join(entry.parentPath ?? entry.path, entry.name)
  const to = join(dist, relative(src, from))
  if (existsSync(dirname(to))) copyFileSync(from, to)
}
