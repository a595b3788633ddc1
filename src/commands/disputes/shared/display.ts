// Detail views and table columns for disputes, evidence checklists and deadlines. Plain text;
// tables go through src/output/table.ts (cli-table3 loaded only when drawn).
import type {Dispute} from '../../../api/types.js'
import {EVIDENCE_BY_REASON, KEY_HINTS, RECOGNIZED_KEYS, metByAlternative, missingEvidence, nearMissKey, type RecognizedKey} from '../../../api/dispute-evidence.js'
import type {DisputeReason} from '../../../api/types.js'
import type {EvidenceParams} from '../../../client/params.js'
import type {Painter} from '../../../output/color.js'
import {compactTime as date, renderFields} from '../../../output/detail.js'
import {formatMoney} from '../../../api/money.js'
import type {Columns} from '../../../output/table.js'
import {CLOSED_BY, disputeStatus} from './status.js'

/**
 * The disputes table (docs/decisions.md#disputes-and-evidence): STATUS is the time left while a response is due, else the
 * status in words (no second column saying the same); the PAYMENT id is never cut (an agent copies
 * it), the reason is cut first and the due date, stage and reason go before it on a narrow terminal.
 */
export function disputeColumns(now: Date): Columns<Dispute> {
  return {
    head: ['ID', 'STATUS', 'AMOUNT', 'REASON', 'STAGE', 'DUE', 'PAYMENT'],
    row: (x, p) => {
      const left = timeLeft(x, now)
      const status =
        x.status !== 'needs_response' || !x.evidence_due_by
          ? disputeStatus(x, p)
          : left.startsWith('overdue')
            ? p.red(left)
            : Date.parse(x.evidence_due_by) - now.getTime() < 86_400_000
              ? p.yellow(left)
              : left
      return [x.id, status, formatMoney(x.amount, x.currency), x.reason, x.stage, date(x.evidence_due_by), x.payment]
    },
    fit: {flex: ['REASON'], drop: ['DUE', 'STAGE', 'REASON', 'AMOUNT']},
  }
}

/**
 * What the service attaches to the evidence by itself, read from the contested payment: the
 * actual 3-D Secure, AVS and CVV results and the refund ids (gw disputes get / evidence load it).
 */
export interface AttachedFacts {
  three_d_secure: boolean
  avs_result: string | null
  cvv_result: string | null
  refunds: string[]
}

/** The attached evidence of a reason in words: the facts when known, else what will be attached. */
export function attachedLine(reason: Dispute['reason'], facts: AttachedFacts | undefined): string | undefined {
  const attached = EVIDENCE_BY_REASON[reason]?.attached ?? []
  if (attached.length === 0) return undefined
  if (!facts) return `attached automatically from the payment: ${attached.join(', ')}`
  const parts: string[] = []
  if (attached.includes('three_d_secure')) parts.push(`3-D Secure ${facts.three_d_secure ? 'passed' : 'not used'}`)
  if (attached.includes('avs_result')) parts.push(`AVS ${facts.avs_result ?? 'unavailable'}`)
  if (attached.includes('cvv_result')) parts.push(`CVV ${facts.cvv_result ?? 'unavailable'}`)
  if (attached.includes('refunds')) parts.push(facts.refunds.length ? `refunds ${facts.refunds.join(', ')}` : 'refunds: none')
  return `attached automatically from the payment: ${parts.join(' · ')}`
}

/** Keys outside the checklist, a near miss of a recognized key with its did-you-mean. */
export function alsoKeys(keys: readonly string[], p?: Painter): string {
  return keys
    .map((k) => {
      const meant = nearMissKey(k)
      return meant ? `${k} ${(p?.yellow ?? ((t: string) => t))(`(did you mean ${meant}?)`)}` : k
    })
    .join(', ')
}

