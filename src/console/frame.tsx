// What every view of the console gets from the frame: the session, the theme, the size of the
// body, navigation, the footer's keys, and the keyboard (one input handler, the top view's, sees
// a key before the frame's own keys do). Plus the small widgets views share.
import {Box, type DOMElement} from 'ink'
import {createContext, memo, useContext, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactNode} from 'react'
import {useKeyInput} from '../ui/keyboard.js'
import {useLatest} from '../ui/latest.js'
import {Text} from '../ui/text.js'
import {applyFieldInput} from '../commands/disputes/shared/evidence-input.js'
import type {ViewName} from './keymap.js'
import type {ListPainter, PaintedLine} from './painter.js'
import {ageShown, type ConsoleSession, type Emitter, type Resource, type Ticker, type TickReader} from './session.js'
import type {Theme} from './theme.js'

export interface Route {
  view: ViewName | 'payment' | 'dispute' | 'event' | 'webhook'
  id?: string
}

export interface InputKey {
  upArrow: boolean
  downArrow: boolean
  leftArrow: boolean
  rightArrow: boolean
  pageUp: boolean
  pageDown: boolean
  home?: boolean
  end?: boolean
  return: boolean
  escape: boolean
  ctrl: boolean
  shift: boolean
  tab: boolean
  backspace: boolean
  delete: boolean
  meta: boolean
  /** text pasted (it means nothing as keys) */
  paste?: boolean
}

/** A view's key handler: true when it used the key (the frame's own keys then leave it alone). */
export type KeyHandler = (input: string, key: InputKey) => boolean | void

export interface FrameApi {
  session: ConsoleSession
  theme: Theme
  /** the body's size */
  width: number
  height: number
  open(route: Route): void
  back(): void
  /** the view's keys, shown in the footer: [key, what] pairs */
  setKeys(keys: readonly (readonly [string, string])[]): void
  /** a text field has the keyboard: the frame's single-letter keys (q, :, ?, digits) type into it */
  setCapture(on: boolean): void
  /** a form is open: Ctrl-C goes to it (it asks before anything entered is lost) instead of quitting */
  setForm(on: boolean): void
  /** quits the console */
  quit(): void
  /** copies a text to the terminal's clipboard (OSC 52, as k9s and lazygit do) and says so */
  copy(text: string): void
  /** the top view's key handler */
  handler: {current: KeyHandler | undefined}
  /** per-view state that outlives the view (its search, its selection) while the console runs */
  cache: Map<string, unknown>
  /** the one clock of the texts that age (useTickText) */
  ticker: Ticker
  /** draws a list's rows without Ink (PaintedList) */
  painter: ListPainter
}

/** The ticker's version, given by the frame (one subscriber, so one redraw per tick for all). */
export const TickContext = createContext(0)

export const FrameContext = createContext<FrameApi | null>(null)

/** The route the view shows (its id: the payment, dispute, event or endpoint). */
export const RouteContext = createContext<Route>({view: 'home'})

export function useRoute(): Route {
  return useContext(RouteContext)
}

export function useFrame(): FrameApi {
  const f = useContext(FrameContext)
  if (!f) throw new Error('a console view outside the frame')
  return f
}

