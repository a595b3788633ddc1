// End-to-end tests run a snapshot of the built CLI (bin, dist, manifest, package.json and these
// support files, with node_modules linked), so a rebuild elsewhere cannot change it mid-run. The
// run makes one (cli-snapshot-setup.ts, a globalSetup); each file gets a dir of its own whose
// entries link to it (a file may write beside bin/ and removes its dir when it ends).
import {spawn} from 'node:child_process'
import {cpSync, mkdtempSync, symlinkSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {inject} from 'vitest'

export const REPO = resolve(import.meta.dirname, '..', '..')

const ENTRIES = ['bin', 'dist', 'fixtures', 'package.json', 'oclif.manifest.json', 'node_modules']

/** A new temp dir named with `prefix` holding the built CLI (bin/run.js inside); returns that dir. */
export function snapshotCli(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix))
  const shared = inject('cliSnapshot')
  if (shared) {
    for (const entry of ENTRIES) symlinkSync(join(shared, entry), join(root, entry))
    symlinkSync(join(shared, 'test'), join(root, 'test'), 'dir')
    return root
  }
  // a tier without the run's copy: a copy of this file's own
  for (const entry of ENTRIES.slice(0, -1)) cpSync(join(REPO, entry), join(root, entry), {recursive: true})
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir')
  cpSync(join(REPO, 'test', 'support'), join(root, 'test', 'support'), {recursive: true})
  return root
}

/** What a run of the CLI gave. */
export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/**
 * The environment of a user with their own HOME and config dir: none of the test's GW_
 * variables, no NO_COLOR or CI from outside, the file credential store; then `extra`.
 */
export function cliEnv(home: string, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_') && k !== 'NO_COLOR' && k !== 'CI') env[k] = v
  return {...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_DATA_DIR: dataDir, GW_NO_KEYRING: '1', ...extra}
}

/** Runs `node bin args` to its end with `stdin` as its input. */
export function runCli(bin: string, args: string[], o: {cwd: string; env: Record<string, string>; stdin?: string}): Promise<CliRun> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => done({code: code ?? -1, stdout, stderr}))
    child.stdin.end(o.stdin ?? '')
  })
}
