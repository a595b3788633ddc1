// The engine's files are its own (docs/decisions.md#private-files-and-framed-pages): every file it writes in its data dir (the database
// and its -wal and -shm, key files, engine.json, TLS keys, the access log) is 0600 whatever the
// umask, and a data dir it creates is 0700. An existing data dir others may read or write is
// left as the operator made it, with one warning naming the chmod to run.
import {chmodSync, existsSync, mkdirSync, statSync, writeFileSync} from 'node:fs'

export const PRIVATE_FILE = 0o600
export const PRIVATE_DIR = 0o700

/** Makes a file 0600 if it exists (a file an older gw wrote with another mode, or one SQLite made). */
export function keepPrivate(path: string): void {
  try {
    if ((statSync(path).mode & 0o777) !== PRIVATE_FILE) chmodSync(path, PRIVATE_FILE)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
}

/** Writes a file only its owner may read and write (chmod after writing: the mode of an open is cut by the umask, and leaves an existing file's mode as it was). */
export function writePrivateFile(path: string, data: string | Buffer): void {
  writeFileSync(path, data, {mode: PRIVATE_FILE})
  chmodSync(path, PRIVATE_FILE)
}

/**
 * The engine's data dir: made 0700 (with its missing parents) when it is not there; an existing
 * one that others may read or write gets one warning line (the engine still starts: the
 * operator may mean it).
 */
export function privateDataDir(dir: string, warn: (line: string) => void): void {
  if (!existsSync(dir)) {
    mkdirSync(dir, {recursive: true, mode: PRIVATE_DIR})
    chmodSync(dir, PRIVATE_DIR)
    return
  }
  const mode = statSync(dir).mode & 0o777
  if (mode & 0o077)
    warn(`warning: the data dir ${dir} may be read or written by other users (mode ${mode.toString(8).padStart(4, '0')}); it holds the engine's keys and database: run chmod 700 ${/^[\w./-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", `'\\''`)}'`}`)
}
