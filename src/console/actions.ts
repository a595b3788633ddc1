// What the console's keys do to the gateway: refund, capture, cancel, accept or answer a dispute,
// resend an event, replay to an endpoint, enable or disable it. Each asks first as the CLI asks
// (src/base/confirm.ts): y/N on a test key, the typed word "live" on a live key, and says what it
// did, or why not: the status that does not allow it, or the permission the key lacks. No Ink.
import type {Dispute, Payment, WebhookEndpoint} from '../api/types.js'
import {parseDisplayAmount} from '../api/money.js'
import {confirmDestructive} from '../base/confirm.js'
import {parseDuration} from '../base/parse.js'
import type {EvidenceParams} from '../client/params.js'
import {AbortedError} from '../errors.js'
import {explained, notActionableReason} from '../commands/disputes/shared/disputes.js'
import {money, span} from './format.js'
import {deniedPermission, errorText, type ConsoleSession} from './session.js'

/** An action that did not happen, in words for the message line. */
export class NotDone extends Error {}

async function confirm(session: ConsoleSession, action: string, nothing = 'nothing was sent'): Promise<void> {
  await confirmDestructive({yes: false, interactive: true, live: session.mode === 'live', ask: (q) => session.ask(q)}, action, nothing)
}

/** Runs the call; a refusal reads as one (the permission it needs, the API's message). */
async function send<T>(session: ConsoleSession, what: string, fn: () => Promise<T>): Promise<T> {
  const r = await session.call(fn)
  if (r.ok) return r.value
  const permission = deniedPermission(r.error)
  if (permission) throw new NotDone(`Not done: this key may not ${what} (it needs ${permission}).`)
  throw new NotDone(`Could not ${what}: ${r.message}`)
}

/** Before anything is asked: the key may not do it (the permission named, as the CLI names it). */
function mayOrSay(session: ConsoleSession, what: string, permissions: readonly string[]): void {
  const missing = permissions.filter((p) => !session.may(p))
  if (missing.length) throw new NotDone(`Not done: this key may not ${what} (it needs ${missing.join(' and ')}).`)
}

/** Runs an action; a "no" at the question, or a refusal, becomes the message to show. */
async function attempt(run: () => Promise<string>): Promise<string> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof AbortedError) return error.message
    if (error instanceof NotDone) throw error
    throw new NotDone(errorText(error))
  }
}

/** The statuses a payment can be canceled in (not yet completed). */
export const CANCELABLE: readonly string[] = ['requires_confirmation', 'requires_action', 'requires_capture']

/** What is still refundable: captured, less refunded (the API says the rest when a dispute took some). */
export function refundable(p: Pick<Payment, 'amount_captured' | 'amount_refunded'>): number {
  return Math.max(0, p.amount_captured - p.amount_refunded)
}

export function refundPayment(session: ConsoleSession, p: Payment): Promise<string> {
  return attempt(async () => {
    mayOrSay(session, 'refund', ['refunds:write'])
    if (p.status !== 'succeeded') throw new NotDone(`${p.id} is ${p.status}: only a succeeded payment can be refunded.`)
    const left = refundable(p)
    if (left <= 0) throw new NotDone(`Nothing is left to refund on ${p.id}.`)
    // the amount typed: all that is left (nothing typed), or an amount in the currency, more than
    // zero and at most what is left; a wrong one keeps the question open with why under it
    const amountOf = (typed: string): {amount?: number; error?: string} => {
      if (typed === '') return {}
      let amount: number
      try {
        amount = parseDisplayAmount(typed.replace(/^[€$£¥]/, '').replace(new RegExp(`\\s*${p.currency}$`, 'i'), ''), p.currency)
      } catch (error) {
        return {error: `"${typed}" is not an amount in ${p.currency} (${(error as Error).message}). Type another, or Esc.`}
      }
      if (amount <= 0) return {error: 'The amount must be more than zero. Type another, or Esc.'}
      if (amount > left) return {error: `${money(amount, p.currency)} is more than the ${money(left, p.currency)} still refundable. Type another, or Esc.`}
      return {amount}
    }
    const typed = (await session.ask(`Refund how much? ${money(left, p.currency)} refundable; Enter: all of it`, {placeholder: 'e.g. 5.00', check: (t) => amountOf(t).error})).trim()
    const {amount, error} = amountOf(typed)
    if (error) throw new NotDone(`Not refunded: ${error}`)
    const what = amount === undefined ? `all that is left (${money(left, p.currency)})` : money(amount, p.currency)
    await confirm(session, `refund ${what} of ${p.id}`)
    const refund = await send(session, 'refund', () => session.client.refunds.create({payment: p.id, ...(amount === undefined ? {} : {amount})}))
    return `Refund ${refund.id} of ${money(refund.amount, refund.currency)} created: ${refund.status}.`
  })
}

