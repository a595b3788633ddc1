// What the chaos commands share: how a rule ends (--count, --for) and which calls it picks
// (--seed), its rate and latency flags, and what a rule just switched on will do.
import type {ChaosRule} from '../../../api/types.js'
import type {Context} from '../../../base/context.js'
import {parseDuration} from '../../../base/parse.js'
import {UsageError} from '../../../errors.js'
import {describeRule} from './display.js'

/** How every fault ends (--count, --for) and which calls it picks (--seed), as the API names them. */
export function ending(f: {count?: number; for?: string; seed?: number}): {count?: number; for_seconds?: number; seed?: number} {
  return {
    ...(f.count !== undefined ? {count: f.count} : {}),
    ...(f.for !== undefined ? {for_seconds: parseDuration(f.for, '--for')} : {}),
    ...(f.seed !== undefined ? {seed: f.seed} : {}),
  }
}

/** Says what a rule just switched on will do, and how to end it early. */
export function announce(ctx: Context, rule: ChaosRule): ChaosRule {
  ctx.print(describeRule(rule))
  ctx.notice(ctx.errColor.dim(`End it early with: gw chaos clear ${rule.id}`))
  return rule
}

/** A share of requests, calls or deliveries: above 0, at most 1. */
export function parseRate(text: string, flag: string): number {
  const rate = Number(text)
  if (!(rate > 0 && rate <= 1)) throw new UsageError(`${flag} "${text}" is not a share: give a number above 0 and at most 1.`, `e.g. ${flag} 0.3 (three in ten)`)
  return rate
}

/** "800ms", "2s", "1.5s" -> milliseconds. */
export function parseLatency(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(text.trim())
  if (!m) throw new UsageError(`--latency "${text}" is not a delay.`, 'e.g. --latency 800ms or --latency 2s')
  const ms = Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1))
  if (ms < 1 || ms > 30_000) throw new UsageError('--latency must be between 1ms and 30s.')
  return ms
}
