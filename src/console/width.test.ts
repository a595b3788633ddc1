// Display width, the one measure of the painter and the views' columns: East Asian wide and
// fullwidth characters and emoji take 2 cells, combining marks and invisible formatting none.
import {describe, expect, it} from 'vitest'
import {fit, fitId} from './format.js'
import {cutToWidth, displayWidth, toWidth} from './width.js'

describe('display width', () => {
  it('measures what a terminal draws: wide and emoji 2 cells, combining marks 0, the rest 1', () => {
    expect(displayWidth('ORDER-1')).toBe(7)
    expect(displayWidth('€12.50 EUR · ↺ …')).toBe(16)
    expect(displayWidth('注文番号-12345-🎁')).toBe(4 * 2 + 7 + 2)
    expect(displayWidth('ORDER-注文-ß-300111')).toBe(6 + 4 + 9)
    expect(displayWidth('e\u0301tude')).toBe(5)
    expect(displayWidth('Ñúñez-García')).toBe(12)
    expect(displayWidth('ｶﾀｶﾅ ＡＢ')).toBe(4 + 1 + 4)
    expect(displayWidth('👨‍👩‍👧 ❤️ 🇫🇷')).toBe(2 + 1 + 2 + 1 + 2)
    expect(displayWidth('עברית')).toBe(5)
    expect(displayWidth('a\u200bb')).toBe(2)
  })

  it('cuts by cells, never through a character, and pads to the cells asked', () => {
    expect(cutToWidth('注文番号', 5)).toEqual({text: '注文', width: 4})
    expect(toWidth('注文番号', 5)).toBe('注文 ')
    expect(toWidth('e\u0301t\u00e9', 4)).toBe('e\u0301t\u00e9 ')
    expect(toWidth('👨‍👩‍👧x', 2)).toBe('👨‍👩‍👧')
  })

  it('fits a column by cells: the next column starts where its heading does', () => {
    const col = (s: string) => displayWidth(fit(s, 14))
    for (const s of ['ORDER-1', '注文番号-12345-🎁', 'ORDER-注文-ß-300111', 'e\u0301e\u0301e\u0301', '🎁🎁🎁🎁🎁🎁🎁🎁']) expect(col(s)).toBe(14)
    expect(fit('注文番号-12345-🎁', 10)).toBe('注文番号-…')
    expect(fit('注文番号', 6)).toBe('注文… ')
    expect(fit('€9.99 EUR', 12, 'right')).toBe('   €9.99 EUR')
    expect(fitId('pay_0VcJj1nviN2LfYl2hB8zoIHf', 15)).toBe('pay_0Vc…B8zoIHf')
  })
})
