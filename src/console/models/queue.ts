// The Disputes queue apart from Ink: every dispute read (across every page), the ones that need a
// response first, soonest due first (then the rest, newest first), narrowed by what is typed at
// `/` (an id, a payment id, a reason, a status or a stage, any case). No Ink.
import type {Dispute} from '../../api/types.js'
import {byDeadline} from '../../commands/disputes/shared/display.js'

export interface QueueOptions {
  /** only those that need a response (the default), or every dispute */
  all: boolean
  /** the `/` filter: words that must each appear in the id, payment, reason, status or stage */
  filter: string
}

export function disputeQueue(disputes: readonly Dispute[], opts: QueueOptions): Dispute[] {
  const words = opts.filter.trim().toLowerCase().split(/\s+/).filter(Boolean)
  const kept = disputes.filter((d) => {
    if (!opts.all && d.status !== 'needs_response') return false
    const hay = `${d.id} ${d.payment} ${d.reason} ${d.status} ${d.stage}`.toLowerCase()
    return words.every((w) => hay.includes(w))
  })
  const open = kept.filter((d) => d.status === 'needs_response').sort(byDeadline)
  const rest = kept.filter((d) => d.status !== 'needs_response').sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
  return [...open, ...rest]
}
