// Routing decisions as a short readable trace (`gw payments explain`, `gw routing simulate`):
// what was chosen and why (a routing rule or smart routing), the providers excluded and why,
// each candidate's score with its parts, the tie-break, then each provider attempt. The tables
// fit the terminal like every other table (src/output/table.ts).
import {stripVTControlCharacters} from 'node:util'
import type {Payment, PaymentRouting, RoutingDecision, RoutingExclusion} from '../../../api/types.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {formatMoney} from '../../../api/money.js'
import {renderTable, type Columns} from '../../../output/table.js'

export type RoutingAttempt = PaymentRouting['attempts'][number]
type Score = RoutingDecision['scores'][number]

const when = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z')
const fixed = (x: number, digits = 4) => x.toFixed(digits)
const pct = (x: number) => `${(x * 100).toFixed(1)}%`

/** Why a provider was not a candidate, in words. */
export function exclusionText(reason: RoutingExclusion, input: RoutingDecision['input']): string {
  switch (reason) {
    case 'currency_not_processed':
      return `does not process ${input.currency}`
    case 'method_not_supported':
      return `does not support ${input.payment_method}`
    case 'provider_disabled':
      return 'disabled (health status)'
    case 'already_tried':
      return 'already tried for this payment in an earlier pass'
    default:
      return String(reason)
  }
}

const ruleProviders = (rule: NonNullable<RoutingDecision['rule']>) =>
  rule.providers.map((x) => (x.weight !== undefined && rule.action === 'split' ? `${x.provider}:${x.weight}` : x.provider)).join(', ')

/** The rule that matched (id, priority, action, scope), or smart routing, and what it did. */
export function strategyText(d: RoutingDecision, p: Painter): string {
  const rule = d.rule
  if (!rule || d.strategy === 'smart_routing') return `${p.bold('smart routing')}: no routing rule matched, so the highest score goes first`
  const scope = rule.merchant ? `merchant ${rule.merchant}` : 'every merchant'
  const head = `${p.bold(`rule ${rule.id}`)} (priority ${rule.priority}, ${rule.action}${rule.providers.length ? ` ${ruleProviders(rule)}` : ''}; ${scope})`
  const eligible = new Set(d.scores.map((s) => s.provider))
  const missing = rule.providers.map((x) => x.provider).filter((id) => !eligible.has(id))
  const skipped = missing.length ? `; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not eligible (see Excluded)` : ''
  switch (d.strategy) {
    case 'rule_block':
      return `${head} blocks this payment: no provider is tried and it fails with routing_blocked`
    case 'rule_prefer':
      return `${head} puts its eligible providers first${skipped}; smart routing orders the rest as failover`
    case 'rule_split':
      return d.split_pick
        ? `${head} drew ${p.bold(d.split_pick)} by weight${skipped}; smart routing orders the rest as failover`
        : `${head} had no eligible provider with a weight above 0${skipped}; smart routing decided`
    default:
      return head
  }
}

/** The input of a decision in one line: "€20.00 EUR · card · visa · US · merchant mer_1". */
export function inputText(input: RoutingDecision['input']): string {
  return [formatMoney(input.amount, input.currency), input.payment_method, input.card_brand, input.country, input.merchant ? `merchant ${input.merchant}` : null].filter(Boolean).join(' · ')
}

function scoreColumns(d: RoutingDecision): Columns<Score> {
  const currency = d.input.currency
  return {
    head: ['PROVIDER', 'TRY', 'SCORE', 'FEE · COST', '7-DAY RATE', 'CURRENCY', 'METHOD'],
    fit: {flex: ['FEE · COST', '7-DAY RATE'], drop: ['METHOD', 'CURRENCY', 'TRY']},
    row: (s, p) => {
      const at = d.order.indexOf(s.provider)
      return [
        s.provider,
        at >= 0 ? String(at + 1) : p.dim('–'),
        s.degraded ? `${fixed(s.score)} ${p.yellow('degraded ×0.5')}` : fixed(s.score),
        `${formatMoney(s.cost.fee, currency)} · ${fixed(s.cost.component, 2)}`,
        s.auth_rate.rate_7d === null ? `no data → ${pct(s.auth_rate.used)}` : pct(s.auth_rate.used),
        `${s.currency.local ? 'local' : 'cross-border'} · ${s.currency.component}`,
        `${s.method.partner ? 'partner' : 'direct'} · ${s.method.component}`,
      ]
    },
  }
}

