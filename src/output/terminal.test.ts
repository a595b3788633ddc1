// Control characters from data are shown, never sent to the terminal (docs/decisions.md#data-reaches-a-terminal-shown): the one function,
// and that every human writer goes through it.
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'
import {painter} from './color.js'
import {Renderer} from './renderer.js'
import {renderTable} from './table.js'
import {terminalSafe} from './terminal.js'
import {HOSTILE, SHOWN} from './test-support/hostile.js'


describe('terminalSafe', () => {
  it.each([
    ['\u001b[2J', '^[[2J', 'a screen clear'],
    ['\u001b]0;pwned\u0007', '^[]0;pwned^G', 'an OSC title'],
    ['\u001b]8;;https://evil.example\u001b\\x\u001b]8;;\u001b\\', '^[]8;;https://evil.example^[\\x^[]8;;^[\\', 'an OSC 8 link'],
    ['paid\rrefunded', 'paid^Mrefunded', 'a carriage return overwrite'],
    ['\u009b2J', '^[[2J', 'C1 CSI'],
    ['\u0085\u009d', '^[E^[]', 'C1 NEL and OSC'],
    ['a\u0000b\u0008c\u007f', 'a^@b^Hc^?', 'NUL, backspace, DEL'],
    ['lone \u001b', 'lone ^[', 'a lone ESC'],
    ['line 1\n\tline 2', 'line 1\n\tline 2', 'newline and tab stay'],
    ['naïve — ✓ € 😀 \u00a0', 'naïve — ✓ € 😀 \u00a0', 'printable text stays'],
  ])('%j → %j (%s)', (input, want) => {
    expect(terminalSafe(input)).toBe(want)
    expect(terminalSafe(input, {colors: true})).toBe(want)
    // shown once is shown: nothing is escaped twice
    expect(terminalSafe(terminalSafe(input))).toBe(want)
  })

  it.each([
    ['paid\u202Edeifirev', 'paid<U+202E>deifirev', 'a right-to-left override'],
    ['\u2066\u2067\u2068\u2069\u202A\u202B\u202C\u202D', '<U+2066><U+2067><U+2068><U+2069><U+202A><U+202B><U+202C><U+202D>', 'bidi isolates and embeddings'],
    ['\u200E\u200F\u061C', '<U+200E><U+200F><U+061C>', 'direction marks'],
    ['ORDER\u200B-1\u2060\uFEFF', 'ORDER<U+200B>-1<U+2060><U+FEFF>', 'zero-width space, word joiner, BOM'],
    ['👨\u200D👩 क्\u200Cष', '👨\u200D👩 क्\u200Cष', 'joiners that scripts and emoji need stay'],
  ])('%j → %j (%s: invisible format characters shown)', (input, want) => {
    expect(terminalSafe(input)).toBe(want)
    expect(terminalSafe(input, {colors: true})).toBe(want)
    expect(terminalSafe(terminalSafe(input))).toBe(want)
  })

  it('with colours on, the sequences gw paints with pass; every other sequence is shown', () => {
    const p = painter(true)
    const painted = `${p.red('failed')} ${p.bold(p.gray('x'))}`
    expect(terminalSafe(painted, {colors: true})).toBe(painted)
    expect(terminalSafe(painted)).toBe('^[[31mfailed^[[39m ^[[1m^[[90mx^[[39m^[[22m')
    expect(terminalSafe(`${p.green('ok')} \u001b[2J \u001b[8m \u001b[31;1m`, {colors: true})).toBe(`${p.green('ok')} ^[[2J ^[[8m ^[[31;1m`)
  })
})

