// Disputes on the CLI side: the evidence that suits each reason (src/api/dispute-evidence.ts,
// shared with the engine), coverage of a submission, deadlines
// against the engine's clock, evidence input from flags or a JSON file, and what
// dispute_not_actionable means in words.
import {readFileSync} from 'node:fs'
import type {Dispute, DisputeReason, DisputeStage, DisputeStatus} from '../../../api/types.js'
import {ApiError} from '../../../client/errors.js'
import type {GwClient} from '../../../client/index.js'
import type {EvidenceParams} from '../../../client/params.js'
import {GwError, UsageError} from '../../../errors.js'
import type {Context} from '../../../base/context.js'
import type {ParamFlags} from '../../../base/flag-errors.js'
import {engineNow} from '../../clock/shared/now.js'

export {DISPUTE_REASONS} from '../../../api/dispute-evidence.js'
export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['needs_response', 'under_review', 'won', 'lost', 'accepted']
export const DISPUTE_STAGES: readonly DisputeStage[] = ['chargeback', 'pre_arbitration', 'arbitration']

export {RECOGNIZED_KEYS, KEY_HINTS, EVIDENCE_BY_REASON, isHttpsUrl, type RecognizedKey} from '../../../api/dispute-evidence.js'
import {isHttpsUrl} from '../../../api/dispute-evidence.js'
import {shortDuration, type AttachedFacts} from './display.js'
import {EVIDENCE_BY_REASON} from '../../../api/dispute-evidence.js'
export {evidenceCoverage, shortDuration, timeLeft, byDeadline, type Coverage} from './display.js'

// ----- not actionable, in words -----

/** Why a dispute cannot take evidence or be accepted, or undefined when it can. */
export function notActionableReason(dp: Pick<Dispute, 'id' | 'status' | 'stage'>): string | undefined {
  switch (dp.status) {
    case 'needs_response':
      return undefined
    case 'under_review':
      return `Evidence for the ${dp.stage} stage of ${dp.id} was already submitted and is under review. A dispute takes one submission per stage: nothing can be added or changed now, and it cannot be accepted. If the dispute escalates to the next stage it needs a response again: what was argued now stays on the dispute (previous_evidence) but is not resubmitted.`
    case 'won':
      return `${dp.id} is resolved: won. The withheld amount was returned; there is nothing left to answer.`
    case 'lost':
      return `${dp.id} is resolved: lost (the evidence did not convince the issuer, or the deadline passed). The debit stands; there is nothing left to answer.`
    case 'accepted':
      return `${dp.id} is resolved: it was accepted. The debit stands; there is nothing left to answer.`
    default:
      return `${dp.id} is ${dp.status}; only a dispute in needs_response can be answered.`
  }
}

/** Why the issuer or network cannot rule on a dispute now (test helper resolve). */
export function notResolvableReason(dp: Pick<Dispute, 'id' | 'status' | 'stage'>): string | undefined {
  if (dp.status === 'needs_response')
    return `${dp.id} is waiting for your response at the ${dp.stage} stage; the issuer rules only after evidence is submitted (gw disputes evidence ${dp.id}).`
  if (dp.status === 'under_review' && dp.stage === 'arbitration') return `${dp.id} is at arbitration, whose ruling is binding: it can be won or lost, not escalated further.`
  if (dp.status === 'under_review') return undefined
  return `${dp.id} is resolved (${dp.status}); there is nothing left to rule on.`
}

/** Next steps for a dispute, shown on stderr. */
export function disputeHint(dp: Dispute): string | undefined {
  if (dp.status === 'needs_response')
    return `Respond with: gw disputes evidence ${dp.id}   (or give up: gw disputes accept ${dp.id})`
  if (dp.status === 'under_review' && !dp.livemode) return `In test mode, rule on it with: gw disputes resolve ${dp.id} --won | --lost | --escalate`
  return undefined
}

// ----- evidence input -----

/** An HTTPS URL, or a UsageError that says why not. */
export function checkHttpsUrl(text: string, flag = '--file'): string {
  const t = text.trim()
  if (!isHttpsUrl(t)) {
    throw new UsageError(`${flag} "${text}" is not an HTTPS URL.`, `Evidence files are HTTPS URLs the service can fetch, e.g. ${flag} https://shop.example/receipt-1234.pdf`)
  }
  return t
}

/** `--field key=value` (repeatable) -> {key: value}; the value may contain "=". */
export function parseFields(values: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const v of values ?? []) {
    const i = v.indexOf('=')
    if (i <= 0) throw new UsageError(`--field "${v}" is not key=value.`, 'e.g. --field tracking_number=1Z999AA10123456784 (repeat --field for more keys).')
    const key = v.slice(0, i).trim()
    if (!key) throw new UsageError(`--field "${v}" has an empty key.`)
    out[key] = v.slice(i + 1)
  }
  return out
}

