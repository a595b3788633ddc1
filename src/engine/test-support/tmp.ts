import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach} from 'vitest'

/** A maker of fresh temporary directories, each removed after the test that made it. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
  })
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix))
    dirs.push(d)
    return d
  }
}
