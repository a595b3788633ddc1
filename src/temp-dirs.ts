// Temporary data dirs of throwaway engines (`gw/testing`'s startGateway, `gw serve --ephemeral`)
// leave nothing behind (docs/decisions.md#a-throwaway-engine): each records its owner (pid and, on Linux, the process's start
// time, so a reused pid is not mistaken for it) in `owner.json`; a process that ends normally or
// by SIGINT, SIGTERM or SIGHUP removes its dir; and whatever a killed process (SIGKILL, a Ctrl-C that never reached a handler)
// left is swept at the next start of either, once its owner is gone. Nothing here imports engine
// code: gw/testing loads it before the engine.
import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

/** The prefixes of the directories these engines make in the temporary directory. */
export const THROWAWAY_PREFIXES = ['gw-testing-', 'gw-ephemeral-'] as const
export const OWNER_FILE = 'owner.json'
/** A dir without an owner file (made by a gw from before owner files) is swept once it is this old. */
const OWNERLESS_MS = 24 * 3600 * 1000

interface Owner {
  pid: number
  /** the process's start time in clock ticks since boot (/proc/PID/stat field 22); null where there is no /proc */
  start: string | null
}

/** When a process started, as the kernel counts it (Linux); null elsewhere or when it is gone. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command name (field 2) is in parentheses and may hold spaces: count fields after it
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: a process of another user holds the pid, so it is alive
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether the process that wrote `owner` is still running (the same process, not a later one given its pid). */
export function ownerAlive(owner: Owner): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0 || !alive(owner.pid)) return false
  if (owner.start === null) return true
  const now = processStart(owner.pid)
  return now === null || now === owner.start
}

/**
 * Removes this user's throwaway dirs whose owner is gone (or, without an owner file, that are a
 * day old). Failures are ignored: sweeping is housekeeping, never a reason not to start.
 */
export function sweepThrowawayDirs(dir = tmpdir()): string[] {
  const swept: string[] = []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return swept
  }
  const uid = process.getuid?.()
  for (const name of names) {
    if (!THROWAWAY_PREFIXES.some((p) => name.startsWith(p))) continue
    const path = join(dir, name)
    try {
      const st = statSync(path)
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue
      let owner: Owner | undefined
      try {
        owner = JSON.parse(readFileSync(join(path, OWNER_FILE), 'utf8')) as Owner
      } catch {
        // no owner file (an older gw, or one being made right now): only an old one goes
        if (Date.now() - st.mtimeMs < OWNERLESS_MS) continue
      }
      if (owner && (owner.pid === process.pid || ownerAlive(owner))) continue
      rmSync(path, {recursive: true, force: true})
      swept.push(path)
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return swept
}

/** This process's throwaway dirs, removed when it exits (one listener for them all). */
const mine = new Set<string>()
const removeMine = () => {
  for (const path of mine) rmSync(path, {recursive: true, force: true})
}

/** Signals that end a process by default and that a user or a CI runner sends: Ctrl-C, kill, a closed terminal. */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
/**
 * On a signal nobody else handles (a test run's Ctrl-C, a CI job's kill), the process would end
 * without its 'exit' event: the dirs go first, then the signal is raised again with this listener
 * gone, so the process ends as it would have (killed by that signal, exit status 128+n). Where the
 * process handles the signal itself (`gw serve` stops the engine, then exits), its own exit removes them.
 */
const onSignal = (sig: NodeJS.Signals) => {
  if (process.listenerCount(sig) > 1) return
  removeMine()
  mine.clear()
  for (const s of ENDING_SIGNALS) process.off(s, onSignal)
  process.off('exit', removeMine)
  process.kill(process.pid, sig)
}
const watch = (on: boolean) => {
  const f = on ? process.on.bind(process) : process.off.bind(process)
  f('exit', removeMine)
  for (const s of ENDING_SIGNALS) f(s, onSignal)
}

/**
 * A fresh throwaway dir (`gw-testing-…`, `gw-ephemeral-…`) owned by this process, after sweeping
 * the ones dead processes left; removed when this process exits, unless removed before.
 */
export function makeThrowawayDir(prefix: (typeof THROWAWAY_PREFIXES)[number]): {path: string; remove(): void} {
  sweepThrowawayDirs()
  const path = mkdtempSync(join(tmpdir(), prefix))
  const owner: Owner = {pid: process.pid, start: processStart(process.pid)}
  writeFileSync(join(path, OWNER_FILE), JSON.stringify(owner) + '\n', {mode: 0o600})
  // every normal end of the process (a test run that forgot stop(), process.exit after an error)
  // and the signals that would end it without one
  if (mine.size === 0) watch(true)
  mine.add(path)
  return {
    path,
    remove() {
      if (mine.delete(path) && mine.size === 0) watch(false)
      rmSync(path, {recursive: true, force: true})
    },
  }
}
