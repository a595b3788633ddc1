import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach} from 'vitest'

/** A maker of fresh temporary directories, each removed after the test that made it (`'file'`: after the test file, for what several tests share). */
export function tempDirs(prefix: string, until: 'test' | 'file' = 'test'): () => string {
  const dirs: string[] = []
  const after = until === 'file' ? afterAll : afterEach
  after(() => {
    for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
  })
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix))
    dirs.push(d)
    return d
  }
}
