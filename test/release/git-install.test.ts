// gw as a project's dependency from a git URL (release tier), installed as its users install it:
// the README's command with a git+file:// clone of this repository at HEAD; npm clones it, installs
// its dependencies and builds it (prepare). (A global install from git cannot build: npm installs no
// dev dependency in the clone then; prepare says so. The README's way from git is a clone, packed.)
// Its own file: it needs no tarball, so it runs beside packages-install.test.ts. Its npm cache is
// empty at its start (every package from the public registry) and, like the project, in memory where
// there is room (support/install.ts, SCRATCH): npm's clone, with its dev dependencies, is made there.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
// @ts-expect-error plain ESM of the bench, no types
import {ok, prebuilds, REPO, sh, userEnv, VERSION} from '../../bench/install-lib.js'
import {readmeInstall, readmeLine, tempDirs} from './support/install.js'
import {SMOKE} from './support/smoke.js'

const readme = readmeInstall()
const {temp, keep, removeAll} = tempDirs()
afterAll(removeAll)

/** A fresh npm cache and the native modules' prebuilt binaries, for one install. */
const installEnv = (): NodeJS.ProcessEnv => {
  const natives = prebuilds() as Record<string, string>
  for (const n of Object.values(natives)) keep(n)
  return userEnv({...natives, npm_config_cache: temp('gw-npm-cache-')})
}

describe("gw as a project's dependency from a git URL", () => {
  it('npm clones it, installs its dependencies and builds it (prepare); npx gw runs and names the commit; gw/testing works', async () => {
    const project = temp('gw-git-')
    writeFileSync(join(project, 'package.json'), JSON.stringify({name: 'ops-scripts', private: true, type: 'module'}))
    const head = ok(await sh('git rev-parse HEAD', {cwd: REPO, env: userEnv()}), 'git rev-parse').stdout.trim()
    const cmd = readmeLine(readme.section, /^npm install -D git\+\S+$/, 'installs gw from a git URL')
    // the README's command, with this repository (a git+file:// clone of its HEAD) for the URL
    const local = cmd.replace(/git\+\S+$/, `git+file://${REPO}#${head}`)
    const r = ok(await sh(local, {cwd: project, env: installEnv(), timeout: 1_500_000}), local)
    console.log(`gw from a git URL (cloned, dependencies installed, built by npm): ${(r.ms / 1000).toFixed(1)} s`)
    const env = userEnv({HOME: project, XDG_CONFIG_HOME: join(project, 'config'), GW_NO_KEYRING: '1'})
    const v = ok(await sh('npx gw --version', {cwd: project, env}), 'npx gw --version')
    expect(v.stdout.trim()).toMatch(new RegExp(`^gw/${VERSION.replaceAll('.', '\\.')} .* \\(commit ${head.slice(0, 12)}\\)$`))
    // the engine and gw/testing are there too: built, with their native modules
    writeFileSync(join(project, 'smoke.mjs'), SMOKE('gw', 'gw/testing'))
    const s = ok(await sh('node smoke.mjs', {cwd: project, env, timeout: 120_000}), 'gw/testing smoke')
    expect(JSON.parse(s.stdout.trim())).toEqual({payment: 'succeeded', event: 'payment.succeeded', sdk: 'succeeded'})
  }, 1_800_000)
})

