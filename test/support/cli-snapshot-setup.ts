// vitest globalSetup of the tiers that run the built CLI: one copy of it for the whole run
// (bin, dist, fixtures, the manifest, package.json and these support files, with node_modules
// linked), so that a rebuild while the tests run (`npm run build` starts with rm -rf dist) cannot
// pull files from under them, and so that dist/ (some 1,200 files) is copied once per run rather
// than once per test file. Test files reach it through snapshotCli() (cli-snapshot.ts). Without a
// build there is nothing to copy: the files that need one say so when they start.
import {cpSync, existsSync, mkdtempSync, rmSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import type {TestProject} from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** the run's copy of the built CLI (bin/run.js inside), or '' when there is no build */
    cliSnapshot: string
  }
}

const REPO = resolve(import.meta.dirname, '..', '..')
const g = globalThis as {gwCliSnapshot?: {root: string; users: number}}

export default function setup(project: TestProject) {
  if (!g.gwCliSnapshot) {
    let root = ''
    if (existsSync(join(REPO, 'dist', 'index.js')) && existsSync(join(REPO, 'oclif.manifest.json'))) {
      root = mkdtempSync(join(tmpdir(), 'gw-cli-run-'))
      for (const entry of ['bin', 'dist', 'fixtures', 'package.json', 'oclif.manifest.json']) cpSync(join(REPO, entry), join(root, entry), {recursive: true})
      symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir')
      cpSync(join(REPO, 'test', 'support'), join(root, 'test', 'support'), {recursive: true})
    }
    g.gwCliSnapshot = {root, users: 0}
  }
  const shared = g.gwCliSnapshot
  shared.users++
  project.provide('cliSnapshot', shared.root)
  return () => {
    if (--shared.users > 0) return
    if (shared.root) rmSync(shared.root, {recursive: true, force: true})
    delete g.gwCliSnapshot
  }
}
