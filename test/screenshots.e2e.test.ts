// npm run screenshots (docs/decisions.md#browsers-and-hosted-pages) photographs every hosted page in chromium: run it into a temp dir
// and check it wrote each page as a PNG of a plausible size. Needs the build (npm test builds first).
import {execFile} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {expect, it} from 'vitest'
import {tempDirs} from '../src/engine/test-support/tmp.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const fresh = tempDirs('gw-shots-')

it('writes a PNG of each hosted page, the checkout session first', async () => {
  const dir = {path: fresh()}
  const {stdout} = await promisify(execFile)(process.execPath, [join(ROOT, 'scripts/screenshots.mjs')], {cwd: ROOT, env: {...process.env, GW_SCREENSHOTS_DIR: dir.path}})
  const files = readdirSync(dir.path).sort()
  expect(files).toEqual(['3ds-challenge.png', 'boleto-voucher.png', 'card-form.png', 'checkout-session.png', 'ideal-bank-login.png', 'klarna-plan.png', 'pix-qr.png'])
  for (const f of files) {
    const png = readFileSync(join(dir.path, f))
    expect(png.subarray(1, 4).toString('latin1'), f).toBe('PNG')
    expect(png.length, f).toBeGreaterThan(5_000)
  }
  expect(stdout.split('\n')[0]).toContain('checkout-session.png')
  // the README links every one of them
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  for (const f of files) expect(readme).toContain(`docs/screenshots/${f}`)
}, 60_000)
