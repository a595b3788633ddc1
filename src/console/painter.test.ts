import type {DOMElement} from 'ink'
import {describe, expect, it} from 'vitest'
import {ListPainter, type PaintedLine} from './painter.js'
import {toWidth} from './width.js'

/** An Ink box laid out at (x, y) inside a parent at (0, top), `height` rows of `width`. */
function box(x: number, y: number, width: number, height: number, top = 0): DOMElement {
  const yoga = (l: number, t: number, w = 0, h = 0) => ({getComputedLeft: () => l, getComputedTop: () => t, getComputedWidth: () => w, getComputedHeight: () => h})
  const parent = {yogaNode: yoga(0, top), parentNode: undefined}
  return {yogaNode: yoga(x, y, width, height), parentNode: parent} as unknown as DOMElement
}

function terminal() {
  const writes: string[] = []
  return {writes, out: {write: (s: string) => writes.push(s), rows: 24, isTTY: false}}
}

/** The rows a write put where: [row (1-based), text] for each cursor move in it. */
const moves = (s: string) => [...s.matchAll(/\u001B\[(\d+);(\d+)H([^\u001B]*)/g)].map((m) => [Number(m[1]), Number(m[2]), m[3]])

describe('ListPainter', () => {
  it('writes each row at its cell, cut or padded to the box, cursor saved and restored; then only the rows that changed', () => {
    const t = terminal()
    const p = new ListPainter(t.out)
    let lines: PaintedLine[] = [{text: 'first row that is too long'}, {text: 'second'}]
    p.attach({node: box(2, 3, 10, 4, 1), lines: () => lines})
    expect(t.writes).toHaveLength(1)
    expect(t.writes[0]!.startsWith('\u001B7')).toBe(true)
    expect(t.writes[0]!.endsWith('\u001B8')).toBe(true)
    expect(moves(t.writes[0]!)).toEqual([
      [5, 3, 'first row '],
      [6, 3, 'second    '],
    ])
    lines = [{text: 'first row that is too long'}, {text: 'changed'}, {text: 'third'}]
    p.paint()
    expect(moves(t.writes[1]!)).toEqual([
      [6, 3, 'changed   '],
      [7, 3, 'third     '],
    ])
    p.paint()
    expect(t.writes).toHaveLength(2) // nothing changed: nothing written
    // a row gone is blanked
    lines = [{text: 'first row that is too long'}]
    p.paint()
    expect(moves(t.writes[2]!)).toEqual([
      [6, 3, '          '],
      [7, 3, '          '],
    ])
  })

  it("paints every row again after each of Ink's writes (Ink rewrote those lines blank); none once detached", () => {
    const t = terminal()
    const p = new ListPainter(t.out)
    const region = {node: box(0, 0, 5, 2), lines: () => [{text: 'a'}, {text: 'b'}]}
    const ink = p.hookWrites(t.out as unknown as NodeJS.WriteStream)
    p.attach(region)
    ink.write('frame')
    expect(t.writes[1]).toBe('frame')
    expect(moves(t.writes[2]!)).toEqual([
      [1, 1, 'a    '],
      [2, 1, 'b    '],
    ])
    p.detach(region)
    ink.write('next frame')
    expect(t.writes.slice(3)).toEqual(['next frame'])
  })

  it("inside Ink's synchronized update, the rows go just before it ends", () => {
    const t = terminal()
    const p = new ListPainter(t.out)
    const ink = p.hookWrites(t.out as unknown as NodeJS.WriteStream)
    p.attach({node: box(0, 0, 3, 1), lines: () => [{text: 'row'}]})
    t.writes.length = 0
    ink.write('\u001B[?2026h')
    ink.write('frame')
    expect(t.writes).toEqual(['\u001B[?2026h', 'frame'])
    ink.write('\u001B[?2026l')
    expect(moves(t.writes[2]!)).toEqual([[1, 1, 'row']])
    expect(t.writes[3]).toBe('\u001B[?2026l')
  })

  it('keeps to the terminal: no row on or below its last line (Ink leaves it free)', () => {
    const t = terminal()
    t.out.rows = 4
    const p = new ListPainter(t.out)
    p.attach({node: box(0, 1, 3, 10), lines: () => Array.from({length: 10}, () => ({text: 'x'}))})
    expect(moves(t.writes[0]!).map((m) => m[0])).toEqual([2, 3])
  })

  it('measures wide characters (a customer\'s reference in CJK, an emoji) so that a row never runs past its box', () => {
    expect(toWidth('order-12', 5)).toBe('order')
    expect(toWidth('€12.50 EUR', 12)).toBe('€12.50 EUR  ')
    expect(toWidth('注文番号', 5)).toBe('注文 ') // two wide characters, then one column left over
    expect(toWidth('a😀b', 4)).toBe('a😀b')
    expect(toWidth('e\u0301t\u00e9', 4)).toBe('e\u0301t\u00e9 ')
  })
  it("holds the rows from a commit until Ink has drawn its frame: a new view's rows never show under the old view's heading", async () => {
    const t = terminal()
    const p = new ListPainter(t.out)
    const ink = p.hookWrites(t.out as unknown as NodeJS.WriteStream)
    // Ink's root: its reconciler calls onRender at each commit; Ink draws then or up to 33 ms later
    let commits = 0
    const root = {yogaNode: {getComputedLeft: () => 0, getComputedTop: () => 0}, parentNode: undefined, onRender: () => void commits++}
    const node = {yogaNode: {getComputedLeft: () => 0, getComputedTop: () => 1, getComputedWidth: () => 6, getComputedHeight: () => 2}, parentNode: root} as unknown as DOMElement
    let lines: PaintedLine[] = [{text: 'old'}]
    p.attach({node, lines: () => lines})
    expect(moves(t.writes.splice(0).join(''))).toEqual([[2, 1, 'old   ']])
    // a commit whose frame Ink has not drawn (the old view's heading is still on the terminal)
    ;(root as {onRender: () => void}).onRender()
    expect(commits).toBe(1) // Ink's own onRender still runs
    lines = [{text: 'new'}, {text: 'rows'}]
    p.paint()
    p.attach({node, lines: () => lines})
    expect(t.writes).toEqual([])
    // Ink draws: its render, then its write; the rows follow the frame
    p.rendered()
    ink.write('frame')
    expect(t.writes[0]).toBe('frame')
    expect(moves(t.writes[1]!)).toEqual([
      [2, 1, 'new   '],
      [3, 1, 'rows  '],
    ])
    // a frame whose text did not change (Ink writes nothing): the rows are painted after its render
    ;(root as {onRender: () => void}).onRender()
    lines = [{text: 'newer'}]
    p.paint()
    expect(t.writes).toHaveLength(2)
    p.rendered()
    await Promise.resolve()
    expect(moves(t.writes[2]!)).toEqual([
      [2, 1, 'newer '],
      [3, 1, '      '],
    ])
  })
})