const CLASS_TEXT = {soft: 'soft → next provider', final: 'final → routing stopped'} as const

export const attemptColumns: Columns<RoutingAttempt & {n: number}> = {
  head: ['#', 'PROVIDER', 'OUTCOME', 'DECLINE CODE', 'CLASS', 'LATENCY'],
  fit: {flex: ['CLASS'], drop: ['LATENCY', 'DECLINE CODE']},
  row: (a, p) => [
    String(a.n),
    a.provider,
    paintOutcome(p, a.outcome),
    a.decline_code ?? '',
    a.decline_class ? (a.decline_class === 'soft' ? p.yellow(CLASS_TEXT.soft) : p.red(CLASS_TEXT.final)) : '',
    a.latency_ms === null ? p.dim('pending') : `${a.latency_ms} ms`,
  ],
}

function paintOutcome(p: Painter, outcome: string): string {
  if (outcome === 'approved') return p.green(outcome)
  if (outcome === 'declined' || outcome === 'authentication_failed') return p.red(outcome)
  if (outcome === 'timeout' || outcome === 'soft_declined' || outcome === 'error') return p.yellow(outcome)
  if (outcome === 'pending') return p.cyan(outcome)
  return outcome
}

/** The tie-break rule, and whether it decided anything in this decision. */
function tieBreakText(d: RoutingDecision, p: Painter): string {
  const notes: string[] = []
  const s = d.scores
  for (let i = 1; i < s.length; i++) {
    const a = s[i - 1]!
    const b = s[i]!
    if (a.score === b.score && a.degraded === b.degraded) notes.push(`${a.provider} and ${b.provider} tie at ${fixed(a.score)}: ${a.provider} goes first by provider id`)
  }
  const degraded = s.filter((x) => x.degraded).map((x) => x.provider)
  if (degraded.length && degraded.length < s.length) notes.push(`${degraded.join(', ')} ${degraded.length === 1 ? 'is' : 'are'} degraded: tried after every active provider`)
  return `${d.tie_break}${notes.length ? '' : p.dim(' (no tie here)')}${notes.map((n) => `\n${n}`).join('')}`
}

/** Words of `text` in lines of at most `width` visible characters (colour codes do not count). */
export function wrapText(text: string, width: number | undefined): string[] {
  if (!width || width < 20 || stripVTControlCharacters(text).length <= width) return [text]
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word
    if (line && stripVTControlCharacters(next).length > width) {
      lines.push(line)
      line = word
    } else line = next
  }
  if (line) lines.push(line)
  return lines
}

/** "  Label  value" rows, values aligned, continuation lines indented; wrapped to `width` when known. */
function labelled(rows: [string, string | undefined][], p: Painter, width?: number): string[] {
  const shown = rows.filter(([, v]) => v !== undefined && v !== '') as [string, string][]
  const lw = Math.max(0, ...shown.map(([l]) => l.length))
  const room = width ? width - lw - 4 : undefined
  const out: string[] = []
  for (const [label, value] of shown) {
    const [first, ...rest] = value.split('\n').flatMap((v) => wrapText(v, room))
    out.push(`  ${p.dim(label.padEnd(lw))}  ${first}`)
    for (const r of rest) out.push(`  ${' '.repeat(lw)}  ${r}`)
  }
  return out
}

export interface DecisionView {
  /** the section's first line */
  title: string
  /** "Chosen" for a payment's pass, "Would try" for a simulation */
  verb: string
  /** the attempts made in this pass (a payment's explanation) */
  attempts?: (RoutingAttempt & {n: number})[]
  /** a line shown instead of an empty attempts table */
  noAttempts?: string
  /** a later pass resuming the attempt that waited for the customer: it goes on before the order */
  resumed?: {provider: string; n: number}
  width?: number
}

