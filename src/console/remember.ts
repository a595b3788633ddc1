// What the console remembers per profile between runs: the view it was left on, so the next
// `gw console` opens there (as k9s does). A small file under the config dir (console-state/
// <profile>.json, 0600 in a 0700 folder); a file that cannot be read or written is no memory.
import {mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {VIEWS, type ViewName} from './keymap.js'

const file = (root: string, profile: string) => join(root, 'console-state', `${profile.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`)

/** The view the console was last left on with this profile. */
export function lastView(root: string | undefined, profile: string): ViewName | undefined {
  if (!root) return undefined
  try {
    const v = (JSON.parse(readFileSync(file(root, profile), 'utf8')) as {view?: unknown}).view
    return VIEWS.find((x) => x === v)
  } catch {
    return undefined
  }
}

/** Remembers the view (when it changed). */
export function rememberView(root: string | undefined, profile: string, view: ViewName): void {
  if (!root || lastView(root, profile) === view) return
  try {
    mkdirSync(join(root, 'console-state'), {recursive: true, mode: 0o700})
    const f = file(root, profile)
    writeFileSync(`${f}.${process.pid}.tmp`, JSON.stringify({view}) + '\n', {mode: 0o600})
    renameSync(`${f}.${process.pid}.tmp`, f)
  } catch {
    // a read-only config dir: the console opens on Home next time
  }
}