/** The checklist of the keys that suit the reason, marked [x] where the fields cover them ([-] where an alternative does). */
export function renderChecklist(reason: Dispute['reason'], ev: {fields: Record<string, string>; files: string[]} | null | undefined, p: Painter, facts?: AttachedFacts): string[] {
  const cov = evidenceCoverage(reason, ev?.fields)
  const width = Math.max(...cov.checklist.map((c) => c.key.length))
  const lines = cov.checklist.map((c) =>
    c.metBy ? `  ${p.dim('[-]')} ${c.key.padEnd(width)}  ${p.dim(`not needed: ${c.metBy} given`)}` : `  ${c.covered ? p.green('[x]') : p.yellow('[ ]')} ${c.key.padEnd(width)}  ${p.dim(c.hint)}`,
  )
  if (cov.extra.length) lines.push(`  ${p.dim('also:')} ${alsoKeys(cov.extra, p)}`)
  if (ev?.files.length) for (const f of ev.files) lines.push(`  ${p.dim('file:')} ${f}`)
  const attached = attachedLine(reason, facts)
  if (attached) lines.push(`  ${p.dim(attached)}`)
  return lines
}

export function renderDispute(dp: Dispute, now: Date, p: Painter, facts?: AttachedFacts): string {
  const due = dp.evidence_due_by ? `${dp.evidence_due_by} (${timeLeft(dp, now)})` : timeLeft(dp, now)
  const head = renderFields(
    `${p.bold(dp.id)}  ${disputeStatus(dp, p)}${dp.livemode ? `  ${p.red('LIVE')}` : ''}`,
    [
      ['Amount', formatMoney(dp.amount, dp.currency)],
      ['Payment', dp.payment],
      ['Reason', dp.reason],
      ['Stage', dp.stage],
      ['Closed by', dp.closed_by ? CLOSED_BY[dp.closed_by] ?? dp.closed_by : undefined],
      ['Evidence due', due],
      ['Mode', dp.livemode ? 'live' : 'test'],
      ['Created', dp.created_at],
    ],
    p,
  )
  const advice = EVIDENCE_BY_REASON[dp.reason]?.advice
  const closed = dp.status === 'won' || dp.status === 'lost' || dp.status === 'accepted'
  const lines = ['', `${p.bold(`Evidence for ${dp.reason}`)}${advice && !closed ? `: ${advice}` : ''}`]
  if (dp.evidence) lines.push(p.dim(`  submitted ${dp.evidence.submitted_at} at the ${dp.stage} stage`))
  else if (dp.status === 'needs_response') lines.push(p.dim(`  nothing submitted at the ${dp.stage} stage yet`))
  else lines.push(p.dim(`  none was submitted at the ${dp.stage} stage`))
  // a closed dispute with nothing submitted has no checklist left to fill
  if (!closed || dp.evidence) lines.push(...renderChecklist(dp.reason, dp.evidence, p, facts))
  if (dp.evidence) for (const [k, v] of Object.entries(dp.evidence.fields)) lines.push(`  ${p.dim(`${k}:`)} ${v}`)
  lines.push(...renderPreviousEvidence(dp, p))
  return [head, ...lines].join('\n')
}

/** What was argued at earlier stages (kept on the dispute after an escalation), stage by stage. */
export function renderPreviousEvidence(dp: Dispute, p: Painter): string[] {
  const lines: string[] = []
  for (const ev of dp.previous_evidence ?? []) {
    lines.push('', `${p.bold(`Argued at the ${ev.stage} stage`)} ${p.dim(`(submitted ${ev.submitted_at})`)}`)
    for (const [k, v] of Object.entries(ev.fields)) lines.push(`  ${p.dim(`${k}:`)} ${v.replace(/\n/g, '\n    ')}`)
    for (const f of ev.files) lines.push(`  ${p.dim('file:')} ${f}`)
  }
  return lines
}