/** One routing decision: strategy, choice and order, exclusions, the scores table, the tie-break, then its attempts. */
export async function renderDecision(d: RoutingDecision, p: Painter, view: DecisionView): Promise<string> {
  const [first, ...rest] = d.order
  const r = view.resumed
  const chosen = r
    ? `${p.bold(r.provider)}${p.dim(` (attempt ${r.n}, pending while the customer acted, goes on first)`)}${d.order.length ? p.dim(`, then ${d.order.join(' → ')}`) : ''}`
    : first
      ? `${p.bold(first)}${rest.length ? p.dim(`, then ${rest.join(' → ')}`) : p.dim(' (the only candidate)')}`
      : d.strategy === 'rule_block'
        ? p.red(`none: blocked by rule ${d.rule?.id}`)
        : p.red('none: no eligible provider (the payment fails with no_provider_available)')
  const out = d.providers.filter((x) => x.excluded).map((x) => [x.provider, exclusionText(x.excluded!, d.input)] as const)
  if (d.strategy === 'rule_block') for (const s of d.scores) out.push([s.provider, `blocked by rule ${d.rule?.id}`])
  const pad = Math.max(0, ...out.map(([id]) => id.length))
  const excluded = out.map(([id, why]) => `${id.padEnd(pad)}  ${p.dim(why)}`)
  const w = d.weights
  const lines = [
    view.title,
    ...labelled(
      [
        ['Input', inputText(d.input)],
        ['Strategy', strategyText(d, p)],
        [view.verb, chosen],
        ['Excluded', excluded.length ? excluded.join('\n') : p.dim('none')],
        ['Score', `${w.cost} × cost + ${w.auth_rate} × 7-day rate + ${w.currency} × currency + ${w.method} × method${p.dim(' (each part 0 to 1; degraded ×0.5)')}`],
      ],
      p,
      view.width,
    ),
  ]
  if (d.scores.length) lines.push(await renderTable(d.scores, scoreColumns(d), p, {width: view.width}))
  else lines.push(`  ${p.dim('No eligible provider to score.')}`)
  lines.push(...labelled([['Tie-break', d.scores.length > 1 ? tieBreakText(d, p) : `${d.tie_break}${p.dim(' (one candidate: nothing to break)')}`]], p, view.width))
  if (view.attempts) {
    if (view.attempts.length) {
      lines.push(`  ${p.dim('Attempts')}`)
      lines.push(await renderTable(view.attempts, attemptColumns, p, {width: view.width}))
    } else if (view.noAttempts) lines.push(...labelled([['Attempts', view.noAttempts]], p, view.width))
  }
  return lines.join('\n')
}

/** Each attempt's routing pass: the last pass decided at or before the attempt. */
export function attemptsByPass(r: PaymentRouting): (RoutingAttempt & {n: number})[][] {
  const passes: (RoutingAttempt & {n: number})[][] = r.decisions.map(() => [])
  r.attempts.forEach((a, i) => {
    let pass = 0
    for (let k = 0; k < r.decisions.length; k++) if (r.decisions[k]!.decided_at <= a.attempted_at) pass = k
    passes[pass]?.push({...a, n: i + 1})
  })
  return passes
}

/** What routing came to, in one line, from the attempts (and the payment when known). */
export function outcomeText(r: PaymentRouting, pay: Payment | undefined, p: Painter): string {
  const soft = r.attempts.filter((a) => a.decline_class === 'soft')
  const hops = soft.length ? ` after ${soft.length} failover${soft.length === 1 ? '' : 's'} (${soft.map((a) => `${a.provider}: ${a.decline_code ?? a.outcome}`).join(', ')})` : ''
  const last = r.attempts[r.attempts.length - 1]
  const decision = r.decisions[r.decisions.length - 1]
  if (!last) {
    if (!decision) return noDecisionText(pay)
    if (decision.strategy === 'rule_block') return p.red(`blocked by routing rule ${decision.rule?.id}: no provider was tried`)
    if (!decision.order.length) return p.red('no eligible provider: nothing was tried')
    return `routed to ${decision.order[0]}; no attempt yet`
  }
  switch (last.outcome) {
    case 'approved':
      return `${p.green('approved')} by ${p.bold(last.provider)}${hops}`
    case 'pending':
      return `${p.cyan('pending')} on ${p.bold(last.provider)}: waiting for the customer or the rail${hops}`
    case 'declined':
      return `${p.red('declined')} by ${last.provider}: ${last.decline_code ?? 'declined'}, a final decline, so no other provider was tried${hops}`
    case 'authentication_failed':
      return `${p.red('authentication failed')} on ${last.provider}: the customer did not complete the step${hops}`
    case 'abandoned':
      return `${p.red('abandoned')} on ${last.provider}: the customer's session expired${hops}`
    case 'canceled':
      return `${paintStatus(p, 'canceled')} while pending on ${last.provider}${hops}`
    default:
      if (last.decline_class === 'soft') {
        const failure = pay?.failure_code ? ` (${pay.failure_code})` : ''
        return `${p.red('every provider failed over')}${failure}: ${r.attempts.map((a) => `${a.provider}: ${a.decline_code ?? a.outcome}`).join(', ')}`
      }
      return `${last.outcome} on ${last.provider}${hops}`
  }
}

