// Events: the live stream (the feed `gw events tail` uses), newest at the bottom as the tail
// reads, following the newest unless you moved up; `/` filters by type prefix and object, space
// or p pauses with a count of what is held, Enter opens an event: its payload (pretty JSON,
// scrollable) and its deliveries, and `s` resends it. The rows are painted by the frame's list
// painter (painter.ts), not by Ink, at most 40 times a second whatever the rate (the model
// batches; twice a second while paused or scrolled up), only the rows on screen and only those
// that changed, each row's text made once per event; Ink redraws the view only when its header,
// notices or footer read differently.
import {closeSync, openSync, writeSync} from 'node:fs'
import {Box} from 'ink'
import {useEffect, useMemo, useState, useSyncExternalStore} from 'react'
import type {GwEvent, WebhookDelivery} from '../../api/types.js'
import {painter} from '../../output/color.js'
import {Text} from '../../ui/text.js'
import {renderEvent} from '../../commands/events/shared/format.js'
import {resendEvent} from '../actions.js'
import {Age, useAction, LineInput, Lines, moveKey, PaintedList, Problem, Row, Title, useCached, useEmitter, useFrame, useKeys, useResource, useRoute, useTextField} from '../frame.js'
import type {PaintedLine} from '../painter.js'
import {fit, fitId, scrollWindow} from '../format.js'
import {headerText, layoutColumns, rowText, type Column} from './list/columns.js'
import {describeEventFilter, eventFilterProblem, EventsModel, parseEventFilter, type EventRow} from '../models/events.js'
import {ageText, Resource, type ConsoleSession} from '../session.js'

interface EventsState {
  model: EventsModel
  /** the selected row by its position since the start (survives the oldest rows dropping) */
  selAbs: number
  /** following the newest (the selection moves with it) */
  follow: boolean
  top: number
}

/**
 * GW_CONSOLE_TRACE=<file>: after each paint of the list, a line per batch of events it shows
 * for the first time: the wall ms of the paint, then each event's created_at and the wall ms the
 * console received it (`created:received`; the bench's lag, split into the engine's part and the
 * console's). Off unless set. Returns what to call after each paint.
 */
function useTrace(model: EventsModel): (() => void) | undefined {
  const path = process.env.GW_CONSOLE_TRACE
  const [fd] = useState(() => (path ? openSync(path, 'a') : undefined))
  model.tracing = fd !== undefined
  useEffect(() => () => (fd === undefined ? undefined : closeSync(fd)), [fd])
  if (fd === undefined) return undefined
  return () => {
    const rows = model.takeArrivals()
    if (rows.length) writeSync(fd, `${Date.now()} ${rows.map((r) => `${Date.parse(r.event.created_at)}:${r.receivedAt}`).join(',')}\n`)
  }
}

/** What the view draws through Ink (all but the rows): it redraws when this reads differently, not at each batch. */
function chromeOf(m: EventsModel): string {
  const f = m.feed
  return [m.paused, m.paused ? m.heldCount : 0, f.state, f.text, f.downSince, m.error, m.permission, m.notice, m.filterText, m.rows.size].join('\u0000')
}

/** The stream's columns: ↺ for a backfilled event, time, type, object, status; the amount takes the rest. */
const EVENT_COLUMNS: readonly Column<EventRow>[] = [
  {title: '', width: 2, cell: (r) => (r.backfilled ? '↺' : '')},
  // the date too (engine clock, UTC): after a clock jump, events of two days read in order
  {title: 'DATE', width: 6, cell: (r) => r.event.created_at.slice(5, 10)},
  {title: 'TIME', width: 9, cell: (r) => r.summary.time},
  {title: 'TYPE', width: (t) => (t >= 100 ? 28 : 20), cell: (r) => r.summary.type},
  {title: 'OBJECT', width: (t) => (t >= 100 ? 30 : 20), id: true, cell: (r) => r.summary.object_id},
  {title: 'STATUS', width: (t) => (t >= 100 ? 18 : 15), cell: (r) => r.summary.status},
  {title: 'AMOUNT', width: 0, grow: true, cell: (r) => r.summary.amount},
]

/** A row's text, made once per event and width (the rows on screen are painted up to 40 times a second). */
const rowTexts = new WeakMap<EventRow, {w: readonly number[]; text: string}>()
function eventRowText(r: EventRow, w: readonly number[]): string {
  const hit = rowTexts.get(r)
  if (hit?.w === w) return hit.text
  const text = rowText(r, EVENT_COLUMNS, w)
  rowTexts.set(r, {w, text})
  return text
}

