// What the spinner and the progress bar share: lines printed above the live Ink view (its Static
// part), and its end, after which lines go straight to the stream.

export interface LiveLines {
  readonly stopped: boolean
  log(line: string): void
  stop(): void
}

/** `redraw` shows `lines` again; `beforeStop` cancels what the view has pending. */
export function liveLines(instance: {clear(): void; unmount(): void}, stream: NodeJS.WriteStream, lines: string[], redraw: () => void, beforeStop?: () => void): LiveLines {
  const view = {
    stopped: false,
    log(line: string) {
      if (view.stopped) {
        stream.write(line + '\n')
        return
      }
      lines.push(line)
      redraw()
    },
    stop() {
      if (view.stopped) return
      view.stopped = true
      beforeStop?.()
      instance.clear()
      instance.unmount()
    },
  }
  return view
}
