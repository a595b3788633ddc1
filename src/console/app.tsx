// `gw console`: the frame. A status line (account, mode, key, the engine clock and how far it is
// ahead, the connection), the views' tabs, a reconnecting banner while the engine is away, the
// view, a message line and the footer with the keys that work here. Imported only behind the
// render gate (./run.ts), after the terminal went to the alternate screen (./screen.ts).
import {Box, render, useApp, useStdout} from 'ink'
import {memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactElement} from 'react'
import {KeyboardProvider, type Key} from '../ui/keyboard.js'
import {Text} from '../ui/text.js'
import {clockText, fit, footerText} from './format.js'
import {wrappedRows} from '../commands/disputes/shared/evidence-layout.js'
import {displayWidth} from './width.js'
import {FrameContext, LineInput, RouteContext, TickContext, useEmitter, useFrame, useTickText, type FrameApi, type InputKey, type KeyHandler, type Route} from './frame.js'
import {GLOBAL_KEYS, matchObject, matchView, VIEW_KEYS, VIEW_TITLES, VIEWS, type ViewName} from './keymap.js'
import {ListPainter} from './painter.js'
import {ageText} from './age.js'
import {Ticker, type ConsoleSession} from './session.js'
import type {Theme} from './theme.js'
import {HomeView} from './views/home.js'
import {PaymentsView, PaymentView} from './views/payments.js'
import {DisputesView, DisputeView} from './views/disputes.js'
import {GatewayView} from './views/gateway.js'
import {EventsView, EventView} from './views/events.js'
import {WebhooksView, WebhookView} from './views/webhooks.js'

const VIEW_OF: Record<Route['view'], () => ReactElement> = {
  home: () => <HomeView />,
  payments: () => <PaymentsView />,
  payment: () => <PaymentView />,
  disputes: () => <DisputesView />,
  dispute: () => <DisputeView />,
  events: () => <EventsView />,
  event: () => <EventView />,
  webhooks: () => <WebhooksView />,
  webhook: () => <WebhookView />,
  gateway: () => <GatewayView />,
}

/** The tab a route belongs to (a payment's view is under Payments). */
export function tabOf(route: Route): ViewName {
  const parent: Record<string, ViewName> = {payment: 'payments', dispute: 'disputes', event: 'events', webhook: 'webhooks'}
  return parent[route.view] ?? (route.view as ViewName)
}

