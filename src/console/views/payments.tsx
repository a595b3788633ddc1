// Payments: a search box over the API's filters, a list that pages as you scroll, and a
// payment's view: its details (provider attempts, refunds, disputes), its timeline, and the
// actions refund, capture and cancel, each confirmed as the CLI confirms money movements.
import {Box} from 'ink'
import {useEffect, useState} from 'react'
import type {Dispute, Payment, Refund} from '../../api/types.js'
import {painter} from '../../output/color.js'
import {Text} from '../../ui/text.js'
import {renderPayment} from '../../commands/payments/shared/display.js'
import {buildTimeline, renderTimeline} from '../../commands/payments/shared/timeline.js'
import {Age, LineInput, useTextField, Lines, moveKey, PaintedList, Problem, Title, useCached, useEmitter, useFrame, useKeys, useResource, useRoute} from '../frame.js'
import type {PaintedLine} from '../painter.js'
import {fit, fitId, money, scrollWindow, shortTime} from '../format.js'
import {PagedList} from '../models/paging.js'
import {amountMatches, describeSearch, fallbackSearch, parseSearch, searchParams, type Search} from '../models/search.js'
import {capturePayment, cancelPayment, refundPayment} from '../actions.js'
import {Resource, type ConsoleSession} from '../session.js'

interface PaymentsState {
  list: PagedList<Payment>
  query: string
  search: Search
  /** a "words" search that found no reference went on to the customer's name */
  fellBack: boolean
  sel: number
  top: number
}

/** What the API is asked for a search; the amount, which it cannot filter, is matched page by page. */
export function paymentSource(session: ConsoleSession, search: Search) {
  const params = searchParams(search) ?? {}
  return {
    page: (cursor: string | undefined, limit: number) => session.client.payments.list({...params, limit, ...(cursor ? {starting_after: cursor} : {})} as Parameters<typeof session.client.payments.list>[0]),
    keep: search.kind === 'amount' ? (p: Payment) => amountMatches(p, search) : undefined,
    scanLimit: search.kind === 'amount' ? 2000 : undefined,
  }
}

/** A filter this engine's GET /v1/payments does not have yet, in words (the API answered 400 naming it). */
function unsupported(search: Search, error: string | undefined): string | undefined {
  if (!error) return undefined
  const names: Partial<Record<Search['kind'], string>> = {last4: 'card_last4', domain: 'email_domain', name: 'customer_name'}
  const param = names[search.kind]
  if (param && error.includes(param)) return `This engine cannot search payments by ${describeSearch(search).replace(/ .*/, '')} yet: GET /v1/payments has no ${param} filter. Search by reference, email or id, or update the engine.`
  return undefined
}

