// The `gw events tail` view: a live table of events (time, type, object id, status, amount),
// newest at the bottom, following new events unless you moved up; Enter shows the selected
// event's JSON; space pauses; q quits. Imported only behind the render gate (src/ui/gate.ts).
import {Box, render, useApp, useInput, useStdin, useStdout} from 'ink'
import {Text} from '../../../ui/text.js'
import {terminalSafe} from '../../../output/terminal.js'
import {Fragment, useEffect, useState, useSyncExternalStore} from 'react'
import type {TailModel, TailRow} from './tail-model.js'
import {shortId, tailColumns, windowWithDays, type TailColumns} from './tail-layout.js'

const STATUS_COLORS: Record<string, string> = {
  succeeded: 'green',
  won: 'green',
  active: 'green',
  failed: 'red',
  lost: 'red',
  disabled: 'red',
  rejected: 'red',
  canceled: 'gray',
  accepted: 'gray',
  requires_action: 'yellow',
  requires_capture: 'yellow',
  requires_confirmation: 'yellow',
  needs_response: 'yellow',
  degraded: 'yellow',
  pending: 'cyan',
  processing: 'cyan',
  under_review: 'cyan',
}

/** Data in a column: control characters shown first (their caret form is what takes room), then cut or padded. */
function cell(data: string, width: number): string {
  if (width <= 0) return ''
  const text = terminalSafe(data)
  if (text.length > width) return width > 1 ? `${text.slice(0, width - 1)}…` : text.slice(0, width)
  return text.padEnd(width)
}

/** An id in its column: shortened in the middle, with a space before the next column. */
const idCell = (id: string, width: number) => (width <= 0 ? '' : cell(shortId(id, width - 1), width))

function Row({row, selected, cols}: {row: TailRow; selected: boolean; cols: TailColumns}) {
  const s = row.summary
  return (
    <Text inverse={selected} wrap="truncate">
      <Text color="yellow">{row.backfilled ? '↺ ' : '  '}</Text>
      <Text dimColor={!selected}>{cell(s.time, cols.time)}</Text>
      <Text>{cell(s.type, cols.type)}</Text>
      <Text>{idCell(s.object_id, cols.object)}</Text>
      <Text color={STATUS_COLORS[s.status]}>{cell(s.status, cols.status)}</Text>
      <Text>{cell(s.amount, cols.amount)}</Text>
      {cols.reference ? <Text dimColor={!selected}>{cell(s.reference, cols.reference)}</Text> : null}
    </Text>
  )
}

function useSize() {
  const {stdout} = useStdout()
  const [size, setSize] = useState({columns: stdout.columns || 100, rows: stdout.rows || 30})
  useEffect(() => {
    const on = () => setSize({columns: stdout.columns || 100, rows: stdout.rows || 30})
    stdout.on('resize', on)
    return () => {
      stdout.off('resize', on)
    }
  }, [stdout])
  return size
}

