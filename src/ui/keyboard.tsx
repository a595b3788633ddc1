// One keyboard for a full-screen Ink app whose inputs come and go (a search field opened by `/`,
// a form opened by `e`).
//
// Every key of a read acts, in order. Ink hands its input hooks what it read as one string
// (`jjjjj`, `3 2`, `r q` typed ahead or sent over SSH in one packet): a handler comparing it to
// "j" saw none of them. Here the app reads the terminal's bytes itself (Ink's stdin events,
// before Ink's own parsing), cuts them into keys (key-reader.ts: escape sequences joined across
// reads, a paste kept whole) and hands each key on once React has drawn the one before, so the
// key after `/` goes to the field `/` opened, and the third `j` sees where the second one moved.
//
// A field joins as it is drawn. Ink's useInput subscribes a component in a passive effect, after
// the frame that shows it, and on a busy machine a key typed after the field appeared could be
// read first and reach no one. Here the app subscribes to Ink once, and each input joins in a
// layout effect: in the same commit that draws it, before any later key is read.
import {useInput, useStdin, type Key as InkKey} from 'ink'
import {createContext, useCallback, useContext, useEffect, useLayoutEffect, useState, type ReactNode} from 'react'
import {ESC_WAIT_MS, KeyReader, type RawKey} from './key-reader.js'
import {useLatest} from './latest.js'

/**
 * A key as Ink parses it; whether it is a paste (text that means nothing as keys); and which
 * read of the terminal it came in (readsSoFar() as a screen was drawn tells a key typed after it
 * was shown from one typed ahead).
 */
export type Key = InkKey & {paste?: boolean; read?: number}

let reads = 0

/** How many reads of the terminal the keyboard has taken so far. */
export function readsSoFar(): number {
  return reads
}

/** Keys read and not yet handed on and drawn (a read's later keys wait for the one before to be drawn). */
let waiting = 0
const whenDone: (() => void)[] = []

/**
 * Resolves once every key read so far has been handed on and React has committed what it changed
 * (the painter's rows painted in that commit; tests that type, then look).
 */
export function keysHandled(): Promise<void> {
  return waiting === 0 ? Promise.resolve() : new Promise((resolve) => whenDone.push(resolve))
}

function handedOn(n: number): void {
  waiting = Math.max(0, waiting - n)
  if (waiting === 0) for (const done of whenDone.splice(0)) done()
}

export type KeyListener = (input: string, key: Key) => void

interface Keyboard {
  /** adds a listener; the function returned removes it */
  add(listener: {current: KeyListener}): () => void
  /** one key to every listener, in the order they joined */
  send(input: string, key: Key): void
}

/** The listeners, the provider's own first. */
function keyboardOf(own: {current: KeyListener}): Keyboard {
  const listeners = new Set([own])
  return {
    add(l) {
      listeners.add(l)
      return () => void listeners.delete(l)
    },
    // a listener that joins because of this key (a field opened by it) hears the next key, not this one
    send(input, key) {
      for (const l of [...listeners]) if (listeners.has(l)) l.current(input, key)
    },
  }
}

const KeyboardContext = createContext<Keyboard | null>(null)

/**
 * The app's one subscription to Ink's input. The terminal's bytes are cut into keys; each goes
 * back through Ink's input (so Ink parses it as it parses a key of its own), a key a turn once
 * the one before is drawn, to the listeners in the order they joined (the provider's own `onKey` first).
 */
export function KeyboardProvider({onKey, children, escapeMs = ESC_WAIT_MS}: {onKey: KeyListener; children: ReactNode; /** how long a lone ESC waits for the rest of a sequence (ESC_WAIT_MS) */ escapeMs?: number}) {
  const own = useLatest(onKey)
  const [keyboard] = useState(() => keyboardOf(own))
  const {internal_eventEmitter: events} = useStdin()
  // the key being handed on (Ink's own reads reach the handler too, and are not keys yet)
  const [relay] = useState(() => ({current: undefined as (RawKey & {read: number}) | undefined}))
  // the commit that draws a key: the provider renders again in the same batch as the key's own
  // updates (a state update made right after the handlers ran, at the same priority), so its
  // layout effect runs in the commit that draws what the key changed
  const [drawn, setDrawn] = useState(0)
  const [afterDraw] = useState(() => ({current: undefined as (() => void) | undefined}))
  useLayoutEffect(() => {
    const then = afterDraw.current
    afterDraw.current = undefined
    then?.()
  }, [drawn, afterDraw])
  useEffect(() => {
    const reader = new KeyReader()
    let wait: NodeJS.Timeout | undefined
    // keys waiting for the one before to be drawn. React renders a key's updates in a task of
    // its scheduler, which yields to the event loop once it has worked 5 ms (a slow passive
    // effect, or the process descheduled on a busy machine): no turn of the event loop is sure
    // to come after that render, so the next key waits for the commit itself (afterDraw), then
    // for an immediate (the passive effects React queued in that commit run first)
    const queue: (RawKey & {read: number})[] = []
    let next: NodeJS.Immediate | undefined
    /** a key was handed on and React has not drawn it yet */
    let settling = false
    let closed = false
    const deliver = () => {
      next = undefined
      const k = queue.shift()
      if (!k || closed) {
        settling = false
        return
      }
      settling = true
      // set before the key acts: a key that quits unmounts the provider as it is handled, and the
      // cleanup then releases it (its commit will not come)
      afterDraw.current = () => {
        handedOn(1)
        if (!closed) next = setImmediate(deliver)
      }
      relay.current = k
      try {
        events.emit('input', k.raw)
      } finally {
        relay.current = undefined
      }
      if (!closed) setDrawn((n) => n + 1)
    }
    const hand = (keys: (RawKey & {read: number})[]) => {
      waiting += keys.length
      queue.push(...keys)
      if (!settling) deliver()
    }
    const onRead = (data: string) => {
      if (relay.current) return
      if (wait) clearTimeout(wait)
      wait = undefined
      const read = ++reads
      hand(reader.push(data).map((k) => ({...k, read})))
      // ESC alone (or a sequence cut short): the rest may come in the next read
      if (reader.pending) wait = setTimeout(() => hand(reader.flush().map((k) => ({...k, read}))), escapeMs)
    }
    events.on('input', onRead)
    return () => {
      events.off('input', onRead)
      if (wait) clearTimeout(wait)
      closed = true
      if (next) clearImmediate(next)
      // the key being drawn (its commit will not come) and those after it
      handedOn(queue.length + (afterDraw.current ? 1 : 0))
      afterDraw.current = undefined
      queue.length = 0
    }
  }, [events, relay, afterDraw, escapeMs])
  useInput((input, key) => {
    const k = relay.current
    if (!k) return
    keyboard.send(k.paste ? k.raw : input, k.paste ? {...NO_KEY, paste: true, read: k.read} : {...key, read: k.read})
  })
  return <KeyboardContext.Provider value={keyboard}>{children}</KeyboardContext.Provider>
}

/** A paste's key: no key of its own. */
const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
}

/**
 * A component's keys: inside a KeyboardProvider, heard from the commit that first draws the
 * component; elsewhere through Ink's useInput. The latest render's handler hears each key.
 */
export function useKeyInput(handler: KeyListener): void {
  const keyboard = useContext(KeyboardContext)
  const latest = useLatest(handler)
  useLayoutEffect(() => keyboard?.add(latest), [keyboard, latest])
  const stable = useCallback((input: string, key: InkKey) => latest.current(input, key), [latest])
  useInput(stable, {isActive: keyboard === null})
}
