// What `npm run build` writes for the package, checked against the sources: the oclif manifest
// lists exactly the command files (none from a shared/ folder, none missing; the quick tier checks
// that every operation's command is one: src/commands/openapi-commands.test.ts), and
// dist/openapi.json is the document the engine serves (src/api/openapi/document.test.ts checks
// the package exports it as gw/openapi.json).
import {existsSync, readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'
import {openapiDocument} from '../../src/api/openapi/document.js'
import {commandId, isShared, sourceFiles} from '../../src/base/test-support/command-files.js'

const ROOT = resolve(import.meta.dirname, '..', '..')

function built(file: string): string {
  const path = join(ROOT, file)
  if (!existsSync(path)) throw new Error(`${file} is missing: run \`npm run build\` first (\`npm test\` does).`)
  return readFileSync(path, 'utf8')
}

describe('the oclif manifest', () => {
  it('lists every command file and nothing from a shared/ folder', () => {
    const ids = Object.keys((JSON.parse(built('oclif.manifest.json')) as {commands: Record<string, unknown>}).commands).sort()
    const all = sourceFiles()
    expect(ids).toEqual(all.filter((f) => !isShared(f)).map(commandId).sort())
    expect(ids.filter((id) => id.split(':').includes('shared'))).toEqual([])
  })
})

describe('dist/openapi.json (gw/openapi.json)', () => {
  it('is the document the engine serves', () => {
    expect(JSON.parse(built('dist/openapi.json'))).toEqual(JSON.parse(JSON.stringify(openapiDocument())))
  })
})
