// Progress on stderr: an Ink spinner behind the render gate, otherwise nothing at all
// (pipes, CI and --json get clean output).
import {canRenderInk} from './gate.js'

export interface Progress {
  update(label: string): void
  stop(): void
}

const noop: Progress = {update() {}, stop() {}}

export async function startProgress(label: string, opts: {json: boolean; stream?: NodeJS.WriteStream; env?: NodeJS.ProcessEnv}): Promise<Progress> {
  const stream = opts.stream ?? process.stderr
  if (!canRenderInk({json: opts.json, stream, env: opts.env})) return noop
  const {mountSpinner} = await import('./spinner.js')
  return mountSpinner(label, stream)
}
