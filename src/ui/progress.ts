// Progress on stderr: an Ink spinner behind the render gate, otherwise nothing at all
// (pipes, CI and --json get clean output). `log` prints a line above the spinner, or straight
// to stderr when there is no spinner.
import {canRenderInk} from './gate.js'

export interface Progress {
  update(label: string): void
  log(line: string): void
  stop(): void
}

export async function startProgress(
  label: string,
  opts: {json: boolean; stream?: NodeJS.WriteStream; env?: NodeJS.ProcessEnv; write?: (line: string) => void},
): Promise<Progress> {
  const stream = opts.stream ?? process.stderr
  const write = opts.write ?? ((line: string) => stream.write(line + '\n'))
  if (!canRenderInk({json: opts.json, stream, env: opts.env})) return {update() {}, log: write, stop() {}}
  const {mountSpinner} = await import('./spinner.js')
  return mountSpinner(label, stream)
}

/** A labelled count on stderr: a bar when the total is known (downloads), else the count alone. */
export interface ProgressBar {
  set(label: string, done?: number, total?: number): void
  log(line: string): void
  stop(): void
}

/**
 * A progress bar behind the same gate as the spinner: on a terminal an Ink bar, redrawn at most
 * every 50 ms; in a pipe, in CI and under --json nothing at all (`log` lines still go to `write`).
 */
export async function startProgressBar(
  label: string,
  opts: {json: boolean; stream?: NodeJS.WriteStream; env?: NodeJS.ProcessEnv; write?: (line: string) => void},
): Promise<ProgressBar> {
  const stream = opts.stream ?? process.stderr
  const write = opts.write ?? ((line: string) => stream.write(line + '\n'))
  if (!canRenderInk({json: opts.json, stream, env: opts.env})) return {set() {}, log: write, stop() {}}
  const {mountProgressBar} = await import('./progress-bar.js')
  return mountProgressBar(label, stream)
}
