// A read of the terminal, cut into keys: each key of a read on its own, in order; an escape
// sequence split across reads joined; a paste kept whole (bracketed, or several lines in one read).
import {describe, expect, it} from 'vitest'
import {isUnbracketedPaste, KeyReader} from './key-reader.js'

const raws = (r: KeyReader, data: string) => r.push(data).map((k) => (k.paste ? {paste: k.raw} : k.raw))

describe('KeyReader', () => {
  it('cuts a read into its keys: characters, control keys and escape sequences, in order', () => {
    const r = new KeyReader()
    expect(raws(r, 'jjjjj')).toEqual(['j', 'j', 'j', 'j', 'j'])
    expect(raws(r, '32')).toEqual(['3', '2'])
    expect(raws(r, 'r q')).toEqual(['r', ' ', 'q'])
    expect(raws(r, '\u001b[B\u001b[B\u001b[B')).toEqual(['\u001b[B', '\u001b[B', '\u001b[B'])
    expect(raws(r, '\u001bOB\u001b[6~\u001b[1;5A/zoe\r')).toEqual(['\u001bOB', '\u001b[6~', '\u001b[1;5A', '/', 'z', 'o', 'e', '\r'])
    expect(raws(r, '\u0003\u007f\t')).toEqual(['\u0003', '\u007f', '\t'])
    // Alt and a key; a character outside the BMP is one key
    expect(raws(r, '\u001bj🎁é')).toEqual(['\u001bj', '🎁', 'é'])
    expect(r.pending).toBe(false)
  })

  it('holds an escape sequence split across reads until it is whole; a lone ESC is Esc once nothing more comes', () => {
    const r = new KeyReader()
    expect(raws(r, '\u001b')).toEqual([])
    expect(r.pending).toBe(true)
    expect(raws(r, '[B')).toEqual(['\u001b[B'])
    expect(raws(r, 'j\u001b[')).toEqual(['j'])
    expect(raws(r, '1;5')).toEqual([])
    expect(raws(r, 'Bk')).toEqual(['\u001b[1;5B', 'k'])
    expect(raws(r, '\u001b')).toEqual([])
    expect(r.flush()).toEqual([{raw: '\u001b'}])
    expect(r.pending).toBe(false)
  })

  it('keeps a bracketed paste whole however many reads it takes, control characters out, then goes on with keys', () => {
    const r = new KeyReader()
    expect(raws(r, 'a\u001b[200~1 Main St\rSpring')).toEqual(['a'])
    expect(raws(r, 'field, IL\u001b[20')).toEqual([])
    expect(raws(r, '1~jq')).toEqual([{paste: '1 Main St\rSpringfield, IL'}, 'j', 'q'])
    expect(raws(r, '\u001b[200~q\u0007\u001b[201~')).toEqual([{paste: 'q'}])
  })

  it('takes a read of several lines without brackets as one paste; keys typed ahead (a line break at the end, a short burst) stay keys', () => {
    expect(isUnbracketedPaste('1 Main St\rSpringfield, IL 62701\rUSA')).toBe(true)
    expect(isUnbracketedPaste('/zoe\r')).toBe(false)
    expect(isUnbracketedPaste('e3\rab')).toBe(false)
    expect(isUnbracketedPaste('jjjjjjjjjjjjjjjjjjjj')).toBe(false)
    const r = new KeyReader()
    expect(raws(r, 'line one of it\rline two of it')).toEqual([{paste: 'line one of it\rline two of it'}])
  })
})
