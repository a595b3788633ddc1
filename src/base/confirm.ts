// One confirmation for every destructive or redirecting command (delete, revoke, detach, a webhook
// endpoint's URL changed): asked on stderr on a terminal unless --yes; without a terminal to ask
// on, --yes is required. On a live key the question is the typed word "live", as money movements
// ask (docs/decisions.md#confirmations-and-live-keys), never a y that a hurried Enter-y habit answers.
import {AbortedError} from '../errors.js'

export interface ConfirmSeam {
  yes: boolean
  interactive: boolean
  ask: (question: string) => Promise<string>
  /** the key is a live one: the typed word "live" is asked for */
  live?: boolean
  /** paints the LIVE label (stderr colours) */
  liveLabel?: (text: string) => string
}

export async function confirmDestructive(seam: ConfirmSeam, action: string, nothing = 'nothing was changed'): Promise<void> {
  if (seam.yes) return
  if (!seam.interactive) throw new AbortedError(`Refusing to ${action}${seam.live ? ' in live mode' : ''} without confirmation.`, 'Re-run with --yes to confirm.')
  if (seam.live) {
    const label = (seam.liveLabel ?? ((t: string) => t))(' LIVE ')
    const answer = await seam.ask(`${label} This will ${action}. Type "live" to continue: `)
    if (answer.trim().toLowerCase() !== 'live') throw new AbortedError(`Not confirmed; ${nothing}.`)
    return
  }
  const answer = await seam.ask(`This will ${action}. Continue? [y/N] `)
  if (!/^y(es)?$/i.test(answer.trim())) throw new AbortedError(`Not confirmed; ${nothing}.`)
}
