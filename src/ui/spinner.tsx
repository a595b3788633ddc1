// Ink spinner with a changing label. Imported only through ./progress.ts (the render gate).
import {Box, render, Text} from 'ink'
import {useEffect, useState} from 'react'
import type {Progress} from './progress.js'

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

function Spinner({label}: {label: string}) {
  const [frame, setFrame] = useState(0)
  useEffect(() => {
    const t = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 80)
    return () => clearInterval(t)
  }, [])
  return (
    <Box>
      <Text color="cyan">{FRAMES[frame]}</Text>
      <Text> {label}</Text>
    </Box>
  )
}

export function mountSpinner(label: string, stream: NodeJS.WriteStream): Progress {
  const instance = render(<Spinner label={label} />, {stdout: stream, patchConsole: false, exitOnCtrlC: true})
  let stopped = false
  return {
    update(next) {
      if (!stopped) instance.rerender(<Spinner label={next} />)
    },
    stop() {
      if (stopped) return
      stopped = true
      instance.clear()
      instance.unmount()
    },
  }
}