/** Why a payment has no routing pass, from its state. */
export function noDecisionText(pay: Payment | undefined): string {
  if (!pay) return 'No routing pass was recorded for this payment.'
  if (pay.failure_code === 'payment_blocked') return 'Risk screening blocked it before routing: no provider was considered.'
  if (pay.status === 'requires_confirmation') return `Not routed yet: it waits for confirmation (gw payments confirm ${pay.id}).`
  if (pay.status === 'requires_action') return "Not routed yet: it waits for the customer's card details (next_action)."
  if (pay.status === 'processing' && pay.risk?.decision === 'review') return `Held for risk review before routing; it is routed once approved (gw payments review ${pay.id} --approve).`
  if (pay.status === 'canceled') return 'Canceled before it was routed.'
  return 'No routing pass was recorded (payments routed before routing explanations were recorded list none).'
}

/** `gw payments explain`: the outcome, then one section per routing pass with its attempts. */
export async function renderPaymentRouting(r: PaymentRouting, pay: Payment | undefined, p: Painter, opts: {width?: number} = {}): Promise<string> {
  const head = pay ? `${p.bold(pay.id)}  ${paintStatus(p, pay.status)}  ${formatMoney(pay.amount, pay.currency)} · ${pay.payment_method}${pay.reference ? p.dim(` · ${pay.reference}`) : ''}` : p.bold(r.payment)
  const failure = pay?.failure_code && pay.status === 'failed' ? `${pay.failure_code}${pay.failure_message ? `: ${pay.failure_message}` : ''}` : undefined
  const out = [head, ...labelled([['Outcome', outcomeText(r, pay, p)], ['Failure', failure ? p.red(failure) : undefined]], p, opts.width)]
  // without a routing pass the outcome line says why (noDecisionText)
  if (!r.decisions.length) return out.join('\n')
  const byPass = attemptsByPass(r)
  const n = r.decisions.length
  for (let i = 0; i < n; i++) {
    const d = r.decisions[i]!
    const title = `${p.bold(n > 1 ? `Routing pass ${i + 1} of ${n}` : 'Routing')} ${p.dim(`· decided ${when(d.decided_at)}`)}`
    const before = r.attempts.map((a, k) => ({...a, n: k + 1})).filter((a) => a.attempted_at < d.decided_at)
    const last = before.at(-1)
    // a later pass comes when the customer completed a step: the attempt that waited goes on first
    const resumed = i > 0 && last && d.providers.some((x) => x.provider === last.provider && x.excluded === 'already_tried') ? {provider: last.provider, n: last.n} : undefined
    const noAttempts = resumed && last
      ? `no new attempt: attempt ${last.n} on ${last.provider} went on and ended ${paintOutcome(p, last.outcome)}`
      : d.order.length
        ? p.dim('none in this pass')
        : p.dim('none: nothing to try')
    out.push('', await renderDecision(d, p, {title, verb: 'Chosen', attempts: byPass[i], noAttempts, resumed, width: opts.width}))
  }
  return out.join('\n')
}

/** `gw routing simulate`: the one decision, as explain shows a pass. */
export async function renderSimulation(d: RoutingDecision, p: Painter, opts: {width?: number} = {}): Promise<string> {
  const title = `${p.bold('Simulated routing')} ${p.dim(`· as of ${when(d.decided_at)} · nothing was created`)}`
  return renderDecision(d, p, {title, verb: 'Would try', width: opts.width})
}