export function capturePayment(session: ConsoleSession, p: Payment): Promise<string> {
  return attempt(async () => {
    mayOrSay(session, 'capture', ['payments:write'])
    if (p.status !== 'requires_capture') throw new NotDone(`${p.id} is ${p.status}: only an authorized payment (requires_capture) can be captured.`)
    await confirm(session, `capture ${money(p.amount - p.amount_captured, p.currency)} of ${p.id}`)
    const after = await send(session, 'capture', () => session.client.payments.capture(p.id, {}))
    return `${after.id} captured ${money(after.amount_captured, after.currency)}: ${after.status}.`
  })
}

export function cancelPayment(session: ConsoleSession, p: Payment): Promise<string> {
  return attempt(async () => {
    mayOrSay(session, 'cancel', ['payments:write'])
    if (!CANCELABLE.includes(p.status)) throw new NotDone(`${p.id} is ${p.status}: only a payment not yet completed can be canceled.`)
    await confirm(session, `cancel ${p.id} (${money(p.amount, p.currency)}), releasing any hold`)
    const after = await send(session, 'cancel', () => session.client.payments.cancel(p.id))
    return `${after.id} is ${after.status}.`
  })
}

export function acceptDispute(session: ConsoleSession, dp: Dispute): Promise<string> {
  return attempt(async () => {
    mayOrSay(session, 'accept the dispute', ['disputes:write'])
    const why = notActionableReason(dp)
    if (why) throw new NotDone(why)
    await confirm(session, `accept ${dp.id}: the debit of ${money(dp.amount, dp.currency)} stands and no evidence can be sent`)
    const after = await send(session, 'accept the dispute', () => explained(session.client, dp.id, () => session.client.disputes.accept(dp.id)))
    return `${after.id} is ${after.status}.`
  })
}

/** Sends evidence the person reviewed in the form (the form's own review is the confirmation; a live key types "live" too). */
export function submitEvidence(session: ConsoleSession, dp: Dispute, ev: EvidenceParams, onSent?: () => void): Promise<string> {
  return attempt(async () => {
    if (session.mode === 'live') await confirm(session, `submit this evidence for ${dp.id}`)
    const after = await send(session, 'submit evidence', () => explained(session.client, dp.id, () => session.client.disputes.submitEvidence(dp.id, ev)))
    onSent?.()
    // in test mode only the test helper rules on it (advancing the clock does not: a dispute under review waits for its ruling)
    return `Evidence sent: ${after.id} is ${after.status}. The issuer rules later${session.mode === 'live' ? '' : ` (in test mode: gw disputes resolve ${after.id} --won, --lost or --escalate)`}.`
  })
}

/**
 * Resends an event as `gw events resend` does: to one endpoint (typed, or picked from those it
 * was delivered to), or with Enter to every enabled endpoint subscribed to it (`--all`).
 */
