// The console's keys, one table for the footer, the `?` overlay and `gw console --help`: no Ink
// here, so the command's help (read at build time for the manifest) loads none.

export const VIEWS = ['home', 'payments', 'disputes', 'events', 'webhooks', 'gateway'] as const
export type ViewName = (typeof VIEWS)[number]

export const VIEW_TITLES: Record<ViewName, string> = {
  home: 'Home',
  payments: 'Payments',
  disputes: 'Disputes',
  events: 'Events',
  webhooks: 'Webhooks',
  gateway: 'Gateway',
}

/** What each view is for, in a line (the `:` jump list and --help). */
export const VIEW_SUMMARIES: Record<ViewName, string> = {
  home: 'what needs attention now: disputes due, failing webhooks, degraded providers, chaos, payments in review',
  payments: 'search by id, reference, email, name, last four or amount; open one for attempts, timeline and actions',
  disputes: 'the queue by due date, the evidence checklist and form, accept; the outcome once the clock moves',
  events: 'the live event stream: filter, pause, open one for its payload and deliveries, resend',
  webhooks: 'endpoints with health, failing since, latest deliveries; replay since a time; enable or disable',
  gateway: 'each instance from the request log: req/s, p50/p99, 5xx, readiness; providers, backlog, chaos',
}

export interface KeyHelp {
  keys: string
  does: string
}

/** Keys that work everywhere (unless a text field has the keyboard: then Esc leaves it first). */
export const GLOBAL_KEYS: readonly KeyHelp[] = [
  {keys: '↑ ↓ / j k', does: 'move (the mouse wheel too, where the terminal sends it as arrows)'},
  {keys: 'PgUp PgDn / g G', does: 'a page up or down / the first or last row'},
  {keys: 'Enter', does: 'open the selected row'},
  {keys: 'Esc', does: 'back (or leave a text field)'},
  {keys: '/', does: 'search or filter this view (a filter narrows as you type; Esc clears it before leaving; it goes when you leave the view)'},
  {keys: 's / S', does: 'sort a list by its next column / the other way'},
  {keys: ':', does: 'jump to a view by name or alias (:pay, :dp, :ev, :wh, :gw …), to an object by its id (:pay_…, :dp_…, :evt_…, :wh_…); :q quits; Tab completes'},
  {keys: '1-6', does: 'jump to Home, Payments, Disputes, Events, Webhooks, Gateway'},
  {keys: 'r', does: 'refresh this view now'},
  {keys: 'c', does: "copy the selected (or shown) id to the terminal's clipboard (OSC 52)"},
  {keys: '?', does: 'the keys of this view'},
  {keys: 'q / Ctrl-C', does: 'quit (the terminal is left as it was found)'},
]

/** Keys of each view and of the screens it opens. */
export const VIEW_KEYS: Record<string, readonly KeyHelp[]> = {
  home: [{keys: 'Enter', does: 'open the line: the dispute, endpoint, provider or payment it is about'}],
  payments: [
    {keys: '/', does: 'search: pay_… id, reference, email (any case), @domain, name, last four digits, amount (12.50 EUR)'},
    {keys: 'Enter', does: 'open the payment'},
  ],
  payment: [
    {keys: 'f', does: 'refund (in full or part: type the amount, Enter for all that is left)'},
    {keys: 'C', does: 'capture (requires_capture)'},
    {keys: 'x', does: 'cancel (requires_confirmation, requires_action, requires_capture)'},
    {keys: 't', does: 'the timeline (events, refunds, disputes, webhook attempts) or the details'},
    {keys: 'd', does: 'open its dispute'},
  ],
  disputes: [
    {keys: '/', does: 'filter by id, payment, reason or status'},
    {keys: 'a', does: 'all disputes, or only those that need a response'},
    {keys: 'Enter', does: 'open the dispute'},
  ],
  dispute: [
    {keys: 'e', does: 'answer: the evidence form (a paste keeps every line; a review before anything is sent; a draft is kept until sent; Ctrl-C asks as Esc does)'},
    {keys: 'A', does: 'accept the dispute (the debit stands)'},
    {keys: 'p', does: 'open its payment'},
  ],
  events: [
    {keys: 'space / p', does: 'pause (new events are held and counted) or resume (the held ones join the list)'},
    {keys: '/', does: 'filter: a type or prefix (payment.*, payment, refund.failed) and/or an object id (pay_…: its refunds and disputes too)'},
    {keys: 'Enter', does: 'open the event: its payload and deliveries'},
    {keys: 'G', does: 'follow the newest again (newest at the bottom, as gw events tail)'},
    {keys: 'r', does: 'restart the stream'},
  ],
  event: [
    {keys: '↑ ↓ PgUp PgDn', does: 'scroll the payload'},
    {keys: 's', does: 'resend: to an endpoint (wh_…) or, with Enter, to every subscribed endpoint'},
  ],
  webhooks: [{keys: 'Enter', does: 'open the endpoint: its details and latest deliveries'}],
  webhook: [
    {keys: '↑ ↓', does: 'scroll the deliveries'},
    {keys: 'R', does: 'replay what it should have received since a time (30m, 2h, 1d)'},
    {keys: 'E / D', does: 'enable / disable the endpoint'},
  ],
  gateway: [
    {keys: '↑ ↓ / j k', does: 'scroll the report (instances, providers, backlog, chaos)'},
    {keys: 'r', does: 'probe readiness and read providers, chaos and /metrics now (live anyway: the request log as it streams, readiness every 2 s)'},
  ],
}

/** The keys section of `gw console --help`. */
export function keysHelp(): string {
  const lines = ['KEYS (everywhere)']
  const row = (k: KeyHelp) => `  ${k.keys.padEnd(18)} ${k.does}`
  lines.push(...GLOBAL_KEYS.map(row))
  for (const [view, keys] of Object.entries(VIEW_KEYS)) {
    lines.push('', `KEYS (${view})`, ...keys.map(row))
  }
  lines.push('', 'VIEWS', ...VIEWS.map((v, i) => `  ${String(i + 1)} :${v.padEnd(16)} ${VIEW_SUMMARIES[v]}`))
  return lines.join('\n')
}

/** A view named at `:`: its name or a prefix of it, or "gw" for the gateway. */
export function matchView(text: string): ViewName | undefined {
  const t = text.trim().replace(/^:/, '').toLowerCase()
  if (!t) return undefined
  if (t === 'gw' || t === 'instances' || t === 'ops') return 'gateway'
  if (t === 'hooks' || t === 'wh') return 'webhooks'
  if (t === 'dp' || t === 'dispute') return 'disputes'
  if (t === 'pay' || t === 'payment') return 'payments'
  if (t === 'ev' || t === 'evt' || t === 'event') return 'events'
  return VIEWS.find((v) => v === t) ?? VIEWS.find((v) => v.startsWith(t))
}

/** An object typed at `:` (`:pay_…`, `:dp_…`, `:evt_…`, `:wh_…`): the view that shows it, and its tab. */
export function matchObject(text: string): {view: 'payment' | 'dispute' | 'event' | 'webhook'; tab: ViewName; id: string} | undefined {
  const id = text.trim().replace(/^:/, '')
  const m = /^(pay|dp|evt|wh)_[0-9A-Za-z]+$/.exec(id)
  if (!m) return undefined
  const of = {pay: ['payment', 'payments'], dp: ['dispute', 'disputes'], evt: ['event', 'events'], wh: ['webhook', 'webhooks']} as const
  const [view, tab] = of[m[1] as keyof typeof of]
  return {view, tab, id}
}

