// `npm run pack`: one tarball per package in out/ — gw (the CLI, with the engine and gw/testing),
// @gw/testing (the engine and the test helper, without the CLI) and @gw/sdk. Each `npm pack`
// runs the package's prepack, which builds it and checks it is complete (scripts/pack-build.mjs).
// Prints the tarballs' paths, one a line; `--json` prints npm's reports of them instead.
import {execFileSync} from 'node:child_process'
import {mkdirSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'out')
mkdirSync(out, {recursive: true})
const reports = []
for (const dir of ['.', 'packages/sdk', 'packages/testing']) {
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', out], {cwd: join(root, dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit']})
  const [report] = JSON.parse(json)
  reports.push({...report, path: join(out, report.filename)})
}
process.stdout.write(process.argv.includes('--json') ? JSON.stringify(reports, null, 2) + '\n' : reports.map((r) => r.path).join('\n') + '\n')
