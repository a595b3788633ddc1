// One keyboard for a full-screen Ink app whose inputs come and go (a search field opened by `/`,
// a form opened by `e`). Ink's useInput subscribes a component in a passive effect, after the
// frame that shows it is drawn; Ink's root is synchronous (legacy), so that effect waits for the
// scheduler's next turn, and on a busy machine a key typed after the field appeared can be read
// first and reach no one (the field opened empty, the text was lost). Here the app subscribes to
// Ink once, and each input joins in a layout effect: in the same commit that draws it, before
// any later key is read. A component outside a keyboard (a standalone form) uses Ink's useInput.
import {useInput, type Key} from 'ink'
import {createContext, useCallback, useContext, useLayoutEffect, useState, type ReactNode} from 'react'
import {useLatest} from './latest.js'

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
 * The app's one subscription to Ink's input. Every key goes to the listeners in the order they
 * joined (the provider's own `onKey` first), inside the batch Ink wraps a key in.
 */
export function KeyboardProvider({onKey, children}: {onKey: KeyListener; children: ReactNode}) {
  const own = useLatest(onKey)
  const [keyboard] = useState(() => keyboardOf(own))
  useInput(keyboard.send)
  return <KeyboardContext.Provider value={keyboard}>{children}</KeyboardContext.Provider>
}

/**
 * A component's keys: inside a KeyboardProvider, heard from the commit that first draws the
 * component; elsewhere through Ink's useInput. The latest render's handler hears each key.
 */
export function useKeyInput(handler: KeyListener): void {
  const keyboard = useContext(KeyboardContext)
  const latest = useLatest(handler)
  useLayoutEffect(() => keyboard?.add(latest), [keyboard, latest])
  const stable = useCallback((input: string, key: Key) => latest.current(input, key), [latest])
  useInput(stable, {isActive: keyboard === null})
}
