// Ink's Text with its text shown as the renderer shows text (src/output/terminal.ts): a control
// character from data (a customer's name, evidence, an event's reference) is drawn in caret
// notation, never sent to the terminal. Every Ink view imports Text from here, not from ink (a
// test holds them to it); Ink paints colours itself, so no sequence in the text itself passes.
import {Text as InkText, type TextProps} from 'ink'
import {Children, type ReactNode} from 'react'
import {terminalSafe} from '../output/terminal.js'

const shown = (node: ReactNode): ReactNode => (typeof node === 'string' ? terminalSafe(node) : node)

export function Text(props: TextProps) {
  return <InkText {...props}>{Children.map(props.children, shown)}</InkText>
}
