import {describe, expect, it} from 'vitest'
import {MARK, shortId, tailColumns} from './tail-layout.js'

const total = (c: ReturnType<typeof tailColumns>) => MARK + c.time + c.type + c.object + c.status + c.amount + c.reference

describe('gw events tail columns (issue 23 item 10)', () => {
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
