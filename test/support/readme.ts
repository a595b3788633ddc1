// The README's code blocks, for the tests that run them as they are written: a block is found by
// the heading of its section (the nearest one above it) and its language, so an edit of the
// README is what the tests run, and a snippet cannot drift from what works.
import {readFileSync} from 'node:fs'
import {resolve} from 'node:path'

const README = resolve(import.meta.dirname, '..', '..', 'README.md')

/** The `n`th (from 0) ```lang block under the heading whose text starts with `heading`, before the next heading of that level or above. */
export function readmeBlock(heading: string, lang: string, n = 0): string {
  const lines = readFileSync(README, 'utf8').split('\n')
  let level = 0
  let inSection = false
  /** the lines of the block being read; `skipping`: inside a block that is not wanted (its lines are no headings) */
  let block: string[] | undefined
  let skipping = false
  let seen = 0
  for (const line of lines) {
    if (block || skipping) {
      if (!line.startsWith('```')) {
        block?.push(line)
        continue
      }
      if (block && seen++ === n) return block.join('\n') + '\n'
      ;[block, skipping] = [undefined, false]
      continue
    }
    if (line.startsWith('```')) {
      if (inSection && line.slice(3).trim() === lang) block = []
      else skipping = true
      continue
    }
    const h = /^(#+) (.*)$/.exec(line)
    if (!h) continue
    if (inSection && h[1]!.length <= level) break
    if (!inSection && h[2]!.startsWith(heading)) [inSection, level] = [true, h[1]!.length]
  }
  throw new Error(`README.md: no \`\`\`${lang} block #${n} under a heading starting "${heading}"`)
}
