// `gw --version`: oclif's line (gw/0.1.0 linux-x64 node-v20.20.2) and the commit the build was made
// from (dist/build-info.json, written by the build: scripts/build-info.mjs), so a bug report
// names the code that ran. Runs before oclif prints the version; every other command skips it
// after one comparison.
import {readFileSync} from 'node:fs'
import type {Hook} from '@oclif/core'

export interface BuildInfo {
  version: string
  commit: string | null
  dirty: boolean
}

/** "commit 0123456789ab", "commit 0123456789ab with local changes", or "commit unknown". */
export function commitLabel(info: Partial<BuildInfo> | undefined): string {
  if (!info?.commit) return 'commit unknown'
  return `commit ${info.commit.slice(0, 12)}${info.dirty ? ' with local changes' : ''}`
}

function readBuildInfo(): Partial<BuildInfo> | undefined {
  try {
    return JSON.parse(readFileSync(new URL('../build-info.json', import.meta.url), 'utf8')) as Partial<BuildInfo>
  } catch {
    return undefined
  }
}

const hook: Hook.Init = async function (opts) {
  if (opts.id !== '--version') return
  // oclif prints config.userAgent next (typed read-only, a plain field of the loaded config); its
  // first three words stay as they are (oclif parses them)
  const config = opts.config as {userAgent: string}
  config.userAgent = `${config.userAgent} (${commitLabel(readBuildInfo())})`
}

export default hook