export function EventsView() {
  const {session, theme, height, width, open, copy} = useFrame()
  const st = useCached<EventsState>('events', () => {
    const model = new EventsModel(session)
    model.start()
    return {model, selAbs: -1, follow: true, top: 0}
  })
  const m = st.model
  // the rows are painted at each batch (PaintedList); the view itself redraws only when its
  // header, notices or footer read differently
  useSyncExternalStore(m.subscribe, () => chromeOf(m))
  useEmitter(session)
  const trace = useTrace(m)
  const [, rerender] = useState(0)
  const field = useTextField()
  const listHeight = Math.max(1, height - 4)
  const w = useMemo(() => layoutColumns(EVENT_COLUMNS, width), [width])

  /** The selection and the first row shown, as of now (the rows change between the view's renders). */
  const place = () => {
    const rows = m.rows
    const base = rows.pushed - rows.size
    const sel = st.follow || st.selAbs < 0 ? rows.size - 1 : Math.max(0, Math.min(rows.size - 1, st.selAbs - base))
    const first = st.follow ? Math.max(0, rows.size - listHeight) : scrollWindow(rows.size, sel, listHeight, st.top)
    st.top = first
    m.following = st.follow
    return {rows, base, sel, first}
  }
  place()

  // the engine came back after the stream stopped for good (a 401 meanwhile, say): start again
  useEffect(() => {
    const unsub = session.subscribe(() => {
      if (session.connection.state === 'live' && m.feed.state === 'down' && m.error && !m.permission) m.start()
    })
    return unsub
  }, [session, m])

  useKeys(
    (input, key) => {
      if (field.keys(input, key)) return true
      if (input === ' ' || input === 'p') return m.togglePause(), true
      if (input === 'G' || key.end) {
        st.follow = true
        return rerender((n) => n + 1), true
      }
      const {rows, base, sel} = place()
      const next = moveKey(input, key, sel, rows.size, listHeight)
      if (next !== undefined) {
        st.follow = next >= rows.size - 1 && !m.paused ? true : false
        st.selAbs = base + next
        return rerender((n) => n + 1), true
      }
      const row = rows.at(sel)
      if (key.return && row) return open({view: 'event', id: row.event.id}), true
      if (input === 'c' && row) return copy(row.event.id), true
      if (input === 'r') return m.start(), true
      return false
    },
    field.editing
      ? [
          ['Enter', 'filter'],
          ['Esc', 'cancel'],
          ['', 'payment.* · refund.failed · pay_… · both'],
        ]
      : [
          ['space/p', m.paused ? 'resume' : 'pause'],
          ['/', 'filter'],
          ['↑↓', 'move'],
          ['G', 'follow'],
          ['Enter', 'open'],
          ['c', 'copy id'],
        ],
  )

  const lines = (): PaintedLine[] => {
    const {rows, sel, first} = place()
    return rows.slice(first, first + listHeight).map((r, i) => {
      const selected = first + i === sel
      return {text: eventRowText(r, w), inverse: selected, color: selected ? undefined : theme.status(r.summary.status)}
    })
  }

  const head = headerText(EVENT_COLUMNS, w)
  const rows = m.rows
  const f = m.feed
  const state = m.paused
    ? `⏸ paused · ${m.heldCount.toLocaleString('en-US')} held`
    : f.state === 'live' || f.state === 'polling'
      ? `● ${f.text}`
      : f.state === 'down'
        ? `○ ${f.text}`
        : '… connecting'
  const stale = f.state === 'down' ? `Stream down since ${ageText(f.downSince, session.now())}: the list is as of ${ageText(f.lastOkAt, session.now())}; missed events are backfilled (↺) when it is back.` : undefined
  const empty = !m.error && rows.size === 0
  return (
    <Box flexDirection="column">
      <Box>
        <Box flexShrink={0}>
          <Text bold>{'Events '}</Text>
        </Box>
        {field.editing ? (
          <LineInput
            initial={m.filterText}
            placeholder="type prefix (payment.*) and/or object id (pay_…); empty: every event"
            onSubmit={(t) => {
              // a type no event has would wait forever: said, with the nearest, and the field stays open
              const problem = eventFilterProblem(parseEventFilter(t))
              if (problem) return session.flash(problem, 'warn')
              field.stop()
              m.setFilter(t)
              st.follow = true
              rerender((n) => n + 1)
            }}
          />
        ) : (
          <Box justifyContent="space-between" flexGrow={1}>
            <Box flexShrink={1}>
              <Text dimColor wrap="truncate">{`${describeEventFilter(m.filter)}${m.filterText ? '' : ' · / to filter'}`}</Text>
            </Box>
            <Box flexShrink={0} marginLeft={1}>
              <Text color={m.paused || f.state === 'down' ? theme.tone('warn') : f.state === 'connecting' ? undefined : theme.tone('ok')} bold={m.paused} wrap="truncate">
                {state}
              </Text>
            </Box>
          </Box>
        )}
      </Box>
      <Text bold wrap="truncate">
        {head}
      </Text>
      {m.permission ? <Problem message={m.error ?? ''} permission={m.permission} /> : m.error ? <Text color={theme.tone('bad')}>{m.error}</Text> : null}
      {empty ? <Text dimColor>{`No ${m.filterText ? 'matching ' : ''}event yet: they appear here as they happen.`}</Text> : null}
      <PaintedList height={empty ? 0 : Math.min(listHeight, rows.size)} lines={lines} changes={m} painted={trace} />
      <Text color={stale ? theme.tone('warn') : undefined} dimColor={!stale} wrap="truncate">
        {stale ?? `${rows.size.toLocaleString('en-US')} shown (the newest ${m.cap.toLocaleString('en-US')} are kept)${st.follow ? ' · following the newest' : ' · G follows the newest'}${m.notice ? ` · ${m.notice}` : ''}`}
      </Text>
    </Box>
  )
}

