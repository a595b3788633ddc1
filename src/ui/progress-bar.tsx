// Ink progress bar: a label, a bar and "done/total" (or the count alone without a total), with
// lines printed above it. Imported only through ./progress.ts (the render gate).
import {Box, render, Static} from 'ink'
import {Text} from './text.js'
import {liveLines} from './live-lines.js'
import type {ProgressBar} from './progress.js'

interface State {
  label: string
  done?: number
  total?: number
}

export function barText(done: number, total: number, width: number): string {
  const share = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0
  const full = Math.round(share * width)
  return '█'.repeat(full) + '░'.repeat(width - full)
}

function Bar({state, lines, columns}: {state: State; lines: string[]; columns: number}) {
  const {label, done, total} = state
  const count = done === undefined ? '' : total === undefined ? ` ${done.toLocaleString('en-US')}` : ` ${done}/${total}`
  const width = Math.max(10, Math.min(30, columns - label.length - count.length - 4))
  return (
    <>
      <Static items={lines}>{(line, i) => <Text key={i}>{line}</Text>}</Static>
      <Box>
        <Text>{label}</Text>
        {total !== undefined && done !== undefined ? <Text color="cyan"> {barText(done, total, width)}</Text> : null}
        <Text>{count}</Text>
      </Box>
    </>
  )
}

export function mountProgressBar(label: string, stream: NodeJS.WriteStream): ProgressBar {
  let state: State = {label}
  const lines: string[] = []
  const columns = () => stream.columns ?? 80
  const instance = render(<Bar state={state} lines={[...lines]} columns={columns()} />, {stdout: stream, patchConsole: false, exitOnCtrlC: true})
  let timer: NodeJS.Timeout | undefined
  const redraw = () => instance.rerender(<Bar state={state} lines={[...lines]} columns={columns()} />)
  const view = liveLines(instance, stream, lines, redraw, () => clearTimeout(timer))
  // many updates a second (rows of a large file) become one redraw every 50 ms
  const schedule = () => {
    timer ??= setTimeout(() => {
      timer = undefined
      if (!view.stopped) redraw()
    }, 50)
  }
  return {
    set(next, done, total) {
      if (view.stopped) return
      const first = next !== state.label || total !== state.total
      state = {label: next, done, total}
      if (first) redraw()
      else schedule()
    },
    log: view.log,
    stop: view.stop,
  }
}