export function resendEvent(session: ConsoleSession, eventId: string, known: readonly string[] = []): Promise<string> {
  return attempt(async () => {
    mayOrSay(session, 'resend the event', ['webhooks:write', 'events:read'])
    const notAnEndpoint = (t: string) => (t !== '' && !/^wh_[0-9A-Za-z]+$/.test(t) ? `"${t}" is not a webhook endpoint id (wh_…). Type one, Enter for every subscribed endpoint, or Esc.` : undefined)
    const typed = (await session.ask(`Resend ${eventId} to which endpoint? Enter: every subscribed endpoint`, {placeholder: known.length ? known.slice(0, 3).join(', ') : 'wh_…', check: notAnEndpoint})).trim()
    const endpoint = typed === '' ? undefined : typed
    if (endpoint !== undefined && notAnEndpoint(endpoint)) throw new NotDone(`Not resent: ${notAnEndpoint(endpoint)}`)
    await confirm(session, endpoint ? `send ${eventId} again to ${endpoint}` : `send ${eventId} again to every endpoint subscribed to it`)
    const list = await send(session, 'resend the event', () => session.client.events.resend(eventId, endpoint ? {endpoint} : {all: true}))
    return list.data.length ? `${list.data.length} new ${list.data.length === 1 ? 'delivery' : 'deliveries'}: ${list.data.map((d) => `${d.id} to ${d.endpoint}`).join(', ')}.` : 'No enabled endpoint is subscribed to it: nothing was sent.'
  })
}

export function replayEndpoint(session: ConsoleSession, w: WebhookEndpoint): Promise<string> {
  return attempt(async () => {
    mayOrSay(session, 'replay', ['webhooks:write', 'events:read'])
    if (w.disabled) throw new NotDone(`${w.id} is disabled: enable it first (E), then replay.`)
    const durationError = (t: string) => {
      if (!t) return undefined
      try {
        parseDuration(t, 'since')
        return undefined
      } catch (error) {
        return `${(error as Error).message} Type another (30m, 2h, 1d), or Esc.`
      }
    }
    const typed = (await session.ask(`Replay to ${w.id} what it should have received since how long ago?`, {placeholder: 'e.g. 30m, 2h, 1d', check: durationError})).trim()
    if (!typed) return 'Not replayed; nothing was sent.'
    let seconds: number
    try {
      seconds = parseDuration(typed, 'since')
    } catch (error) {
      throw new NotDone(`Not replayed: ${(error as Error).message}`)
    }
    const since = new Date(session.engineNow().getTime() - seconds * 1000).toISOString()
    await confirm(session, `send ${w.id} again every event of the last ${span(seconds)} (since ${since.slice(0, 19)}Z, engine clock)`)
    const r = await send(session, 'replay', () => session.client.webhookEndpoints.replay(w.id, {since}))
    const skipped = r.skipped.already_received + r.skipped.event_expired
    return `Replay to ${w.id}: ${r.queued} queued, ${r.rescheduled} rescheduled${skipped ? `, ${r.skipped.already_received} already received, ${r.skipped.event_expired} expired` : ''}.`
  })
}

export function setEndpointDisabled(session: ConsoleSession, w: WebhookEndpoint, disabled: boolean): Promise<string> {
  return attempt(async () => {
    mayOrSay(session, disabled ? 'disable the endpoint' : 'enable the endpoint', ['webhooks:write'])
    if (w.disabled === disabled) return `${w.id} is already ${disabled ? 'disabled' : 'enabled'}.`
    await confirm(session, `${disabled ? 'disable' : 'enable'} ${w.id} (${w.url})${disabled ? ': it gets no deliveries until enabled' : ''}`, 'nothing was changed')
    const after = await send(session, disabled ? 'disable the endpoint' : 'enable the endpoint', () => session.client.webhookEndpoints.update(w.id, {disabled}))
    return `${after.id} is ${after.disabled ? 'disabled' : after.status ?? 'enabled'}.`
  })
}