// ----- one event

interface EventDetail {
  event: GwEvent
  deliveries: WebhookDelivery[] | {permission: string}
}

export function eventResource(session: ConsoleSession, id: string): Resource<EventDetail> {
  const c = session.client
  return new Resource(
    session,
    async () => {
      const event = await c.events.get(id)
      const d = await session.call(async () => (await c.events.deliveries(id, {limit: 100})).data)
      if (!d.ok && d.offline) throw d.error
      return {event, deliveries: d.ok ? d.value : {permission: d.permission ?? d.message}}
    },
    {refreshMs: 3000},
  )
}

const plain = painter(false)

/** A delivery's last result: "HTTP 500 · 12 ms", or the error. */
export function lastResult(d: WebhookDelivery): string {
  const a = d.attempts[d.attempts.length - 1]
  if (!a) return 'not tried yet'
  return `${a.status_code !== null ? `HTTP ${a.status_code}` : (a.error ?? 'error')} · ${a.latency_ms} ms`
}

export function EventView() {
  const {session, theme, height, width, copy} = useFrame()
  const id = useRoute().id!
  const res = useResource(useCached(`event:${id}`, () => eventResource(session, id)))
  const [top, setTop] = useState(0)
  const d = res.value
  const payload = d ? renderEvent(d.event, plain).split('\n').slice(1) : []
  const deliveries = d && Array.isArray(d.deliveries) ? d.deliveries : []
  const dHeight = Math.min(8, Math.max(2, deliveries.length + 2))
  const page = Math.max(3, height - 2 - dHeight)

  const {busy, act} = useAction(res)
  const resend = () => act('resend', () => resendEvent(session, id, [...new Set(deliveries.map((x) => x.endpoint))]))

  useKeys(
    (input, key) => {
      if (busy) return true
      const next = moveKey(input, key, top, Math.max(1, payload.length - page + 1), page)
      if (next !== undefined) return setTop(next), true
      if (input === 's' && d) return void resend(), true
      if (input === 'c') return copy(id), true
      if (input === 'r') return void res.refresh(), true
      return false
    },
    [
      ['↑↓ PgUp PgDn', 'scroll'],
      ['s', 'resend'],
      ['c', 'copy id'],
      ['r', 'reload'],
    ],
  )

  const w = {id: width >= 100 ? 30 : 20, endpoint: width >= 100 ? 28 : 22, status: 18, attempts: 9}
  const lastWidth = Math.max(0, width - w.id - w.endpoint - w.status - w.attempts)
  return (
    <Box flexDirection="column">
      <Title right={<Age of={res} />}>{`${id}${d ? `  ${d.event.type}` : ''}${busy ? `  · ${busy}…` : ''}`}</Title>
      {res.permission || (res.error && !d) ? <Problem message={res.error ?? ''} permission={res.permission} /> : null}
      <Box flexDirection="column" height={page} overflowY="hidden">
        <Lines lines={payload} top={top} height={page} />
      </Box>
      {d && !Array.isArray(d.deliveries) ? (
        <Text color={theme.tone('warn')} wrap="truncate">{`Deliveries not shown: this key needs ${d.deliveries.permission}.`}</Text>
      ) : d ? (
        <Box flexDirection="column">
          <Text bold wrap="truncate">{`${fit(`DELIVERIES (${deliveries.length})`, w.id)}${fit('ENDPOINT', w.endpoint)}${fit('STATUS', w.status)}${fit('ATTEMPTS', w.attempts)}${fit('LAST RESULT', lastWidth)}`}</Text>
          {deliveries.length === 0 ? <Text dimColor>No delivery: no enabled endpoint is subscribed to this type.</Text> : null}
          {deliveries.slice(0, dHeight - 1).map((x) => (
            <Row
              key={x.id}
              text={`${fit(`${x.id}${x.chaos ? ' [chaos]' : ''}`, w.id)}${fitId(x.endpoint, w.endpoint - 1)} ${fit(x.status, w.status)}${fit(String(x.attempts.length), w.attempts)}${fit(lastResult(x), lastWidth)}`}
              selected={false}
              color={theme.status(x.status === 'succeeded' ? 'succeeded' : x.status === 'undeliverable' ? 'failed' : x.status)}
            />
          ))}
        </Box>
      ) : null}
    </Box>
  )
}
