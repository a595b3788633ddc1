// `npm run pack`: one tarball per package in out/ — gw (the CLI, with the engine and gw/testing),
// @gw/testing (the engine and the test helper, without the CLI) and @gw/sdk. Each `npm pack`
// runs the package's prepack, which builds it and checks it is complete (scripts/pack-build.mjs);
// one build serves the three.
// Prints the tarballs' paths, one a line; `--json` prints npm's reports of them instead.
import {execFileSync} from 'node:child_process'
import {mkdirSync, statSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'out')
mkdirSync(out, {recursive: true})
// gw's build writes the other packages' dist/ too (scripts/package-dist.mjs): when gw's prepack
// builds, the others' prepacks take that build of this very tree instead of building it again each
// (a tree with local changes, whose builds no build-info can vouch for, was built three times)
const stamps = () => ['sdk', 'testing'].map((p) => statSync(join(root, 'packages', p, 'dist', 'build-info.json'), {throwIfNoEntry: false})?.mtimeMs ?? null)
const before = stamps()
const env = {...process.env}
delete env.GW_PACK_BUILT_WITH_GW // (set below, for this pack's own prepacks only)
const reports = []
for (const dir of ['.', 'packages/sdk', 'packages/testing']) {
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', out], {cwd: join(root, dir), env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit']})
  if (dir === '.') {
    const after = stamps()
    if (after.every((t, i) => t !== null && t !== before[i])) env.GW_PACK_BUILT_WITH_GW = '1'
  }
  const [report] = JSON.parse(json)
  reports.push({...report, path: join(out, report.filename)})
}
process.stdout.write(process.argv.includes('--json') ? JSON.stringify(reports, null, 2) + '\n' : reports.map((r) => r.path).join('\n') + '\n')
