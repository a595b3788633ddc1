// The repository stands on its own (docs/decisions.md#where-the-rules-are-written): code,
// tests, scripts and docs cite the repository's own documents — docs/api.md and
// docs/decisions.md, by anchor — never an issue tracker's numbers or the sections of documents
// the repository does not hold. A new citation of either kind fails here, naming the line.
import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')

/** The files a clone has (tracked, and new ones not ignored), text only. */
const files = (): string[] =>
  execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {cwd: ROOT, encoding: 'utf8'})
    .split('\0')
    .filter((f) => f && /\.(ts|tsx|js|mjs|cjs|md|json|sh|yml|yaml|html|css)$/.test(f) && !/(^|\/)package-lock\.json$/.test(f))
    .filter((f) => existsSync(join(ROOT, f)))

const KINDS: {name: string; re: RegExp}[] = [
  // "issue 47", "issues 12 and 14", "Issue #8"
  {name: 'an issue number', re: /\bissues? #?\d+/i},
  // "spec §6", "§ 4.2"
  {name: "a section of the spec (§)", re: /§/},
  // decisions.md outside the repository; the repository's own docs/decisions.md is what to cite
  {name: 'a decisions.md outside the repository', re: /(?<!docs\/|\]\(|\.\/|[\w-])decisions\.md/},
  // the spec's own files (../shared/spec/...): a clone does not have them
  {name: 'a file outside the repository', re: /shared\/spec\//},
]

/** Each citation of a document outside the repository: "file:line: kind: text". */
function citations(): string[] {
  const found: string[] = []
  for (const f of files()) {
    if (f === 'src/citations.test.ts') continue
    const lines = readFileSync(join(ROOT, f), 'utf8').split('\n')
    lines.forEach((line, i) => {
      for (const k of KINDS) if (k.re.test(line)) found.push(`${f}:${i + 1}: ${k.name}: ${line.trim().slice(0, 120)}`)
    })
  }
  return found
}

describe('citations', () => {
  it('none of an issue number, a section of the spec or a decisions.md outside the repository', () => {
    expect(citations()).toEqual([])
  })

  it('knows each kind when it sees one, and lets the repository cite its own documents', () => {
    const seen = (text: string) => KINDS.filter((k) => k.re.test(text)).map((k) => k.name)
    expect(seen('// the cap per address (issue 47)')).toEqual(['an issue number'])
    expect(seen('see Issues #12 and 14')).toEqual(['an issue number'])
    expect(seen('as spec §6 says')).toEqual(['a section of the spec (§)'])
    expect(seen('(decisions.md: refunds)')).toEqual(['a decisions.md outside the repository'])
    expect(seen('see docs/decisions.md#rate-limits')).toEqual([])
    expect(seen('[the rule](decisions.md#rate-limits)')).toEqual([])
    expect(seen('docs/api.md#idempotency')).toEqual([])
    expect(seen('the tissue 3 layers')).toEqual([])
  })
})