/** Registers the view's key handler (the latest render's, so it sees the latest state). */
export function useKeys(handler: KeyHandler, footer: readonly (readonly [string, string])[]): void {
  const frame = useFrame()
  frame.handler.current = handler
  const text = footer.map(([k, v]) => `${k}\u0000${v}`).join('\u0001')
  useEffect(() => {
    frame.setKeys(footer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text])
}

/** Re-renders when the emitter changes. */
export function useEmitter(e: Emitter): number {
  return useSyncExternalStore(e.subscribe, e.getVersion)
}

/** Per-view state kept in the frame's cache: a model object made once. */
export function useCached<T>(key: string, make: () => T): T {
  const frame = useFrame()
  let v = frame.cache.get(key) as T | undefined
  if (v === undefined) {
    v = make()
    frame.cache.set(key, v)
  }
  return v
}

/**
 * A text that changes with time (`read` is called as the view draws and at each tick of the
 * frame's ticker): the view redraws when it reads differently, not at every tick.
 */
export function useTickText(read: () => string): string {
  const {ticker} = useFrame()
  useContext(TickContext)
  const text = read()
  const reader = useRef<TickReader>({read, last: text}).current
  reader.read = read
  reader.last = text
  useEffect(() => ticker.watch(reader), [ticker, reader])
  return text
}

/** A resource's value and state, subscribed while the view shows it. */
export function useResource<T>(r: Resource<T>): Resource<T> {
  useEmitter(r)
  return r
}

/** What Age reads, as it is when read (a poll that brought nothing new draws nothing, yet moves `at`). */
export interface Aged {
  /** wall ms of the last read */
  readonly at?: number
  readonly loading?: boolean
  readonly error?: string
  /** read again at this interval (ms) while shown: "just now" while those reads keep it fresh (ageShown) */
  readonly every?: number
}

/** "updated 12s ago" (or why not), for data that can be stale. */
export function Age({of}: {of: Aged}) {
  const {session, theme} = useFrame()
  const offline = session.connection.state === 'reconnecting'
  const error = of.error
  const text = useTickText(() => `${of.loading && of.at === undefined ? 'loading…' : `updated ${ageShown(of.at, session.now(), offline ? undefined : of.every)}`}${offline ? ' (engine unreachable)' : ''}`)
  return (
    <Box flexShrink={0} marginLeft={1}>
      <Text color={offline || error ? theme.tone('warn') : undefined} dimColor={!offline && !error} wrap="truncate">
        {text}
      </Text>
    </Box>
  )
}

/** A line that says why a view or an action is not available: the permission a key lacks, or an error. */
export function Problem({message, permission}: {message: string; permission?: string}) {
  const {theme} = useFrame()
  return (
    <Box flexDirection="column">
      <Text color={theme.tone(permission ? 'warn' : 'bad')} wrap="wrap">
        {permission ? `This key may not read this: it needs ${permission}.` : message}
      </Text>
      {permission ? <Text dimColor wrap="wrap">{`Ask for a key with ${permission} (gw keys create --permissions ${permission} with a secret key), or use a profile that has it (--profile).`}</Text> : null}
    </Box>
  )
}

/** A section title. */
export function Title({children, right}: {children: ReactNode; right?: ReactNode}) {
  return (
    <Box justifyContent="space-between">
      <Text bold wrap="truncate">
        {children}
      </Text>
      {right ?? null}
    </Box>
  )
}

/** One row of a list, redrawn only when its own text or selection changes. */
export const Row = memo(function Row({text, selected, color, dim, bold}: {text: string; selected: boolean; color?: string; dim?: boolean; bold?: boolean}) {
  return (
    <Text inverse={selected} color={color} dimColor={dim && !selected} bold={bold} wrap="truncate">
      {text}
    </Text>
  )
})

/**
 * A list whose rows are drawn by the frame's painter, not by Ink (painter.ts: Ink's frame walks
 * every cell of the screen at each redraw): Ink lays out an empty box `height` rows tall, and
 * `lines` (read at each paint: keep it reading the latest state) fills it. The rows are painted
 * again when `changes` emits (a batch of events), after each of Ink's frames, and after each
 * render of the view (a key moved the selection) — only those that changed.
 */
export function PaintedList({height, lines, changes, painted}: {height: number; lines: () => readonly PaintedLine[]; changes?: Emitter; painted?: () => void}) {
  const {painter} = useFrame()
  const ref = useRef<DOMElement>(null)
  const latest = useLatest({lines, painted})
  useEffect(() => {
    const region = {
      get node() {
        return ref.current
      },
      lines: () => latest.current.lines(),
      painted: () => latest.current.painted?.(),
    }
    painter.attach(region)
    const unsub = changes?.subscribe(() => painter.paint())
    return () => {
      unsub?.()
      painter.detach(region)
    }
  }, [painter, changes, latest])
  // in the commit (a layout effect: Ink has laid the frame out by then), not a passive effect a
  // scheduler turn later: the key after this one must not find the rows of the state before
  useLayoutEffect(() => painter.paint())
  return <Box ref={ref} height={height} flexShrink={0} flexDirection="column" />
}

/** Lines of plain text (a detail view from the CLI's own renderer), scrolled from `top`, `height` of them. */
export function Lines({lines, top, height}: {lines: readonly string[]; top: number; height: number}) {
  const shown = lines.slice(top, top + height)
  return (
    <Box flexDirection="column">
      {shown.map((l, i) => (
        <Text key={top + i} wrap="truncate">
          {l === '' ? ' ' : l}
        </Text>
      ))}
    </Box>
  )
}

/**
 * An action's run: `busy` names it while it runs; its message (or why not) goes to the message
 * line, and `res` is read again after it.
 */
export function useAction(res: {refresh(): Promise<void>}): {busy: string; act(what: string, fn: () => Promise<string>): Promise<void>} {
  const {session} = useFrame()
  const [busy, setBusy] = useState('')
  return {
    busy,
    async act(what, fn) {
      setBusy(what)
      let said: string
      let kind: 'ok' | 'error' = 'ok'
      try {
        said = await fn()
      } catch (error) {
        said = (error as Error).message
        kind = 'error'
      }
      // the view shows (and its next action reads) what this one changed before the outcome is
      // said: a key pressed on seeing it acts on fresh data (an endpoint just enabled can be replayed)
      await res.refresh().catch(() => {})
      setBusy('')
      session.flash(said, kind)
    },
  }
}

/** Up/down/page/home/end over `total` rows: the next index, or undefined when the key is not a move. */
export function moveKey(input: string, key: InputKey, at: number, total: number, page: number): number | undefined {
  if (total === 0) return undefined
  if (key.upArrow || input === 'k') return Math.max(0, at - 1)
  if (key.downArrow || input === 'j') return Math.min(total - 1, at + 1)
  if (key.pageUp) return Math.max(0, at - page)
  if (key.pageDown || (input === ' ' && !key.ctrl)) return Math.min(total - 1, at + page)
  if (input === 'g' || key.home) return 0
  if (input === 'G' || key.end) return total - 1
  return undefined
}

/**
 * A one-line text field: typing, Backspace, Ctrl-U, a paste, Enter submits (Esc is the caller's).
 * Its text lives in a ref as well as in state, as the evidence form's fields do: keys that arrive
 * faster than a redraw ("12.50" and Enter in one go) each see the one before, so nothing typed is
 * lost or submitted stale. Tab completes from `suggestions`. Give it a `key` per question: a new
 * question starts empty.
 */
export function LineInput({initial = '', placeholder, suggestions, onSubmit, onChange}: {initial?: string; placeholder?: string; suggestions?: readonly string[]; onSubmit: (text: string) => void; onChange?: (text: string) => void}) {
  const [text, setText] = useState(initial)
  const ref = useRef(initial)
  useKeyInput((input, key) => {
    if (key.tab && suggestions) {
      const hit = suggestions.find((s) => ref.current && s.startsWith(ref.current))
      if (hit) {
        ref.current = hit
        setText(hit)
      }
      return
    }
    const r = applyFieldInput(ref.current, input, key, {multiline: false})
    if (r.text !== ref.current) {
      ref.current = r.text
      setText(r.text)
      onChange?.(r.text)
    }
    if (r.submit !== undefined) onSubmit(r.submit)
  })
  return (
    <Box flexShrink={1}>
      <Text wrap="truncate">
        {text}
        <Text inverse> </Text>
        {text === '' && placeholder ? <Text dimColor>{` ${placeholder}`}</Text> : null}
      </Text>
    </Box>
  )
}

/**
 * A view's `/` field: `editing` while it has the keyboard (the frame's letter keys type into it);
 * `keys` takes `/` to start and Esc to stop, and every key while editing (true: used).
 */
export function useTextField(): {editing: boolean; stop(): void; keys(input: string, key: InputKey): boolean} {
  const {setCapture} = useFrame()
  const [editing, setEditing] = useState(false)
  const set = (on: boolean) => {
    setEditing(on)
    setCapture(on)
  }
  return {
    editing,
    stop: () => set(false),
    keys(input, key) {
      if (editing) {
        if (key.escape) set(false)
        return true
      }
      if (input === '/') {
        set(true)
        return true
      }
      return false
    },
  }
}
