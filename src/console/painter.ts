// The list region's own renderer. A frame of Ink lays out and rebuilds the whole screen (all
// 120×40 cells: every character measured, tokenized and styled again, 20–30 ms of CPU) whatever
// changed; a list redrawn 10–20 times a second (Events at 1,000/s) or on each key (Payments'
// PageDown) is most of those cells. So a list's rows are not Ink's: Ink draws the list's box
// empty, and this painter writes its rows into that box itself — the rows that changed, each one
// pre-rendered line — after each frame Ink writes and whenever the list changes between Ink's
// frames (a batch of events, a move). The rows go to the terminal as Ink's would (the same
// chalk styles Ink's Text applies: dim, colour, bold, inverse), each cut to the box's width.
//
// It relies on Ink rewriting every line of its frame at each write (incrementalRendering off,
// see app.tsx): after an Ink write the box is blank on the terminal, and every row is painted
// again. Ink's own writes go through `hookWrites`, which paints just after each one (inside
// Ink's synchronized update when the terminal has one). The cursor is saved and restored around
// a paint, so Ink's relative cursor moves (its next erase) are unaffected.
//
// Rows never go out ahead of the frame they belong to. Ink draws a committed tree at most 30
// times a second: a commit within 33 ms of the last frame waits for the next one. Painted then,
// a new view's rows (Events) would show for that while under the old view's heading (Disputes').
// So from each commit (Ink's root calls its onRender) until Ink has drawn it (`rendered`, from
// render()'s onRender option), the painter holds its rows, and paints them once Ink has drawn.
import chalk from 'chalk'
import type {DOMElement} from 'ink'
import {toWidth} from './width.js'

/** One row of a painted list. `text` is terminal-safe already (format.ts `fit`), one column a character. */
export interface PaintedLine {
  text: string
  color?: string
  inverse?: boolean
  dim?: boolean
  bold?: boolean
}

export interface PaintRegion {
  /** the empty box Ink lays out for the rows */
  node: DOMElement | null
  /** the rows to show now, top first */
  lines(): readonly PaintedLine[]
  /** after rows were written (the trace of the Events view) */
  painted?(): void
}

/** Ink's synchronized-update brackets (ink/build/write-synchronized.js). */
const BSU = '\u001B[?2026h'
const ESU = '\u001B[?2026l'
const SAVE = '\u001B7'
const RESTORE = '\u001B8'

/** A line as Ink's Text would style it (the same chalk calls in the same order). */
export function styleLine(l: PaintedLine): string {
  let s = l.text
  if (l.dim && !l.inverse) s = chalk.dim(s)
  if (l.color) s = (chalk as unknown as Record<string, (x: string) => string>)[l.color]?.(s) ?? s
  if (l.bold) s = chalk.bold(s)
  if (l.inverse) s = chalk.inverse(s)
  return s
}

/** Where Ink laid the box out: its cell on the screen (Ink's frame starts at the top left) and its size. */
function boxOf(node: DOMElement): {x: number; y: number; width: number; height: number} | undefined {
  const y0 = node.yogaNode
  if (!y0) return undefined
  let x = 0
  let y = 0
  for (let n: DOMElement | undefined = node; n; n = n.parentNode) {
    if (!n.yogaNode) continue
    x += n.yogaNode.getComputedLeft()
    y += n.yogaNode.getComputedTop()
  }
  return {x: Math.round(x), y: Math.round(y), width: Math.round(y0.getComputedWidth()), height: Math.round(y0.getComputedHeight())}
}

export class ListPainter {
  private region: PaintRegion | undefined
  /** what each row of the box shows on the terminal now ('' blank: as Ink left it) */
  private shown: string[] = []
  private at = ''
  private syncing = false
  private dirty = false
  /** a commit Ink has not drawn yet: rows wait for its frame */
  private framePending = false
  /** Ink's root node, whose commits the painter watches */
  private root: object | undefined

  constructor(private readonly out: {write(s: string): unknown; rows?: number; isTTY?: boolean}) {}

  attach(region: PaintRegion): void {
    this.region = region
    if (region.node) this.watchCommits(region.node)
    this.shown = []
    this.paint()
  }

  detach(region: PaintRegion): void {
    if (this.region !== region) return
    // what was painted stays until Ink's next frame rewrites those lines (it does: the view changed)
    this.region = undefined
    this.shown = []
  }

  /**
   * Ink drew a frame (render()'s onRender option: called as it renders, before it writes). Rows
   * held since the commit are painted after its write, or now if the frame's text did not change.
   */
  rendered(): void {
    if (!this.framePending) return
    this.framePending = false
    queueMicrotask(() => this.paint())
  }

  /** Writes the rows that differ from what the terminal shows. */
  paint(): void {
    const r = this.region
    if (!r?.node || this.framePending) return
    const box = boxOf(r.node)
    if (!box || box.width <= 0) return
    const where = `${box.x},${box.y},${box.width}`
    if (where !== this.at) {
      // moved or resized: Ink's frame rewrote those lines anyway
      this.at = where
      this.shown = []
    }
    const lines = r.lines()
    const maxRows = Math.min(box.height, Math.max(0, (this.out.rows ?? Infinity) - 1 - box.y))
    let seq = ''
    for (let i = 0; i < maxRows; i++) {
      const l = lines[i]
      const styled = l ? styleLine({...l, text: toWidth(l.text, box.width)}) : ''
      if (styled === (this.shown[i] ?? '')) continue
      this.shown[i] = styled
      seq += `\u001B[${box.y + i + 1};${box.x + 1}H${styled || ' '.repeat(box.width)}`
    }
    if (seq) {
      const sync = this.out.isTTY === true && !this.syncing
      this.out.write(`${sync ? BSU : ''}${SAVE}${seq}${RESTORE}${sync ? ESU : ''}`)
    }
    r.painted?.()
  }

  /**
   * Ink's stdout, wrapped: every write of Ink's frame is followed by the rows (Ink's frame left
   * the box blank). Inside Ink's synchronized update the rows go just before it ends.
   */
  hookWrites<T extends NodeJS.WriteStream>(stream: T): T {
    const write = (data: unknown, ...rest: unknown[]): boolean => {
      const text = typeof data === 'string' ? data : undefined
      if (text === BSU) {
        this.syncing = true
        return (stream.write as (...a: unknown[]) => boolean)(data, ...rest)
      }
      if (text === ESU) {
        if (this.dirty) this.repaintAll()
        this.syncing = false
        return (stream.write as (...a: unknown[]) => boolean)(data, ...rest)
      }
      const ok = (stream.write as (...a: unknown[]) => boolean)(data, ...rest)
      if (this.syncing) this.dirty = true
      else this.repaintAll()
      return ok
    }
    return new Proxy(stream, {
      get(target, prop) {
        if (prop === 'write') return write
        const v = Reflect.get(target, prop, target) as unknown
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
      },
    })
  }

  /**
   * Ink calls its root node's onRender at each commit (its reconciler's resetAfterCommit), and
   * draws the frame then or up to 33 ms later: from then until `rendered`, a frame is pending.
   */
  private watchCommits(node: DOMElement): void {
    let top: DOMElement = node
    while (top.parentNode) top = top.parentNode
    const root = top as DOMElement & {onRender?: () => void}
    if (this.root === root || typeof root.onRender !== 'function') return
    this.root = root
    const onCommit = root.onRender
    root.onRender = () => {
      this.framePending = true
      onCommit()
    }
  }

  private repaintAll(): void {
    this.dirty = false
    this.shown = []
    this.paint()
  }
}