/** What will be submitted, with its coverage, before a confirmation. */
export function renderEvidencePreview(dp: Dispute, ev: EvidenceParams, p: Painter, facts?: AttachedFacts): string {
  const lines = [
    `${p.bold(`Evidence for ${dp.id}`)} (${dp.reason}, ${formatMoney(dp.amount, dp.currency)}, ${dp.stage} stage)`,
    ...Object.entries(ev.fields).map(([k, v]) => `  ${k} = ${v}`),
    ...ev.files.map((f) => `  file ${f}`),
    '',
    'Checklist for the reason:',
    ...renderChecklist(dp.reason, {fields: ev.fields, files: []}, p, facts),
    '',
    p.yellow(`One submission per stage: once sent, ${dp.id} goes to under_review and nothing can be added or changed at the ${dp.stage} stage.`),
  ]
  return lines.join('\n')
}

// ----- evidence coverage and deadlines (shared by the disputes commands and the evidence form)

export interface Coverage {
  /** the keys that suit the reason, each with whether the evidence fills it, or the filled alternative that stands in for it */
  checklist: {key: RecognizedKey; covered: boolean; hint: string; metBy?: RecognizedKey}[]
  /** submitted keys outside the suited ones (other recognized keys and free-text keys) */
  extra: string[]
  /** suited evidence still lacking: a key, or alternatives as "a or b" */
  missing: string[]
}

/** How fields cover a reason: a checklist of the suited keys, and the other keys given. */
export function evidenceCoverage(reason: DisputeReason, fields: Record<string, string> | undefined | null): Coverage {
  const f = fields ?? {}
  const suited = EVIDENCE_BY_REASON[reason]?.keys ?? RECOGNIZED_KEYS
  const checklist = suited.map((key) => {
    const metBy = metByAlternative(reason, key, f)
    return {key, covered: typeof f[key] === 'string' && f[key].trim() !== '', hint: KEY_HINTS[key], ...(metBy ? {metBy} : {})}
  })
  return {
    checklist,
    extra: Object.keys(f).filter((k) => !(suited as readonly string[]).includes(k)),
    missing: missingEvidence(reason, f),
  }
}

/** 187200 -> "2d 4h", 5400 -> "1h 30m", 300 -> "5m", 20 -> "<1m": the two largest units. */
export function shortDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  if (s < 60) return '<1m'
  const d = Math.floor(s / 86_400)
  const h = Math.floor((s % 86_400) / 3600)
  const m = Math.floor((s % 3600) / 60)
  if (d > 0) return h ? `${d}d ${h}h` : `${d}d`
  if (h > 0) return m ? `${h}h ${m}m` : `${h}h`
  return `${m}m`
}

/** 144 -> "2m 24s", 604800 -> "7d", 93784 -> "1d 2h 3m 4s": every unit, for a window a person typed (nothing rounded away). */
export function exactDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  const units: [number, string][] = [[Math.floor(s / 86_400), 'd'], [Math.floor((s % 86_400) / 3600), 'h'], [Math.floor((s % 3600) / 60), 'm'], [s % 60, 's']]
  return units.filter(([n]) => n > 0).map(([n, u]) => `${n}${u}`).join(' ') || '0s'
}

/** What is left to answer a dispute: "2d 4h left", "overdue 3h", or "none (…)" once it cannot be answered. */
export function timeLeft(dp: Pick<Dispute, 'status' | 'evidence_due_by'>, now: Date): string {
  if (dp.status === 'under_review') return 'none (under review)'
  if (dp.status !== 'needs_response') return `none (${dp.status})`
  if (!dp.evidence_due_by) return 'none'
  const left = (Date.parse(dp.evidence_due_by) - now.getTime()) / 1000
  return left > 0 ? `${shortDuration(left)} left` : `overdue ${shortDuration(-left)}`
}

/** Deadline order: open deadlines first, soonest first; then the rest, newest first. */
export function byDeadline(a: Dispute, b: Dispute): number {
  const da = a.evidence_due_by ? Date.parse(a.evidence_due_by) : Number.POSITIVE_INFINITY
  const db = b.evidence_due_by ? Date.parse(b.evidence_due_by) : Number.POSITIVE_INFINITY
  if (da !== db) return da - db
  return a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0
}

