// What the Payments search box means: the one thing a customer said, mapped to the API's
// filters of GET /v1/payments. A payment id opens it; an email finds the customer's payments
// (compared case-insensitively by the API); "@shop.example" a whole email domain; four digits
// the card's last four; a decimal or an amount with a currency the amount (the API has no amount
// filter: the newest pages are scanned, and the view says so); other words a reference, else
// the customer's name. A prefix says which outright: ref:, email:, name:, last4:, amount:.
import {parseDisplayAmount} from '../../api/money.js'
import type {Payment} from '../../api/types.js'

export type Search =
  | {kind: 'all'}
  | {kind: 'id'; id: string}
  | {kind: 'email'; email: string; lowered?: boolean}
  | {kind: 'domain'; domain: string}
  | {kind: 'last4'; last4: string}
  | {kind: 'amount'; text: string; currency?: string}
  | {kind: 'reference'; reference: string; prefix: boolean}
  | {kind: 'name'; name: string}
  /** any part of a customer's name or email, folded (accents, ø, æ, ß): the customers are read and matched here */
  | {kind: 'anyName'; name: string}
  /** words that are a reference or a name: the reference first, then the name */
  | {kind: 'words'; text: string}

export function parseSearch(raw: string): Search {
  const text = raw.trim()
  if (!text) return {kind: 'all'}
  const prefixed = /^(ref|reference|email|name|last4|amount|domain|id):\s*(.+)$/i.exec(text)
  if (prefixed) {
    const v = prefixed[2]!.trim()
    switch (prefixed[1]!.toLowerCase()) {
      case 'ref':
      case 'reference':
        return v.endsWith('*') ? {kind: 'reference', reference: v.slice(0, -1), prefix: true} : {kind: 'reference', reference: v, prefix: false}
      case 'email':
        return {kind: 'email', email: v}
      case 'domain':
        return {kind: 'domain', domain: v.replace(/^@/, '')}
      case 'name':
        // one character is less than the API's name filter takes: matched here
        return Array.from(v).length < 2 ? {kind: 'anyName', name: v} : {kind: 'name', name: v}
      case 'last4':
        return {kind: 'last4', last4: v}
      case 'amount':
        return amountSearch(v) ?? {kind: 'amount', text: v}
      case 'id':
        return {kind: 'id', id: v}
    }
  }
  if (/^pay_\w+$/.test(text)) return {kind: 'id', id: text}
  if (/^\*?@[^\s@]+\.[^\s@]+$/.test(text)) return {kind: 'domain', domain: text.replace(/^\*?@/, '')}
  if (/^[^\s@]+@[^\s@]+$/.test(text)) return {kind: 'email', email: text}
  if (/^\d{4}$/.test(text)) return {kind: 'last4', last4: text}
  const amount = amountSearch(text)
  if (amount) return amount
  if (text.endsWith('*') && !/\s/.test(text)) return {kind: 'reference', reference: text.slice(0, -1), prefix: true}
  return {kind: 'words', text}
}

/** "12.50", "12.50 EUR", "EUR 12.50", "€12.50", "1250 JPY": an amount; bare digits are not (a last four, a reference). */
function amountSearch(text: string): Search | undefined {
  const m = /^(?:([A-Za-z]{3})\s*)?[€$£¥]?\s*(\d+(?:[.,]\d{1,3})?)\s*(?:([A-Za-z]{3}))?$/.exec(text)
  if (!m) return undefined
  const currency = (m[1] ?? m[3])?.toUpperCase()
  if (!currency && !/[.,]/.test(m[2]!) && !/^[€$£¥]/.test(text)) return undefined
  return {kind: 'amount', text: m[2]!.replace(',', '.'), currency}
}

/** Whether a payment has the amount searched: in its own currency's decimals. */
export function amountMatches(p: Pick<Payment, 'amount' | 'currency'>, s: {text: string; currency?: string}): boolean {
  if (s.currency && s.currency !== p.currency.toUpperCase()) return false
  try {
    return parseDisplayAmount(s.text, p.currency) === p.amount
  } catch {
    return false
  }
}

/** The search in words, for the line above the list. */
export function describeSearch(s: Search): string {
  switch (s.kind) {
    case 'all':
      return 'all payments, newest first'
    case 'id':
      return `payment ${s.id}`
    case 'email':
      return s.lowered ? `customer email ${s.email} (as typed it found none: searched in lower case)` : `customer email ${s.email}`
    case 'domain':
      return `customer emails at ${s.domain}`
    case 'last4':
      return `cards ending ${s.last4}`
    case 'amount':
      return `amount ${s.text}${s.currency ? ` ${s.currency}` : ''}`
    case 'reference':
      return s.prefix ? `references starting ${s.reference}` : `reference ${s.reference}`
    case 'name':
      return `customer name ${s.name}`
    case 'anyName':
      return `customer name or email containing "${s.name}" (accents, ø, æ and ß folded; the API matches only a name's start or its last word: the first ${ANY_NAME_CUSTOMERS.toLocaleString('en-US')} customers were read and matched here)`
    case 'words':
      return `reference or customer name "${s.text}"`
  }
}

/**
 * The query parameters of GET /v1/payments for a search (undefined: not a list search). The
 * names of the newer filters (card last four, customer name, email domain) are those
 * docs/api.md#the-support-agent gives them: card_last4, customer_name, email_domain.
 */
export function searchParams(s: Search): Record<string, string> | undefined {
  switch (s.kind) {
    case 'all':
    case 'amount':
      return {}
    case 'id':
      return undefined
    case 'email':
      return {customer_email: s.email}
    case 'domain':
      return {email_domain: s.domain}
    case 'last4':
      return {card_last4: s.last4}
    case 'reference':
      return s.prefix ? {reference_prefix: s.reference} : {reference: s.reference}
    case 'name':
      return {customer_name: s.name}
    case 'anyName':
      return undefined
    case 'words':
      return {reference: s.text}
  }
}

/**
 * What to search next when a search found nothing: words that are no reference may be a
 * customer's name; an email typed in mixed case is tried in lower case (an engine whose
 * customer_email filter compares exactly, an older one, still finds the usual lower-case one).
 */
export function fallbackSearch(s: Search): Search | undefined {
  // a name the API's filter does not find (a part after a hyphen, Ørsted typed orsted, one character): any part of it, here
  if (s.kind === 'words') return Array.from(s.text).length < 2 ? {kind: 'anyName', name: s.text} : {kind: 'name', name: s.text}
  if (s.kind === 'name') return {kind: 'anyName', name: s.name}
  if (s.kind === 'email' && !s.lowered && s.email !== s.email.toLowerCase()) return {kind: 'email', email: s.email.toLowerCase(), lowered: true}
  return undefined
}

/** Most customers read to match a name here (the API pages them 100 at a time). */
export const ANY_NAME_CUSTOMERS = 2000

/** Letters that do not come apart into a letter and its accent, as a person types them without it. */
const FOLDED: Record<string, string> = {ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h'}

/** A text as a person types it to find it: accents dropped, ø æ ß and their kin spelt out, in lower case, spaces collapsed. */
export function foldText(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[øæœßłđðþıħ]/g, (c) => FOLDED[c] ?? c)
    .replace(/\s+/g, ' ')
    .trim()
}

/** A customer matches a name typed: any part of the name or the email, folded. */
export function customerMatches(c: {name?: string | null; email?: string | null}, typed: string): boolean {
  const want = foldText(typed)
  return want !== '' && (foldText(c.name).includes(want) || foldText(c.email).includes(want))
}

