// Typed yes/no confirmation for destructive commands (delete): asked on a terminal unless
// --yes; without a terminal to ask on, --yes is required.
import {AbortedError} from '../errors.js'

export interface ConfirmSeam {
  yes: boolean
  interactive: boolean
  ask: (question: string) => Promise<string>
}

export async function confirmDestructive(seam: ConfirmSeam, action: string): Promise<void> {
  if (seam.yes) return
  if (!seam.interactive) throw new AbortedError(`Refusing to ${action} without confirmation.`, 'Re-run with --yes to confirm.')
  const answer = await seam.ask(`This will ${action}. Continue? [y/N] `)
  if (!/^y(es)?$/i.test(answer.trim())) throw new AbortedError('Not confirmed; nothing was deleted.')
}
