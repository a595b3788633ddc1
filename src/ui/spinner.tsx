// Ink spinner with a changing label and lines printed above it. Imported only through
// ./progress.ts (the render gate).
import {Box, render, Static} from 'ink'
import {Text} from './text.js'
import {useEffect, useState} from 'react'
import {liveLines} from './live-lines.js'
import type {Progress} from './progress.js'

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

function Spinner({label, lines}: {label: string; lines: string[]}) {
  const [frame, setFrame] = useState(0)
  useEffect(() => {
    const t = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 80)
    return () => clearInterval(t)
  }, [])
  return (
    <>
      <Static items={lines}>{(line, i) => <Text key={i}>{line}</Text>}</Static>
      <Box>
        <Text color="cyan">{FRAMES[frame]}</Text>
        <Text> {label}</Text>
      </Box>
    </>
  )
}

export function mountSpinner(label: string, stream: NodeJS.WriteStream): Progress {
  let current = label
  const lines: string[] = []
  const instance = render(<Spinner label={current} lines={[...lines]} />, {stdout: stream, patchConsole: false, exitOnCtrlC: true})
  const redraw = () => instance.rerender(<Spinner label={current} lines={[...lines]} />)
  const view = liveLines(instance, stream, lines, redraw)
  return {
    update(next) {
      if (view.stopped) return
      current = next
      redraw()
    },
    log: view.log,
    stop: view.stop,
  }
}
