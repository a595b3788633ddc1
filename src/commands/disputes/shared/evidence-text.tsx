// The evidence form's texts: a value on one line or indented under its key, the text being
// typed with its cursor (its last rows when rows are few), and the review's pane of what will be
// sent, scrolled with the arrows.
import {Box} from 'ink'
import {Text} from '../../../ui/text.js'

/** A value's later lines, indented under its first. */
export const indentLines = (v: string) => v.replace(/\n/g, '\n    ')

/** A value on one line: how many lines it has, and its first. */
export const oneLine = (v: string) => {
  const lines = v.split('\n')
  return lines.length > 1 ? `(${lines.length} lines) ${lines[0]}` : v
}

/**
 * The text being typed, with a block cursor after it; a multi-line one on lines of its own. With
 * `rows`, its last rows (each cut to one) under a line counting those above: the end, where
 * typing goes on, always shows.
 */
export function FieldText({text, multiline = false, rows}: {text: string; multiline?: boolean; rows?: number}) {
  const cursor = <Text inverse> </Text>
  if (!multiline) return (
    <Text>
      {text}
      {cursor}
    </Text>
  )
  if (rows !== undefined) {
    const lines = text.split('\n')
    const room = lines.length > rows ? Math.max(1, rows - 1) : rows
    const above = Math.max(0, lines.length - room)
    const shown = lines.slice(above)
    return (
      <Box flexDirection="column">
        {above ? <Text dimColor>{`  ↑ ${above} line${above === 1 ? '' : 's'} above (all kept; the review shows the total)`}</Text> : null}
        {shown.map((l, i) => (
          <Text key={above + i} wrap="truncate">
            {'  '}
            {l}
            {i === shown.length - 1 ? cursor : null}
          </Text>
        ))}
      </Box>
    )
  }
  return (
    <Text>
      {'  '}
      {text.replace(/\n/g, '\n  ')}
      {cursor}
    </Text>
  )
}

/** What will be sent, a key and its value's lines, as the review's pane shows them. */
export function reviewLines(fields: Record<string, string>): string[] {
  return Object.entries(fields).flatMap(([k, v]) => [`${k}:`, ...v.split('\n').map((l) => `  ${l}`)])
}

/**
 * The review's pane: `rows` lines of what will be sent from `top`, with where they are in the
 * whole (every line of a pasted text can be read before it is sent).
 */
export function ReviewText({lines, top, rows}: {lines: readonly string[]; top: number; rows: number}) {
  const room = Math.max(1, rows - 1)
  const first = Math.max(0, Math.min(top, lines.length - room))
  const shown = lines.slice(first, first + room)
  const more = lines.length > room
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate">
        {more ? `What will be sent: lines ${first + 1}–${first + shown.length} of ${lines.length} (↑↓ PgUp PgDn to read it all)` : 'What will be sent:'}
      </Text>
      {shown.map((l, i) => (
        <Text key={first + i} wrap="truncate">
          {l || ' '}
        </Text>
      ))}
    </Box>
  )
}