export function PaymentsView() {
  const {session, theme, height, width, open} = useFrame()
  const st = useCached<PaymentsState>('payments', () => {
    const search: Search = {kind: 'all'}
    const list = new PagedList<Payment>(session, paymentSource(session, search))
    void list.more()
    return {list, query: '', search, fellBack: false, sel: 0, top: 0}
  })
  const list = st.list
  useEmitter(list)
  useEmitter(session)
  const [, rerender] = useState(0)
  const field = useTextField()
  const editing = field.editing
  const now = session.engineNow()
  const rows = list.rows
  const listHeight = Math.max(1, height - 4)
  const sel = Math.min(st.sel, Math.max(0, rows.length - 1))
  const first = scrollWindow(rows.length, sel, listHeight, st.top)
  st.top = first
  // what this draw shows: a page that arrives for rows below it waits for the next draw
  list.drawn(first + listHeight)

  // a "words" search that is no reference: the customer's name next; an email in mixed case
  // that found nothing: in lower case (an engine before issue 36 compares emails exactly)
  useEffect(() => {
    if (list.loading || list.hasMore || rows.length > 0 || list.error || st.fellBack) return
    const next = fallbackSearch(st.search)
    if (!next) return
    st.fellBack = true
    st.search = next
    list.reset(paymentSource(session, st.search))
  })
  // the engine came back: the list is read again
  useEffect(() => {
    const unsub = session.subscribe(() => {
      if (session.connection.state === 'live' && list.error === undefined && rows.length === 0 && !list.loading) list.reload()
    })
    return unsub
  })

  const move = (to: number) => {
    st.sel = to
    list.ensure(to)
    rerender((n) => n + 1)
  }

  const apply = (query: string) => {
    field.stop()
    const search = parseSearch(query)
    if (search.kind === 'id') {
      open({view: 'payment', id: search.id})
      return
    }
    st.query = query
    st.search = search
    st.fellBack = false
    st.sel = 0
    st.top = 0
    list.reset(paymentSource(session, search))
    rerender((n) => n + 1)
  }

  useKeys(
    (input, key) => {
      if (field.keys(input, key)) return true
      if (input === 'G' || key.end) {
        void list.all().then(() => move(Math.max(0, list.rows.length - 1)))
        move(Math.max(0, rows.length - 1))
        return true
      }
      const next = moveKey(input, key, sel, rows.length, listHeight)
      if (next !== undefined) return move(next), true
      if (key.return && rows[sel]) return open({view: 'payment', id: rows[sel]!.id}), true
      if (input === 'r') return list.reload(), true
      return false
    },
    editing
      ? [
          ['Enter', 'search'],
          ['Esc', 'cancel'],
          ['', 'pay_… · email · @domain · name · 4242 · 12.50 EUR · ref:…'],
        ]
      : [
          ['/', 'search'],
          ['↑↓ PgUp PgDn', 'move'],
          ['G', 'end'],
          ['Enter', 'open'],
          ['r', 'reload'],
        ],
  )

  // 80 columns: id, status, amount, reference, created; the method where there is room
  const w = {id: width >= 100 ? 30 : 22, status: width >= 100 ? 18 : 16, amount: width >= 100 ? 16 : 14, method: width >= 100 ? 7 : 0, created: 12}
  const refWidth = Math.max(0, width - w.id - w.status - w.amount - w.method - w.created - 1)
  const head = `${fit('ID', w.id)}${fit('STATUS', w.status)}${fit('AMOUNT', w.amount)}${fit('METHOD', w.method)}${fit('REFERENCE', refWidth)}${fit('CREATED', w.created)}`
  const problem = unsupported(st.search, list.error)
  const lines = (): PaintedLine[] =>
    rows.slice(first, first + listHeight).map((p, i) => {
      const selected = first + i === sel
      return {text: paymentRow(p, w, refWidth, now), inverse: selected, color: selected ? undefined : theme.status(p.status)}
    })
  // "loading" only where the rows shown wait on it (a page fetched ahead is not news)
  const status = list.loading && list.waiting
    ? `${rows.length.toLocaleString('en-US')} loaded, loading more…`
    : `${rows.length.toLocaleString('en-US')} ${rows.length === 1 ? 'payment' : 'payments'}${list.hasMore ? ', more below' : ''}${list.scanCapped ? ` (scanned the newest ${list.scanned.toLocaleString('en-US')}: the API has no amount filter)` : st.search.kind === 'amount' ? ` (matched in ${list.scanned.toLocaleString('en-US')} scanned: the API has no amount filter)` : ''}`
  return (
    <Box flexDirection="column">
      <Box>
        <Box flexShrink={0}>
          <Text bold>{'Search '}</Text>
        </Box>
        {editing ? (
          <LineInput initial={st.query} placeholder="pay_… · email · @domain · name · last four · 12.50 EUR · ref:ORDER" onSubmit={apply} />
        ) : (
          <Box justifyContent="space-between" flexGrow={1}>
            <Box flexShrink={1}>
              <Text dimColor wrap="truncate">{st.query ? `${st.query}  → ${describeSearch(st.search)}` : '/ to search · all payments, newest first'}</Text>
            </Box>
            <Age at={list.at} loading={list.loading} error={list.error} />
          </Box>
        )}
      </Box>
      <Text bold wrap="truncate">
        {head}
      </Text>
      {list.permission ? <Problem message={list.error ?? ''} permission={list.permission} /> : problem ? <Text color={theme.tone('warn')} wrap="wrap">{problem}</Text> : list.error ? <Text color={theme.tone('bad')}>{list.error}</Text> : null}
      {!list.loading && rows.length === 0 && !list.error ? <Text dimColor>{`No payment matches ${describeSearch(st.search)}.`}</Text> : null}
      <PaintedList height={Math.max(0, Math.min(listHeight, rows.length - first))} lines={lines} />
      <Text dimColor wrap="truncate">
        {status}
      </Text>
    </Box>
  )
}

/** A row's text (painted by the frame's painter, not Ink: every row changes on PageDown). */
function paymentRow(p: Payment, w: {id: number; status: number; amount: number; method: number; created: number}, refWidth: number, now: Date): string {
  return `${fitId(p.id, w.id - 1)} ${fit(p.status, w.status)}${fit(money(p.amount, p.currency), w.amount - 1, 'right')} ${fit(p.payment_method, w.method)}${fit(p.reference, refWidth)}${fit(shortTime(p.created_at, now), w.created)}`
}

// ----- one payment

interface PaymentDetail {
  payment: Payment
  refunds: Refund[] | {permission: string}
  disputes: Dispute[] | {permission: string}
}