export function TailView({model, title}: {model: TailModel; title: string}) {
  useSyncExternalStore(model.subscribe, model.getVersion)
  const {exit} = useApp()
  const {isRawModeSupported} = useStdin()
  const {columns, rows: termRows} = useSize()
  /** index of the selected row; null follows the newest */
  const [selected, setSelected] = useState<number | null>(null)
  const [inspect, setInspect] = useState<{id: string; offset: number} | null>(null)

  const rows = model.rows
  const listHeight = Math.max(3, termRows - 6)
  const sel = selected === null ? rows.length - 1 : Math.min(selected, rows.length - 1)
  const inspected = inspect ? rows.find((r) => r.event.id === inspect.id) : undefined
  const jsonLines = inspected ? JSON.stringify(inspected.event, null, 2).split('\n') : []
  const pageJson = Math.max(3, termRows - 4)

  useInput(
    (input, key) => {
      if (inspect) {
        if (key.escape || key.return || key.backspace || key.leftArrow || input === 'q') setInspect(null)
        else if (key.upArrow || input === 'k') setInspect({...inspect, offset: Math.max(0, inspect.offset - 1)})
        else if (key.downArrow || input === 'j') setInspect({...inspect, offset: Math.min(Math.max(0, jsonLines.length - pageJson), inspect.offset + 1)})
        else if (key.pageUp) setInspect({...inspect, offset: Math.max(0, inspect.offset - pageJson)})
        else if (key.pageDown || input === ' ') setInspect({...inspect, offset: Math.min(Math.max(0, jsonLines.length - pageJson), inspect.offset + pageJson)})
        return
      }
      // functional updates: keys that arrive before the next render (key repeat, a paste) all count
      const at = (prev: number | null) => (prev === null ? rows.length - 1 : Math.min(prev, rows.length - 1))
      if (input === 'q' || (key.ctrl && input === 'c')) exit()
      else if (key.upArrow || input === 'k') setSelected((prev) => Math.max(0, at(prev) - 1))
      else if (key.downArrow || input === 'j') setSelected((prev) => (at(prev) + 1 >= rows.length - 1 ? null : at(prev) + 1))
      else if (key.pageUp) setSelected((prev) => Math.max(0, at(prev) - listHeight))
      else if (key.pageDown) setSelected((prev) => (at(prev) + listHeight >= rows.length - 1 ? null : at(prev) + listHeight))
      else if (input === 'g') setSelected(0)
      else if (input === 'G' || key.end) setSelected(null)
      else if (input === ' ' || input === 'p') model.togglePause()
      else if ((key.return || input === 'i') && rows[sel]) setSelected((prev) => {
        const row = rows[at(prev)]
        if (row) setInspect({id: row.event.id, offset: 0})
        return prev
      })
    },
    {isActive: isRawModeSupported},
  )

  const conn = model.connection
  const connColor = conn.state === 'live' || conn.state === 'polling' ? 'green' : conn.state === 'disconnected' ? 'red' : 'yellow'
  const header = (
    <Text wrap="truncate">
      <Text bold>gw events tail</Text>
      <Text dimColor>{`  ${title}  `}</Text>
      <Text color={connColor}>{`● ${conn.text}`}</Text>
      {model.paused ? <Text color="yellow" bold>{`  ❚❚ PAUSED${model.held.length ? ` (${model.held.length} new)` : ''}`}</Text> : null}
    </Text>
  )

  if (inspect && inspected) {
    const shown = jsonLines.slice(inspect.offset, inspect.offset + pageJson)
    return (
      <Box flexDirection="column">
        {header}
        <Text bold wrap="truncate">{`${inspected.event.id}  ${inspected.event.type}${inspected.backfilled ? '  (backfilled)' : ''}`}</Text>
        {shown.map((l, i) => (
          <Text key={i} wrap="truncate">
            {l}
          </Text>
        ))}
        <Text dimColor wrap="truncate">{`↑↓ scroll · PgUp/PgDn · esc back   lines ${inspect.offset + 1}-${Math.min(jsonLines.length, inspect.offset + pageJson)} of ${jsonLines.length}`}</Text>
      </Box>
    )
  }

  // the window: the newest rows while following, otherwise around the selection
  let start = Math.max(0, rows.length - listHeight)
  if (selected !== null && sel < start) start = sel
  if (selected !== null && sel >= start + listHeight) start = sel - listHeight + 1
  // a date line where the day changes (the time column has no date), in place of a row
  const win = windowWithDays(rows.map((r) => r.event.created_at.slice(0, 10)), start, listHeight, selected === null ? null : sel)
  start = win.start
  const visible = rows.slice(win.start, win.end)
  const cols = tailColumns(Math.max(30, columns - 1))
  return (
    <Box flexDirection="column">
      {header}
      <Text bold wrap="truncate">
        {`  ${cell('TIME UTC', cols.time)}${cell('TYPE', cols.type)}${cell('OBJECT', cols.object)}${cell('STATUS', cols.status)}${cell('AMOUNT', cols.amount)}${cols.reference ? 'REFERENCE' : ''}`}
      </Text>
      {visible.length === 0 ? <Text dimColor>{'  Waiting for events… (gw trigger payment.succeeded in another terminal makes one)'}</Text> : null}
      {visible.map((r, i) => (
        <Fragment key={r.event.id}>
          {win.breaks.has(start + i) ? <Text dimColor wrap="truncate">{`  ── ${r.event.created_at.slice(0, 10)} ──`}</Text> : null}
          <Row row={r} selected={start + i === sel && selected !== null} cols={cols} />
        </Fragment>
      ))}
      <Text dimColor wrap="truncate">{model.notice ? `${model.notice}` : ' '}</Text>
      <Text dimColor wrap="truncate">
        {`↑↓ move · enter inspect · space ${model.paused ? 'resume' : 'pause'} · G follow · q quit   ${rows.length} ${rows.length === 1 ? 'event' : 'events'}${model.paused ? ` · ${model.held.length} held back` : ''}${rows.some((r) => r.backfilled) ? ' · ↺ backfilled' : ''}`}
      </Text>
    </Box>
  )
}

/** Mounts the view; resolves when the user quits. */
export async function mountTail(model: TailModel, opts: {title: string; stdout?: NodeJS.WriteStream; stdin?: NodeJS.ReadStream}): Promise<void> {
  const instance = render(<TailView model={model} title={opts.title} />, {
    stdout: opts.stdout ?? process.stdout,
    stdin: opts.stdin ?? process.stdin,
    patchConsole: false,
    exitOnCtrlC: true,
  })
  model.onClose = () => instance.unmount()
  if (model.closed) instance.unmount() // the feed stopped before the view was up
  await instance.waitUntilExit()
}
