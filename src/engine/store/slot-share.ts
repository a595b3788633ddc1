// How an instance's webhook slots are shared (docs/decisions.md#one-tenant-cannot-starve-the-others): accounts first, then endpoints. Both
// stores' claimDeliveries find each endpoint's due candidates (its per-endpoint cap already
// applied) and let this decide which to claim.
import type {SlotShare} from '../ports/store.js'

export type {SlotShare}

/**
 * An endpoint's candidates, earliest due first, all of one account, read as the sharing takes
 * them: a store reads a few rows at a time instead of every due endpoint's whole window when a
 * round claims a handful across many endpoints (docs/decisions.md#background-work-under-load).
 */
export interface CandidateQueue<T> {
  readonly account: string
  /** the i-th candidate (asked in order, from 0), reading more when needed; undefined: none left */
  at(i: number): T | undefined
}

/**
 * The candidates to claim, in claim order, at most `limit` (plus `spare` for accounts below
 * their fair share). Max-min fair across accounts: the next slot goes to the account holding the
 * fewest (held here plus taken in this call) that has a candidate left, ties in the order the
 * accounts come; within an account, round robin over its endpoints. The fair share is this
 * instance's slots (`limit` plus every claim held) divided by the accounts that have something
 * due or held. One account alone may take every slot; a second one that has something due gets
 * slots as soon as it asks, from the free ones and then from the spare ones, up to its share.
 *
 * `endpoints`: per endpoint its candidates, earliest due first, all of one account: a list, or a
 * queue read as they are taken (only as far as its first candidate before the sharing starts).
 */
export function shareSlots<T extends {account: string}>(endpoints: Iterable<readonly T[] | CandidateQueue<T>>, limit: number, share: SlotShare = {}): T[] {
  const held = share.held
  const spare = Math.max(0, share.spare ?? 0)
  // each account's endpoints, in the order they come
  const byAccount = new Map<string, {queues: ((i: number) => T | undefined)[]; at: number[]; next: number; level: number}>()
  for (const list of endpoints) {
    let first: T | undefined
    let get: (i: number) => T | undefined
    if (isQueue(list)) {
      first = list.at(0)
      get = (i) => list.at(i)
    } else {
      first = list[0]
      get = (i) => list[i]
    }
    if (first === undefined) continue
    const account = first.account
    let a = byAccount.get(account)
    if (!a) byAccount.set(account, (a = {queues: [], at: [], next: 0, level: held?.get(account) ?? 0}))
    a.queues.push(get)
    a.at.push(0)
  }
  const out: T[] = []
  if (byAccount.size === 0 || limit + spare <= 0) return out
  let holding = 0
  let others = 0
  for (const [account, n] of held ?? []) {
    if (n <= 0) continue
    holding += n
    if (!byAccount.has(account)) others++
  }
  // (limit is what is free: with every claim held, the instance's slots; below 0 once spare ones are taken)
  const fair = Math.ceil(Math.max(1, limit + holding) / (byAccount.size + others))
  const may = (level: number) => out.length < limit || (level < fair && out.length < limit + spare)
  /** the account's next candidate, round robin over its endpoints; undefined when it has none left */
  const take = (a: {queues: ((i: number) => T | undefined)[]; at: number[]; next: number}): T | undefined => {
    for (let tried = 0; tried < a.queues.length; tried++) {
      const i = (a.next + tried) % a.queues.length
      const c = a.queues[i]!(a.at[i]!)
      if (c === undefined) continue
      a.at[i]!++
      a.next = (i + 1) % a.queues.length
      return c
    }
    return undefined
  }
  // water-filling: the accounts at the lowest level take one each, then the level rises
  const waiting = [...byAccount.values()].sort((x, y) => x.level - y.level)
  let level = waiting[0]!.level
  let joined = 0
  let round: typeof waiting = []
  while (joined < waiting.length || round.length > 0) {
    while (joined < waiting.length && waiting[joined]!.level <= level) round.push(waiting[joined++]!)
    if (round.length === 0) {
      level = waiting[joined]!.level
      continue
    }
    const next: typeof waiting = []
    for (const a of round) {
      // the lowest level goes first: if it may not take, no one after it may
      if (!may(level)) return out
      const c = take(a)
      if (c === undefined) continue
      out.push(c)
      a.level++
      next.push(a)
    }
    round = next
    level++
  }
  return out
}

function isQueue<T>(x: readonly T[] | CandidateQueue<T>): x is CandidateQueue<T> {
  return !Array.isArray(x)
}