export function paymentResource(session: ConsoleSession, id: string): Resource<PaymentDetail> {
  const c = session.client
  return new Resource(
    session,
    async () => {
      const payment = await c.payments.get(id)
      const [refunds, disputes] = await Promise.all([session.call(async () => (await c.refunds.list({payment: id, limit: 100})).data), session.call(async () => (await c.disputes.list({payment: id, limit: 100})).data)])
      const or = <T,>(o: Awaited<typeof refunds> | Awaited<typeof disputes>, f: () => T) => (o.ok ? f() : {permission: o.permission ?? o.message})
      return {payment, refunds: or(refunds, () => (refunds.ok ? refunds.value : [])), disputes: or(disputes, () => (disputes.ok ? disputes.value : []))}
    },
    {refreshMs: 5000},
  )
}

const plain = painter(false)

/** The payment's lines: the CLI's own detail view, and what could not be read with the permission that shows it. */
export function paymentLines(d: PaymentDetail): string[] {
  const refunds = Array.isArray(d.refunds) ? d.refunds : undefined
  const disputes = Array.isArray(d.disputes) ? d.disputes : undefined
  const lines = renderPayment(d.payment, plain, {refunds, disputes}).split('\n')
  if (!Array.isArray(d.refunds)) lines.push(`  Refunds not shown: this key needs ${d.refunds.permission}`)
  if (!Array.isArray(d.disputes)) lines.push(`  Disputes not shown: this key needs ${d.disputes.permission}`)
  return lines
}

export function PaymentView() {
  const {session, theme, height, open} = useFrame()
  const route = useRoute()
  const id = route.id!
  const res = useResource(useCached(`payment:${id}`, () => paymentResource(session, id)))
  const timeline = useResource(useCached(`timeline:${id}`, () => new Resource(session, () => buildTimeline(session.client, id, {webhooks: true}), {refreshMs: 10_000})))
  const [tab, setTab] = useState<'details' | 'timeline'>('details')
  const [top, setTop] = useState(0)
  const [busy, setBusy] = useState('')
  const d = res.value
  const p = d?.payment
  const lines = tab === 'details' ? (d ? paymentLines(d) : []) : timeline.value ? renderTimeline(timeline.value.payment, timeline.value.timeline, plain).split('\n').slice(2) : []
  const page = Math.max(1, height - 3)
  const dispute = d && Array.isArray(d.disputes) ? d.disputes[0] : undefined

  const act = async (what: string, fn: () => Promise<string | undefined>) => {
    setBusy(what)
    try {
      const msg = await fn()
      if (msg) session.flash(msg, 'ok')
    } catch (error) {
      session.flash((error as Error).message, 'error')
    } finally {
      setBusy('')
      void res.refresh()
      void timeline.refresh()
    }
  }

  useKeys(
    (input, key) => {
      if (busy) return true
      const next = moveKey(input, key, top, Math.max(1, lines.length - page + 1), page)
      if (next !== undefined) return setTop(next), true
      if (input === 't') return setTab((t) => (t === 'details' ? 'timeline' : 'details')), setTop(0), true
      if (input === 'r') return void res.refresh(), void timeline.refresh(), true
      if (!p) return false
      if (input === 'f') return void act('refund', () => refundPayment(session, p)), true
      if (input === 'c') return void act('capture', () => capturePayment(session, p)), true
      if (input === 'x') return void act('cancel', () => cancelPayment(session, p)), true
      if (input === 'd' && dispute) return open({view: 'dispute', id: dispute.id}), true
      return false
    },
    [
      ['↑↓', 'scroll'],
      ['t', tab === 'details' ? 'timeline' : 'details'],
      ['f', 'refund'],
      ['c', 'capture'],
      ['x', 'cancel'],
      ...(dispute ? [['d', 'dispute'] as const] : []),
      ['r', 'reload'],
    ],
  )

  const shownAge = tab === 'details' ? res : timeline
  return (
    <Box flexDirection="column">
      <Title right={<Age at={shownAge.at} loading={shownAge.loading} error={shownAge.error} />}>
        {`${id}${p ? `  ${p.status}  ${money(p.amount, p.currency)}` : ''}  ·  ${tab === 'details' ? 'details' : 'timeline (engine clock)'}`}
      </Title>
      {busy ? <Text color={theme.tone('info')}>{`${busy}…`}</Text> : null}
      {res.permission || (res.error && !d) ? <Problem message={res.error ?? ''} permission={res.permission} /> : null}
      {tab === 'timeline' && timeline.permission ? <Problem message={timeline.error ?? ''} permission={timeline.permission} /> : null}
      {tab === 'timeline' && timeline.error && !timeline.permission ? <Text color={theme.tone('bad')}>{timeline.error}</Text> : null}
      <Lines lines={lines} top={top} height={page} />
    </Box>
  )
}
