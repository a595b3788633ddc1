// End-to-end tests run a snapshot of the built CLI (bin, dist, manifest, package.json and these
// support files, with node_modules linked), so a rebuild elsewhere cannot change it mid-run.
import {spawn} from 'node:child_process'
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
