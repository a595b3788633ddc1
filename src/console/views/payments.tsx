// Payments: a search box over the API's filters, a list that pages as you scroll, and a
// payment's view: its details (provider attempts, refunds, disputes), its timeline, and the
// actions refund, capture and cancel, each confirmed as the CLI confirms money movements.
import {Box} from 'ink'
import {useEffect, useState} from 'react'
import type {Customer, Dispute, Payment, Refund} from '../../api/types.js'
import {painter} from '../../output/color.js'
import {Text} from '../../ui/text.js'
import {renderPayment} from '../../commands/payments/shared/display.js'
import {buildTimeline, renderTimeline} from '../../commands/payments/shared/timeline.js'
import type {Unavailable} from '../../commands/payments/shared/unavailable.js'
import {Age, Lines, moveKey, Problem, Title, useCached, useEmitter, useFrame, useKeys, useResource, useRoute} from '../frame.js'
import {money, shortTime} from '../format.js'
import type {Column} from './list/columns.js'
import {newListState, ResourceList, type ListState} from './list/list.js'
import {PagedList} from '../models/paging.js'
import {anyNamePayments, CustomerBook} from '../models/customers.js'
import {amountMatches, describeSearch, fallbackSearch, parseSearch, searchParams, type Search} from '../models/search.js'
import {CANCELABLE, capturePayment, cancelPayment, refundable, refundPayment} from '../actions.js'
import {Resource, type ConsoleSession} from '../session.js'

interface PaymentsState extends ListState {
  list: PagedList<Payment>
  search: Search
}

