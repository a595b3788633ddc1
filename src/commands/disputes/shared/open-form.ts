// The evidence form behind the render gate: only on a sized terminal (stdin and stderr),
// outside CI, without --json. Ink, React and the form load only when it opens.
import type {Dispute} from '../../../api/types.js'
import type {EvidenceParams} from '../../../client/params.js'
import type {AttachedFacts} from './display.js'
import {canRenderInk} from '../../../ui/gate.js'

export function canOpenEvidenceForm(opts: {json: boolean; stdin?: {isTTY?: boolean}; stream?: {isTTY?: boolean; columns?: number; rows?: number}; env?: NodeJS.ProcessEnv}): boolean {
  const stdin = opts.stdin ?? process.stdin
  return stdin.isTTY === true && canRenderInk({json: opts.json, stream: opts.stream, env: opts.env})
}

/** Opens the form; resolves with the evidence to submit, or null when the user canceled. */
export async function runEvidenceForm(opts: {dispute: Dispute; now: Date; facts?: AttachedFacts; stdout?: NodeJS.WriteStream; stdin?: NodeJS.ReadStream}): Promise<EvidenceParams | null> {
  const {mountEvidenceForm} = await import('./evidence-form.js')
  return mountEvidenceForm(opts)
}
