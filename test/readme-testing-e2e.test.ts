// The README's gw/testing section, run as written (test/support/readme.ts reads the blocks out of
// README.md): the first example as a script, the snapshots between tests as a node:test file, in
// a project that depends on the built package; and the `gw ca install --ca` it tells Playwright
// users to run is a flag the command has.
import {spawnSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {gwProject, REPO} from './support/gw-project.js'
import {readmeBlock} from './support/readme.js'

const SECTION = 'Testing your shop against gw from Node'
let project: ReturnType<typeof gwProject>

beforeAll(() => {
  project = gwProject('gw-readme-project-')
})

afterAll(() => project?.remove())

const node = (args: string[]) => spawnSync(process.execPath, args, {cwd: project.dir, encoding: 'utf8', timeout: 120_000})

it("the section's first example runs as a script: a receiver, a payment's webhook, a failing endpoint and the clock", () => {
  writeFileSync(join(project.dir, 'example.mjs'), readmeBlock(SECTION, 'js', 0))
  const r = node(['example.mjs'])
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
}, 150_000)

it('snapshots between tests: each test starts from the same world and the receiver keeps verifying (node --test)', () => {
  writeFileSync(join(project.dir, 'snapshots.test.mjs'), readmeBlock(SECTION, 'js', 1))
  const r = node(['--test', '--test-reporter=tap', 'snapshots.test.mjs'])
  expect(r.stdout).toMatch(/^# pass 2$/m)
  expect(r.stdout).toMatch(/^# fail 0$/m)
  expect(r.status).toBe(0)
}, 150_000)

it("the way it gives Playwright trust is a flag gw ca install and uninstall have", async () => {
  const text = sectionText()
  const commands = {install: (await import('../src/commands/ca/install.js')).default, uninstall: (await import('../src/commands/ca/uninstall.js')).default}
  for (const [verb, command] of Object.entries(commands)) {
    expect(text).toContain(`gw ca ${verb} --ca <tlsDir>/ca.crt`)
    expect(Object.keys(command.flags)).toContain('ca')
  }
  expect(text).toContain('browser.newContext({ignoreHTTPSErrors: true})')
})

/** The section's prose (the Playwright paragraph is text, not a block). */
function sectionText(): string {
  const all = readFileSync(join(REPO, 'README.md'), 'utf8')
  const from = all.indexOf(`## ${SECTION}`)
  return all.slice(from, all.indexOf('\n## ', from + 1)).replace(/\s+/g, ' ')
}