/** What the API is asked for a search; the amount, which it cannot filter, is matched page by page. */
export function paymentSource(session: ConsoleSession, search: Search) {
  if (search.kind === 'anyName') return anyNamePayments(session, search.name)
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

/** 80 columns: id, status, amount, reference, created; the method and the customer (name and email) where there is room. */
export function paymentColumns(now: Date, customers?: CustomerBook): Column<Payment>[] {
  const wide = (a: number, b: number) => (total: number) => (total >= 100 ? a : b)
  return [
    {title: 'ID', width: wide(30, 22), id: true, cell: (p) => p.id},
    {title: 'STATUS', width: wide(18, 16), cell: (p) => p.status, sort: (p) => p.status},
    {title: 'AMOUNT', width: wide(16, 14), align: 'right', cell: (p) => money(p.amount, p.currency), sort: (p) => p.amount},
    {title: 'METHOD', width: wide(8, 0), optional: true, cell: (p) => p.payment_method},
    {title: 'REFERENCE', width: 0, grow: true, cell: (p) => p.reference ?? '', sort: (p) => p.reference ?? ''},
    // who the payment is from, to confirm the person (read beside the payment: it carries the id only)
    ...(customers ? [{title: 'CUSTOMER', width: (t: number) => (t >= 140 ? 34 : t >= 110 ? 24 : 0), optional: true, cell: (p: Payment) => customers.label(p.customer) ?? '…'}] : []),
    {title: 'CREATED', width: 12, optional: true, cell: (p) => shortTime(p.created_at, now), sort: (p) => p.created_at},
  ]
}

export function PaymentsView() {
  const {session, theme} = useFrame()
  const st = useCached<PaymentsState>('payments', () => {
    const search: Search = {kind: 'all'}
    const list = new PagedList<Payment>(session, paymentSource(session, search))
    void list.more()
    const st: PaymentsState = {
      ...newListState(),
      list,
      search,
      // a jump to another view: the search goes (all payments again when it comes back)
      leave() {
        if (!st.query) return
        st.query = ''
        st.sel = 0
        st.top = 0
        st.search = {kind: 'all'}
        st.list.reset(paymentSource(session, st.search))
      },
    }
    return st
  })
  const list = st.list
  const customers = useCached('customers', () => new CustomerBook(session))
  useEmitter(list)
  useEmitter(session)
  useEmitter(customers)
  const rows = list.rows

  // a "words" search that is no reference: the customer's name next, then any part of it (read
  // here); an email in mixed case that found nothing: in lower case (an older engine
  // compares emails exactly)
  useEffect(() => {
    if (list.loading || list.hasMore || rows.length > 0 || list.error) return
    const next = fallbackSearch(st.search)
    if (!next) return
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

  const problem = unsupported(st.search, list.error)
  // "loading" only where the rows shown wait on it (a page fetched ahead is not news)
  const status = list.loading && list.waiting
    ? `${rows.length.toLocaleString('en-US')} loaded, loading more…`
    : `${rows.length.toLocaleString('en-US')} ${rows.length === 1 ? 'payment' : 'payments'}${list.hasMore ? ', more below' : ''}${list.scanCapped ? ` (scanned the newest ${list.scanned.toLocaleString('en-US')}: the API has no amount filter)` : st.search.kind === 'amount' ? ` (matched in ${list.scanned.toLocaleString('en-US')} scanned: the API has no amount filter)` : ''}`
  return (
    <ResourceList
      state={st}
      data={list}
      columns={paymentColumns(session.engineNow(), customers)}
      search={{
        label: 'Search',
        placeholder: 'pay_… · email · @domain · name · last four · 12.50 EUR · ref:ORDER',
        hint: 'pay_… · email · @domain · name · 4242 · 12.50 EUR · ref:…',
        describe: (q) => (q ? `${q}  → ${describeSearch(st.search)}` : '/ to search · all payments, newest first'),
        apply(query) {
          const search = parseSearch(query)
          if (search.kind === 'id') return {view: 'payment', id: search.id}
          st.search = search
          list.reset(paymentSource(session, search))
        },
      }}
      open={(p) => ({view: 'payment', id: p.id})}
      idOf={(p) => p.id}
      tone={(p) => theme.status(p.status)}
      status={status}
      empty={`No payment matches ${describeSearch(st.search)}.`}
      notice={problem ? {text: problem, color: theme.tone('warn')} : undefined}
    />
  )
}

// ----- one payment

interface PaymentDetail {
  payment: Payment
  refunds: Refund[] | {permission: string}
  disputes: Dispute[] | {permission: string}
  /** its customer's name and email (the payment carries the id only), or why not */
  customer?: Customer | {permission: string}
}

export function paymentResource(session: ConsoleSession, id: string): Resource<PaymentDetail> {
  const c = session.client
  return new Resource(
    session,
    async () => {
      const payment = await c.payments.get(id)
      const customerId = payment.customer
      const [refunds, disputes, customer] = await Promise.all([
        session.call(async () => (await c.refunds.list({payment: id, limit: 100})).data),
        session.call(async () => (await c.disputes.list({payment: id, limit: 100})).data),
        customerId ? session.call(() => c.customers.get(customerId)) : Promise.resolve(undefined),
      ])
      const or = <T,>(o: {ok: boolean; permission?: string; message?: string}, f: () => T) => (o.ok ? f() : {permission: o.permission ?? o.message ?? ''})
      return {
        payment,
        refunds: or(refunds, () => (refunds.ok ? refunds.value : [])),
        disputes: or(disputes, () => (disputes.ok ? disputes.value : [])),
        ...(customer ? {customer: or(customer, () => (customer.ok ? customer.value : ({} as Customer)))} : {}),
      }
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
  // the person, beside the customer's id: an agent confirms who they are speaking to
  const at = lines.findIndex((l) => /^\s+Customer\s/.test(l))
  const label = at >= 0 ? /^(\s+)(Customer\s+)/.exec(lines[at]!) : null
  if (d.customer && label) {
    const who = 'permission' in d.customer ? `not shown: this key needs ${d.customer.permission}` : [d.customer.name, d.customer.email ? `<${d.customer.email}>` : ''].filter(Boolean).join(' ') || 'no name or email'
    lines.splice(at + 1, 0, `${label[1]}${'Name'.padEnd(label[2]!.length)}${who}`)
  }
  if (!Array.isArray(d.refunds)) lines.push(`  Refunds not shown: this key needs ${d.refunds.permission}`)
  if (!Array.isArray(d.disputes)) lines.push(`  Disputes not shown: this key needs ${d.disputes.permission}`)
  return lines
}

/** What the timeline leaves out, as the CLI says it: each part and the permission that shows it. */
export function unavailableLine(unavailable: readonly Unavailable[]): string {
  const denied = unavailable.filter((u) => u.permission)
  const failed = unavailable.filter((u) => !u.permission)
  return [
    denied.length ? `Not shown, this key may not read them: ${denied.map((u) => `${u.what} (needs ${u.permission})`).join(', ')}.` : '',
    ...failed.map((u) => `Not shown: ${u.what} could not be read (${u.error}).`),
  ]
    .filter(Boolean)
    .join(' ')
}

export function PaymentView() {
  const {session, theme, height, open, copy} = useFrame()
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
      if (input === 'C') return void act('capture', () => capturePayment(session, p)), true
      if (input === 'c') return copy(id), true
      if (input === 'x') return void act('cancel', () => cancelPayment(session, p)), true
      if (input === 'd' && dispute) return open({view: 'dispute', id: dispute.id}), true
      return false
    },
    [
      ['↑↓', 'scroll'],
      ['t', tab === 'details' ? 'timeline' : 'details'],
      // only the actions its status allows (a succeeded payment cannot be captured)
      ...(p?.status === 'succeeded' && refundable(p) > 0 ? [['f', 'refund'] as const] : []),
      ...(p?.status === 'requires_capture' ? [['C', 'capture'] as const] : []),
      ...(p && CANCELABLE.includes(p.status) ? [['x', 'cancel'] as const] : []),
      ...(dispute ? [['d', 'dispute'] as const] : []),
      ['c', 'copy id'],
      ['r', 'reload'],
    ],
  )

  const shownAge = tab === 'details' ? res : timeline
  return (
    <Box flexDirection="column">
      <Title right={<Age of={shownAge} />}>
        {`${id}${p ? `  ${p.status}  ${money(p.amount, p.currency)}` : ''}  ·  ${tab === 'details' ? 'details' : 'timeline (engine clock)'}`}
      </Title>
      {busy ? <Text color={theme.tone('info')}>{`${busy}…`}</Text> : null}
      {res.permission || (res.error && !d) ? <Problem message={res.error ?? ''} permission={res.permission} /> : null}
      {tab === 'timeline' && timeline.permission ? <Problem message={timeline.error ?? ''} permission={timeline.permission} /> : null}
      {tab === 'timeline' && timeline.error && !timeline.permission ? <Text color={theme.tone('bad')}>{timeline.error}</Text> : null}
      {tab === 'timeline' && timeline.value?.unavailable.length ? (
        <Text color={theme.tone('warn')} wrap="truncate">
          {unavailableLine(timeline.value.unavailable)}
        </Text>
      ) : null}
      <Lines lines={lines} top={top} height={page} />
    </Box>
  )
}
