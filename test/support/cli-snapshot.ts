// End-to-end tests run a snapshot of the built CLI (bin, dist, manifest, package.json and these
// support files, with node_modules linked), so a rebuild elsewhere cannot change it mid-run.
import {cpSync, mkdtempSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'

export const REPO = resolve(import.meta.dirname, '..', '..')

/** Copies the built CLI to a new temp dir named with `prefix`; returns that dir (bin/run.js inside). */
export function snapshotCli(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix))
  for (const entry of ['bin', 'dist', 'fixtures', 'package.json', 'oclif.manifest.json']) cpSync(join(REPO, entry), join(root, entry), {recursive: true})
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir')
  cpSync(join(REPO, 'test', 'support'), join(root, 'test', 'support'), {recursive: true})
  return root
}
