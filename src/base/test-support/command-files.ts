// The CLI's command files as oclif finds them (package.json oclif.commands: every module under
// src/commands/, built into dist/commands/, except tests, declarations and shared/ folders), and
// their ids: topics and name joined by ":", an index naming its folder.
import {readdirSync} from 'node:fs'
import {join, relative, resolve, sep} from 'node:path'

export const COMMANDS = resolve(import.meta.dirname, '..', '..', 'commands')

/** Every source module under `dir` (test-support/ folders and tests left out), shared/ ones included. */
export const sourceFiles = (dir = COMMANDS): string[] =>
  readdirSync(dir, {withFileTypes: true}).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'test-support' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : []
  })

export const isShared = (file: string) => relative(COMMANDS, file).split(sep).includes('shared')

/** oclif's id of a command file: topics and name joined by ":", index naming its folder. */
export const commandId = (file: string) =>
  relative(COMMANDS, file)
    .replace(/\.tsx?$/, '')
    .split(sep)
    .filter((part, i, all) => !(part === 'index' && i === all.length - 1))
    .join(':')

/** Command id → its source file. */
export function commandFiles(): Map<string, string> {
  return new Map(sourceFiles().filter((f) => !isShared(f)).map((f) => [commandId(f), f]))
}