/** Reads `{fields, files}` from a JSON file ("-" reads stdin text given by the caller). */
export function parseEvidenceJson(text: string, source: string): EvidenceParams {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`${source} is not JSON: ${(error as Error).message}`, 'It looks like {"fields": {"tracking_number": "1Z999..."}, "files": ["https://shop.example/receipt.pdf"]}.')
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`${source} must hold a JSON object {fields, files}.`)
  const obj = raw as Record<string, unknown>
  const unknown = Object.keys(obj).filter((k) => k !== 'fields' && k !== 'files')
  if (unknown.length) throw new UsageError(`${source}: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; only "fields" and "files" are read.`)
  const fields: Record<string, string> = {}
  if (obj.fields !== undefined) {
    if (typeof obj.fields !== 'object' || obj.fields === null || Array.isArray(obj.fields)) throw new UsageError(`${source}: "fields" must be an object of string values.`)
    for (const [k, v] of Object.entries(obj.fields as Record<string, unknown>)) {
      if (typeof v !== 'string') throw new UsageError(`${source}: fields.${k} must be a string.`)
      fields[k] = v
    }
  }
  const files: string[] = []
  if (obj.files !== undefined) {
    if (!Array.isArray(obj.files)) throw new UsageError(`${source}: "files" must be an array of HTTPS URLs.`)
    obj.files.forEach((f, i) => {
      if (typeof f !== 'string') throw new UsageError(`${source}: files[${i}] must be a string URL.`)
      files.push(checkHttpsUrl(f, `${source}: files[${i}]`))
    })
  }
  return {fields, files}
}

/** Evidence from --from-file, then --field and --file on top (flags win for a key). */
export function evidenceFromFlags(opts: {fields?: string[]; files?: string[]; fromFile?: string; readStdin?: () => Promise<string>}): Promise<EvidenceParams> {
  return (async () => {
    let base: EvidenceParams = {fields: {}, files: []}
    if (opts.fromFile !== undefined) {
      let text: string
      if (opts.fromFile === '-') {
        if (!opts.readStdin) throw new UsageError('--from-file - needs evidence JSON on stdin.')
        text = await opts.readStdin()
      } else {
        try {
          text = readFileSync(opts.fromFile, 'utf8')
        } catch (error) {
          throw new UsageError(`Cannot read --from-file ${opts.fromFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`)
        }
      }
      base = parseEvidenceJson(text, opts.fromFile === '-' ? 'stdin' : opts.fromFile)
    }
    const files = [...base.files]
    for (const f of opts.files ?? []) {
      const url = checkHttpsUrl(f)
      if (!files.includes(url)) files.push(url)
    }
    return {fields: {...base.fields, ...parseFields(opts.fields)}, files}
  })()
}

/** Evidence given with --field key=value and --file URL: fields.KEY is `--field KEY`. */
export const EVIDENCE_PARAMS: ParamFlags = {'fields.': '--field {rest}', fields: '--field', files: '--file', 'files.': '--file'}

export function isEmptyEvidence(ev: EvidenceParams): boolean {
  return Object.keys(ev.fields).length === 0 && ev.files.length === 0
}

/** Raised when a dispute cannot be answered, before anything is sent. */
export class NotActionableError extends GwError {
  constructor(message: string, hint?: string) {
    super(message, {hint})
    this.name = 'NotActionableError'
  }
}

// ----- what the disputes commands share (was a base class of their own)

/** "Now" for deadlines: the account's engine clock (a test clock may run ahead of real time), said when it is ahead. */
export async function disputeNow(ctx: Context, client: GwClient): Promise<Date> {
  const now = await engineNow(ctx, client)
  const notice = clockAheadNotice(now, new Date())
  if (notice) ctx.notice(ctx.errColor.yellow(notice))
  return now
}

/**
 * The 3-D Secure, AVS and CVV results and refund ids the service attaches to a dispute's evidence,
 * read from its payment; undefined when they cannot be read (a key without payments:read, say).
 */
export async function attachedFacts(client: GwClient, dp: Dispute): Promise<AttachedFacts | undefined> {
  const attached = EVIDENCE_BY_REASON[dp.reason]?.attached ?? []
  if (attached.length === 0) return undefined
  try {
    const [payment, refunds] = await Promise.all([
      client.payments.get(dp.payment),
      attached.includes('refunds') ? client.refunds.list({payment: dp.payment, limit: 100}).then((l) => l.data) : Promise.resolve([]),
    ])
    const card = (payment.payment_method_details as {card?: {three_d_secure?: {result?: string}}} | null)?.card
    return {
      three_d_secure: card?.three_d_secure?.result === 'authenticated',
      avs_result: payment.risk?.checks?.avs_result ?? null,
      cvv_result: payment.risk?.checks?.cvv_result ?? null,
      refunds: refunds.filter((r) => r.status !== 'failed').map((r) => r.id),
    }
  } catch {
    // auxiliary: the dispute is shown all the same, its checklist naming what will be attached
    return undefined
  }
}

/** Said wherever deadlines are shown while a test clock runs ahead of the wall clock (a minute or more). */
export function clockAheadNotice(engine: Date, wall: Date): string | undefined {
  const ahead = Math.round((engine.getTime() - wall.getTime()) / 1000)
  if (ahead < 60) return undefined
  return `The engine clock is ${shortDuration(ahead)} ahead of the wall clock (test clock advanced): deadlines and time left follow the engine clock, now ${engine.toISOString()}.`
}

/**
 * Runs a POST on a dispute; when the API answers dispute_not_actionable, looks the dispute up
 * and attaches why in words (already submitted at this stage, or resolved) to the error, which
 * the error renderer prints under the API's own lines.
 */
export async function explained<R>(
  client: GwClient,
  id: string,
  fn: () => Promise<R>,
  explain: (dp: Dispute) => string | undefined = notActionableReason,
): Promise<R> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof ApiError && error.code === 'dispute_not_actionable') {
      let dp: Dispute | undefined
      try {
        dp = await client.disputes.get(id)
      } catch {
        dp = undefined
      }
      error.explanation = (dp && explain(dp)) ?? 'Only a dispute in needs_response can be answered or accepted: it was already answered at this stage, or it is resolved.'
    }
    throw error
  }
}
