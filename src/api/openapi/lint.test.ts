// A standard linter passes on the document: Redocly CLI with the committed redocly.yaml
// (recommended-strict: every recommended rule, warnings raised to errors).
import {execFile} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {promisify} from 'node:util'
import {expect, it} from 'vitest'
import {openapiDocument} from './document.js'

const ROOT = resolve(import.meta.dirname, '../../..')

it('redocly lint (recommended-strict) reports no problem', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-openapi-lint-'))
  try {
    const file = join(dir, 'openapi.json')
    writeFileSync(file, JSON.stringify(openapiDocument(), null, 2))
    const {stdout} = await promisify(execFile)(
      join(ROOT, 'node_modules/.bin/redocly'),
      ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
      {cwd: ROOT, env: {...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1'}, timeout: 60_000},
    ).catch((e: {stdout?: string; stderr?: string}) => ({stdout: e.stdout ?? '', stderr: e.stderr}))
    const report = JSON.parse(stdout) as {totals: {errors: number; warnings: number}; problems: {ruleId: string; message: string; location: {pointer: string}[]}[]}
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)
    expect(problems).toEqual([])
    expect(report.totals).toMatchObject({errors: 0, warnings: 0})
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})
