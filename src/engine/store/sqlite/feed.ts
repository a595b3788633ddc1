// The change feed of the SQLite adapter: what a commit touched, one notice per account, told to
// the store's listeners (../listeners.ts) once the commit is durable. One process owns the file:
// there is no other instance to tell.
import type {ChangeNotice, Kind} from '../../ports/store.js'

export {Listeners} from '../listeners.js'

/** A notice being built by a group commit. */
export type Notice = {account: string; kinds: Set<Kind>; settings: string[]; eventSeq: number | null; dueBy: string | null; purged?: boolean; restored?: boolean}

/** Adds what one change set told its account (`seq`: its event's, for the first part) to the group's notices. */
export function addNotice(notices: Map<string, Notice>, part: ChangeNotice, seq: number | null): void {
  let notice = notices.get(part.account)
  if (!notice) notices.set(part.account, (notice = {account: part.account, kinds: new Set<Kind>(), settings: [], eventSeq: null, dueBy: null}))
  for (const k of part.kinds) notice.kinds.add(k)
  notice.settings.push(...part.settings)
  if (seq !== null) notice.eventSeq = seq
  if (part.restored) notice.restored = true
  if (part.dueBy && (notice.dueBy === null || part.dueBy < notice.dueBy)) notice.dueBy = part.dueBy
}