describe('the renderer', () => {
  const io = () => {
    const out = {stdout: '', stderr: ''}
    const stream = (k: 'stdout' | 'stderr') => ({write: (s: string) => ((out[k] += s), true)}) as unknown as NodeJS.WritableStream
    return {out, io: {stdout: stream('stdout'), stderr: stream('stderr'), stdin: process.stdin}}
  }

  it('prints, notices, verbose lines and tables with control characters shown; --json exact', async () => {
    const {out, io: streams} = io()
    const r = new Renderer(streams, {json: false, verbose: true, env: {}})
    r.print(`name ${HOSTILE}`)
    r.notice(`notice ${HOSTILE}`)
    r.verbose(`verbose ${HOSTILE}`)
    const table = await r.table([{name: HOSTILE}], {head: ['NAME'], row: (x) => [x.name]})
    expect(out.stdout).toBe(`name ${SHOWN}\n`)
    expect(out.stderr).toBe(`notice ${SHOWN}\nverbose ${SHOWN}\n`)
    expect(table).toContain(SHOWN)
    // the cell was measured in its shown form: the border is as wide as the row
    const lines = table.split('\n')
    expect(new Set(lines.map((l) => l.length)).size).toBe(1)

    const json = io()
    const j = new Renderer(json.io, {json: true, env: {}})
    j.result({name: HOSTILE})
    j.ndjson({name: HOSTILE})
    expect(json.out.stdout).toBe(`${JSON.stringify({name: HOSTILE}, null, 2)}\n${JSON.stringify({name: HOSTILE})}\n`)
    expect(JSON.parse(json.out.stdout.split('\n').at(-2)!).name).toBe(HOSTILE)
  })

  it('a table on a colour terminal keeps its colours and shows the data', async () => {
    const t = await renderTable([{s: 'succeeded', n: HOSTILE}], {head: ['STATUS', 'NAME'], row: (x, p) => [p.green(x.s), x.n]}, painter(true))
    expect(t).toContain('\u001b[32msucceeded\u001b[39m')
    expect(t).toContain(SHOWN)
    expect(t).not.toContain('\u001b[2J')
  })
})

describe('every human writer goes through it', () => {
  const SRC = resolve(import.meta.dirname, '..')
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return name === 'engine' || name === 'test-support' ? [] : files(path)
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
    })

  /** Files that write to stdout or stderr themselves, and why that is not human text from data. */
  const DIRECT: Record<string, string> = {
    'output/renderer.ts': 'the writer: print, notice and verbose go through terminalSafe; --json and NDJSON are exact',
    'base/command.ts': 'the JSON error on stdout (exact); the human error through Renderer.human',
    'console/screen.ts': "gw console: the terminal's own sequences (alternate screen, cursor) and a crash's stack through terminalSafe",
    'commands/shared/serve.ts': 'gw serve: the start-up information (engine-made) and engine log lines, through terminalSafe',
    'commands/events/shared/listen.ts': 'gw listen --print-secret: the secret alone, for scripts',
    'commands/settlement/download.ts': 'the CSV file itself',
    'commands/snapshots/save.ts': 'the snapshot file itself (JSON)',
    'commands/api/spec.ts': 'the OpenAPI document itself (JSON)',
    'commands/help.ts': "a help error naming the user's own input",
    'hooks/command-not-found.ts': "the user's own mistyped command",
    'config/credentials.ts': 'a default notice about the credential store (commands pass Context.notice)',
    'api/openapi/emit.ts': 'the build step',
    'api/openapi/ajv.ts': "ajv's own warnings about a schema of the document (the engine's checker), passed on but for one deprecation notice",
    'api/openapi/generate.ts': "the build step that writes src/api/contract.gen.ts and docs/api.md's permission table (npm run contract)",
  }

  it('no file writes to stdout or stderr but the renderer and the listed ones (a new view prints through ctx.print)', () => {
    const writers = files(SRC)
      .filter((f) => /\.(stdout|stderr)\.write\(|console\.(log|info|warn|error)\(|this\.(log|warn)\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f))
    expect(writers.sort()).toEqual(Object.keys(DIRECT).sort())
  })

  it("every Ink view draws text with src/ui/text.tsx's Text, never ink's own", () => {
    const offenders = files(SRC)
      .filter((f) => !f.endsWith(join('ui', 'text.tsx')))
      .filter((f) => /import\s*\{[^}]*\bText\b[^}]*\}\s*from\s*'ink'/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f))
    expect(offenders).toEqual([])
  })
})
