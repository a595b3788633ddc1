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
