import {describe, expect, it} from 'vitest'
import {MARK, shortId, tailColumns} from './tail-layout.js'

const total = (c: ReturnType<typeof tailColumns>) => MARK + c.time + c.type + c.object + c.status + c.amount + c.reference

describe('gw events tail columns', () => {
  it('at 160 columns: every column, a reference column among them', () => {
    const c = tailColumns(160)
    expect(c.reference).toBeGreaterThanOrEqual(24)
    expect(c).toMatchObject({time: 10, type: 26, object: 30, status: 18})
    expect(total(c)).toBe(160)
  })

  it('at 100 columns: no reference, nothing squeezed', () => {
    expect(tailColumns(100)).toMatchObject({reference: 0, status: 18, time: 10})
  })

  it('at 70 columns: status and amount keep their room; the object id and the type narrow first', () => {
    const c = tailColumns(70)
    expect(c.status).toBeGreaterThanOrEqual(11)
    expect(c.amount).toBeGreaterThanOrEqual(12)
    expect(c.object).toBeLessThan(28)
    expect(total(c)).toBeLessThanOrEqual(70)
  })

  it('at 45 columns: status and amount still there; the time and then the id give way', () => {
    const c = tailColumns(45)
    expect(c.status).toBeGreaterThanOrEqual(11)
    expect(c.amount).toBeGreaterThanOrEqual(12)
    expect(c.time).toBe(0)
    expect(total(c)).toBeLessThanOrEqual(45)
  })

  it('fits every width from 30 to 200, and never drops status or amount before the id', () => {
    for (let w = 30; w <= 200; w++) {
      const c = tailColumns(w)
      expect(total(c), `width ${w}`).toBeLessThanOrEqual(w)
      if (c.status < 11 || c.amount < 12) expect(c.object, `width ${w}`).toBe(0)
    }
  })

  it('shortens ids in the middle, keeping the prefix and the end', () => {
    expect(shortId('pay_0VbwmVP10EG1rNPnm33GvLzE', 12)).toMatch(/^pay_0Vb.*…\w+$/)
    expect(shortId('pay_0VbwmVP10EG1rNPnm33GvLzE', 12)).toHaveLength(12)
    expect(shortId('pay_0VbwmVP10EG1rNPnm33GvLzE', 12).endsWith('LzE')).toBe(true)
    expect(shortId('pay_1', 12)).toBe('pay_1')
  })
})

describe('the date where the day changes', () => {
  const days = ['2026-11-27', '2026-11-27', '2026-11-28', '2026-11-28', '2026-11-29']
  it('a date line before each row of a new day, each in place of a row: following, the oldest give way', async () => {
    const {windowWithDays} = await import('./tail-layout.js')
    expect(windowWithDays(days, 0, 10, null)).toEqual({start: 0, end: 5, breaks: new Set([2, 4])})
    // 5 lines: the newest rows and their date lines fit, the oldest gave way
    const w = windowWithDays(days, 0, 5, null)
    expect(w.end - w.start + w.breaks.size).toBeLessThanOrEqual(5)
    expect(w.end).toBe(5)
    // a selected row stays in the window
    const sel = windowWithDays(days, 0, 5, 1)
    expect(sel.start).toBeLessThanOrEqual(1)
    expect(sel.end).toBeGreaterThan(1)
    expect(sel.end - sel.start + sel.breaks.size).toBeLessThanOrEqual(5)
    expect(windowWithDays(['2026-11-27', '2026-11-27'], 0, 5, null).breaks.size).toBe(0)
  })
})