function useSize() {
  const {stdout} = useStdout()
  const read = () => ({columns: stdout.columns || 80, rows: stdout.rows || 24})
  const [size, setSize] = useState(read)
  useEffect(() => {
    const on = () => setSize(read())
    stdout.on('resize', on)
    return () => {
      stdout.off('resize', on)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout])
  return size
}

export interface AppProps {
  session: ConsoleSession
  theme: Theme
  initial?: Route[]
  /** the route stack, each time it changes (tests, and the journey's screenshots) */
  onRoute?: (stack: Route[]) => void
  /** the lists' own renderer, writing to the terminal Ink draws on (mountConsole makes it) */
  painter: ListPainter
  /** how long a lone ESC waits for the rest of a key's sequence (`gw console --escape-time`) */
  escapeMs?: number
}

interface Prompt {
  question: string
  placeholder?: string
  /** why an answer cannot be taken (the prompt stays open with it under the question) */
  check?: (answer: string) => string | undefined
  error?: string
  resolve: (answer: string) => void
}

/** Most rows the message line grows to (a question, its error, an action's outcome). */
const MESSAGE_ROWS = 6

export function App({session, theme, initial, onRoute, painter, escapeMs}: AppProps) {
  const {exit} = useApp()
  const {columns, rows} = useSize()
  useEmitter(session)
  const [stack, setStack] = useState<Route[]>(initial?.length ? initial : [{view: 'home'}])
  const [overlay, setOverlay] = useState<'help' | 'jump' | null>(null)
  const [prompt, setPrompt] = useState<Prompt | null>(null)
  const [footer, setFooter] = useState<readonly (readonly [string, string])[]>([])
  const [capture, setCaptureState] = useState(false)
  const [flash, setFlash] = useState<{text: string; tone: 'ok' | 'warn' | 'error'; at: number} | null>(null)
  const [jumpError, setJumpError] = useState('')
  const [crash, setCrash] = useState(false)
  const handler = useRef<KeyHandler | undefined>(undefined)
  const captureRef = useRef(false)
  const cache = useRef(new Map<string, unknown>()).current
  const ticker = useRef(new Ticker()).current
  const tick = useSyncExternalStore(ticker.subscribe, ticker.getVersion)
  const top = stack[stack.length - 1]!

  // the texts that age are read once a second; the frame redraws only when one reads differently
  useEffect(() => {
    const t = setInterval(() => ticker.check(), 1000)
    return () => clearInterval(t)
  }, [ticker])

  useEffect(() => onRoute?.(stack), [stack, onRoute])

  // the session asks through the frame: a question on the message line, a typed answer
  useEffect(() => {
    session.ask = (question, opts) => new Promise<string>((resolve) => setPrompt({question, placeholder: opts?.placeholder, check: opts?.check, resolve}))
    session.flash = (text, tone = 'ok') => setFlash({text, tone, at: Date.now()})
  }, [session])

  // a message fades after 8 s
  useEffect(() => {
    if (!flash) return
    const t = setTimeout(() => setFlash((f) => (f === flash ? null : f)), 8000)
    return () => clearTimeout(t)
  }, [flash])

  const open = useCallback((route: Route) => {
    handler.current = undefined
    setStack((s) => [...s, route])
  }, [])
  const back = useCallback(() => {
    handler.current = undefined
    setStack((s) => (s.length > 1 ? s.slice(0, -1) : s))
  }, [])
  const jump = useCallback((view: ViewName) => {
    handler.current = undefined
    captureRef.current = false
    setCaptureState(false)
    // the view left: its filter goes (k9s); a row opened and left with Esc keeps it
    for (const v of cache.values()) (v as {leave?: () => void} | null)?.leave?.()
    setStack(view === 'home' ? [{view: 'home'}] : [{view: 'home'}, {view}])
  }, [])
  const setCapture = useCallback((on: boolean) => {
    captureRef.current = on
    setCaptureState(on)
  }, [])
  const {stdout} = useStdout()
  const copy = useCallback(
    (text: string) => {
      // OSC 52: the terminal puts it on its clipboard (tmux with set-clipboard on, and most
      // terminals; some ask first or refuse, which the console cannot see)
      stdout.write(`\u001B]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`)
      session.flash(`Copied ${text} (to the terminal's clipboard, OSC 52)`, 'ok')
    },
    [stdout, session],
  )
  const formRef = useRef(false)
  const setForm = useCallback((on: boolean) => {
    formRef.current = on
  }, [])

  const bannerShown = session.connection.state === 'reconnecting' || session.outage !== undefined
  // the message line grows to what it says (a question and its error, an outcome): nothing cut
  const message = prompt ? [prompt.question, prompt.error].filter(Boolean).join('\n') : overlay === 'jump' ? '' : (flash?.text ?? '')
  const messageRows = Math.min(MESSAGE_ROWS, Math.max(1, wrappedRows(message, columns)))
  // the frame takes one line less than the terminal: a frame as tall as the terminal makes Ink
  // clear the screen at every redraw (flicker)
  const bodyHeight = Math.max(3, rows - 1 - 2 - (bannerShown ? 1 : 0) - 1 - messageRows)

  const api: FrameApi = useMemo(
    () => ({session, theme, width: columns, height: bodyHeight, open, back, setKeys: setFooter, setCapture, setForm, quit: exit, copy, handler, cache, ticker, painter}),
    [session, theme, columns, bodyHeight, open, back, setCapture, setForm, exit, copy, cache, ticker, painter],
  )

  // the frame's keys (the top view's handler sees each key first). The keyboard's first listener:
  // a field that opens joins it in the commit that draws it, so a key typed once it shows is heard
  const onKey = (input: string, key: Key) => {
    // Ctrl-C quits, but in a form: the form asks first, as Esc does (it hears the key itself)
    if (key.ctrl && input === 'c') return formRef.current ? undefined : exit()
    // a paste is text for the field that has the keyboard (it hears it itself), never keys
    if (key.paste) return
    if (prompt) {
      if (key.escape) {
        prompt.resolve('')
        setPrompt(null)
      }
      return
    }
    if (overlay === 'help') {
      setOverlay(null)
      return
    }
    if (overlay === 'jump') {
      if (key.escape) setOverlay(null)
      return
    }
    if (handler.current?.(input, key as InputKey)) return
    if (captureRef.current) return
    if (input === 'q') return exit()
    if (key.escape) return back()
    if (input === ':') {
      setJumpError('')
      return setOverlay('jump')
    }
    if (input === '?') return setOverlay('help')
    if (/^[1-6]$/.test(input)) return jump(VIEWS[Number(input) - 1]!)
    // tests only: a view that throws while it renders (the terminal must be restored all the same)
    // and an error thrown outside React (a timer's), which screen.ts restores the terminal for
    if (process.env.GW_CONSOLE_TEST_CRASH === '1') {
      if (input === '!') setCrash(true)
      if (input === '@')
        setTimeout(() => {
          throw new Error('a test crash outside the views (GW_CONSOLE_TEST_CRASH=1)')
        }, 0)
    }
  }

  const answer = (value: string) => {
    const p = prompt
    if (!p) return
    // a wrong value keeps the question open, the error under it, the text there to correct
    const error = p.check?.(value.trim())
    if (error) return setPrompt({...p, error})
    setPrompt(null)
    p.resolve(value)
  }

  const onJump = (value: string) => {
    const t = value.trim().replace(/^:/, '')
    // :q quits, as in vi and k9s
    if (t === 'q' || t === 'q!' || t === 'quit') return exit()
    // an id: its view, under its tab (Esc goes back to the list)
    const o = matchObject(t)
    if (o) {
      setOverlay(null)
      jump(o.tab)
      open({view: o.view, id: o.id})
      return
    }
    const v = matchView(t)
    if (!v) {
      setJumpError(`No view "${value}": ${VIEWS.join(', ')} (or an id: pay_…, dp_…, evt_…, wh_…; :q quits).`)
      return
    }
    setOverlay(null)
    jump(v)
  }

  const tab = tabOf(top)
  type Keys = readonly (readonly [string, string])[]
  // how to get help and quit are the last to go at a narrow width
  const [keysHere, tail]: [Keys, Keys] = prompt
    ? [[['Enter', 'answer'], ['Esc', 'cancel']], []]
    : overlay === 'jump'
      ? [[['Enter', 'go'], ['Esc', 'cancel']], []]
      : overlay === 'help'
        ? [[['any key', 'close']], []]
        : capture
          ? [footer, []]
          : [[...footer, ...(stack.length > 1 ? [['Esc', 'back'] as const] : []), [':', 'jump']], [['?', 'keys'], ['q', 'quit']]]

  return (
    <KeyboardProvider onKey={onKey} escapeMs={escapeMs}>
      <FrameContext.Provider value={api}>
        <TickContext.Provider value={tick}>
          <Box flexDirection="column" width={columns} height={rows - 1}>
            <StatusLine width={columns} />
            <Tabs current={tab} width={columns} />
            {bannerShown ? <Banner width={columns} /> : null}
            {/* clipped below only: every line is already cut to the width (wrap="truncate"), and a
                horizontal clip made Ink slice every line of the body again at each redraw (slice-ansi
                and string-width over each character: a sixth of a redraw's CPU) */}
            <Box flexDirection="column" height={bodyHeight} overflowY="hidden">
              {crash ? <Crash /> : overlay === 'help' ? <Help route={top} height={bodyHeight} /> : <Screen key={`${stack.length}:${top.view}:${top.id ?? ''}`} route={top} />}
            </Box>
            <Box height={messageRows} flexDirection="column" overflowY="hidden">
              {prompt ? (
                <>
                  <Text color={theme.tone('accent')} bold wrap="wrap">
                    {prompt.question}
                  </Text>
                  {prompt.error ? (
                    <Text color={theme.tone('bad')} wrap="wrap">
                      {prompt.error}
                    </Text>
                  ) : null}
                </>
              ) : overlay === 'jump' ? (
                <Box>
                  <Text color={theme.tone('accent')} bold>{':'}</Text>
                  <LineInput suggestions={VIEWS} onSubmit={onJump} />
                  {jumpError ? <Text color={theme.tone('bad')} wrap="truncate">{`  ${jumpError}`}</Text> : null}
                </Box>
              ) : flash ? (
                <Text color={theme.tone(flash.tone === 'ok' ? 'ok' : flash.tone === 'warn' ? 'warn' : 'bad')} wrap="wrap">
                  {flash.text}
                </Text>
              ) : (
                <Text> </Text>
              )}
            </Box>
            {prompt ? (
              // a question takes the footer's line for its answer (Enter answers, Esc cancels)
              <Box>
                <Text color={theme.tone('accent')} bold>
                  {'> '}
                </Text>
                <LineInput key={prompt.question} placeholder={`${prompt.placeholder ? `${prompt.placeholder} · ` : ''}Enter answers · Esc cancels`} onSubmit={answer} />
              </Box>
            ) : (
              <Footer keys={keysHere} tail={tail} width={columns} />
            )}
          </Box>
        </TickContext.Provider>
      </FrameContext.Provider>
    </KeyboardProvider>
  )
}

/** A view that fails as it renders (GW_CONSOLE_TEST_CRASH=1 and `!`): what a bug in a view does. */
function Crash(): ReactElement {
  throw new Error('a test crash inside a view (GW_CONSOLE_TEST_CRASH=1)')
}

/**
 * The top route's view; its own key so a new route starts with fresh view state. Memoized: the
 * frame's own redraws (a tick, a message, the footer) do not draw the view again.
 */
const Screen = memo(function Screen({route}: {route: Route}) {
  return <RouteContext.Provider value={route}>{VIEW_OF[route.view]()}</RouteContext.Provider>
})

function StatusLine({width}: {width: number}) {
  const {session, theme} = useFrame()
  useTickText(() => clockText(session.engineNow(), session.clock.offsetMs, session.clock.frozen).time)
  const acct = session.account ? `${session.account.name ? `${session.account.name} ` : ''}${session.account.id}` : session.profile
  const {time, ahead} = clockText(session.engineNow(), session.clock.offsetMs, session.clock.frozen)
  const mode = session.mode === 'live' ? ' LIVE ' : session.mode === 'test' ? ' TEST ' : ' ? '
  const clock = session.clock.source === 'wall' ? `wall ${time}` : `engine ${time}${session.clock.frozen ? ' (frozen)' : ''}`
  // live, but not serving (its store away): said while it lasts
  const conn = session.connection.state !== 'live' ? '○ reconnecting' : session.outage ? '◐ outage' : '● live'
  const restricted = session.key?.type === 'restricted' ? ' (restricted)' : ''
  const left = width >= 100 ? ` gw console · ${acct} · ` : ` ${acct} · `
  // the clock and the connection always fit; the key where there is room
  const clockPart = ` · ${clock}${ahead ? ` ${ahead}` : ''} · `
  const keyPart = ` · ${session.keyRedacted}${restricted}`
  // by display width: an account named in CJK takes two cells a character
  const leftWidth = Math.min(displayWidth(left), width)
  const room = width - leftWidth - mode.length - conn.length - 1
  const right = room >= keyPart.length + clockPart.length ? `${keyPart}${clockPart}` : clockPart
  return (
    <Text wrap="truncate">
      <Text bold>{left}</Text>
      <Text inverse={session.mode === 'live'} bold color={session.mode === 'live' ? theme.tone('bad') : theme.tone('ok')}>
        {mode}
      </Text>
      <Text>{fit(right, Math.max(0, room))}</Text>
      <Text color={session.connection.state !== 'live' ? theme.tone('warn') : session.outage ? theme.tone('bad') : theme.tone('ok')}>{conn}</Text>
    </Text>
  )
}

function Tabs({current, width}: {current: ViewName; width: number}) {
  const {theme} = useFrame()
  return (
    <Box width={width}>
      {VIEWS.map((v, i) => (
        <Text key={v} inverse={v === current} bold={v === current} color={v === current ? theme.tone('accent') : undefined} wrap="truncate">
          {` ${i + 1} ${VIEW_TITLES[v]} `}
        </Text>
      ))}
    </Box>
  )
}

function Banner({width}: {width: number}) {
  const {session, theme} = useFrame()
  const c = session.connection
  const o = session.outage
  useTickText(() => ageText(c.state === 'reconnecting' ? c.lastOkAt : o?.since, session.now()))
  const text =
    c.state === 'reconnecting' || !o
      ? `⟳ Reconnecting to ${session.host}: ${c.reason ?? 'no answer'} · tried ${c.attempts ?? 0}× · last answer ${ageText(c.lastOkAt, session.now())}; what you see is from then`
      : `⚠ ${session.host} answers but cannot serve: ${o.reason} · since ${ageText(o.since, session.now())} · ${o.seen.length} 5xx here; what you see is from before`
  return (
    <Text inverse bold color={theme.tone('warn')} wrap="truncate">
      {fit(text, width)}
    </Text>
  )
}

function Footer({keys, tail, width}: {keys: readonly (readonly [string, string])[]; tail: readonly (readonly [string, string])[]; width: number}) {
  return (
    <Text dimColor wrap="truncate">
      {fit(footerText(keys, tail, width), width)}
    </Text>
  )
}

function Help({route, height}: {route: Route; height: number}) {
  const own = VIEW_KEYS[route.view] ?? []
  const lines = [
    `Keys of ${route.view}`,
    ...own.map((k) => `  ${k.keys.padEnd(16)} ${k.does}`),
    '',
    'Everywhere',
    ...GLOBAL_KEYS.map((k) => `  ${k.keys.padEnd(16)} ${k.does}`),
  ]
  return (
    <Box flexDirection="column">
      {lines.slice(0, height).map((l, i) => (
        <Text key={i} bold={i === 0 || l === 'Everywhere'} wrap="truncate">
          {l || ' '}
        </Text>
      ))}
    </Box>
  )
}

/** Mounts the console; resolves when the person quits. */
export async function mountConsole(opts: Omit<AppProps, 'painter'> & {stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream; stderr: NodeJS.WriteStream; onRender?: () => void}): Promise<{unmount(): void; done: Promise<void>}> {
  // the lists' rows are painted on the terminal after each of Ink's writes (painter.ts), which
  // needs Ink to rewrite every line of its frame at each write: incrementalRendering stays off
  const painter = new ListPainter(opts.stdout)
  const instance = render(<App session={opts.session} theme={opts.theme} initial={opts.initial} onRoute={opts.onRoute} painter={painter} escapeMs={opts.escapeMs} />, {
    stdout: painter.hookWrites(opts.stdout),
    stdin: opts.stdin,
    stderr: opts.stderr,
    exitOnCtrlC: false,
    patchConsole: false,
    incrementalRendering: false,
    maxFps: 30,
    onRender: () => {
      painter.rendered()
      opts.onRender?.()
    },
  })
  return {unmount: () => instance.unmount(), done: instance.waitUntilExit().then(() => undefined)}
}
