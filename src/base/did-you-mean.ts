// "Did you mean": the closest gw command (or topic) to what was typed, for the not-found hook
// and `gw help`. Words are compared one by one, so a typo in the topic (`gw paymnets list`) and
// one in the verb (`gw payments lsit`) both find `payments list`.
import type {Config} from '@oclif/core'
import {distance} from '../suggest.js'

export interface Suggestion {
  /** the command or topic id, colon-separated ("payments:list") */
  id: string
  kind: 'command' | 'topic'
  /** how many of the typed words it replaces */
  words: number
}

const close = (typed: string, real: string) => distance(typed.toLowerCase(), real) <= Math.max(1, Math.min(3, Math.floor(real.length / 3)))

/** The best command, else topic, for the typed words (the id oclif could not find, split on ":"). */
export function suggestCommand(config: Pick<Config, 'commands' | 'topics'>, typed: string[]): Suggestion | undefined {
  const commands = config.commands.filter((c) => !c.hidden).flatMap((c) => [c.id, ...(c.aliases ?? [])])
  let best: {id: string; score: number; words: number} | undefined
  for (const id of commands) {
    const parts = id.split(':')
    if (parts.length > typed.length) continue
    if (!parts.every((p, i) => close(typed[i]!, p))) continue
    const score = parts.reduce((a, p, i) => a + distance(typed[i]!.toLowerCase(), p), 0) - parts.length * 0.01
    if (!best || score < best.score || (score === best.score && parts.length > best.words)) best = {id, score, words: parts.length}
  }
  if (best) return {id: best.id, kind: 'command', words: best.words}
  const topics = config.topics.filter((t) => !t.hidden).map((t) => t.name)
  for (let n = Math.min(typed.length, 2); n >= 1; n--) {
    const topic = topics.filter((t) => t.split(':').length === n && t.split(':').every((p, i) => close(typed[i]!, p)))[0]
    if (topic) return {id: topic, kind: 'topic', words: n}
  }
  return undefined
}

/** "payments:list" -> "payments list" */
export const spaced = (id: string) => id.replaceAll(':', ' ')
