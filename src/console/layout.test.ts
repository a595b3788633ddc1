// Small terminals: the footer keeps how to get help and quit to the last; a list's optional
// columns go before the others are cut; the evidence form's plan fits the rows it has.
import {describe, expect, it} from 'vitest'
import {compactPlan, wrappedRows} from '../commands/disputes/shared/evidence-layout.js'
import {footerText} from './format.js'
import {layoutColumns, type Column} from './views/list/columns.js'
import {displayWidth} from './width.js'

describe('a small terminal', () => {
  it('cuts the footer from the view keys first: "? keys · q quit" are the last to go', () => {
    const keys = [['/', 'search'], ['↑↓ PgUp PgDn', 'move'], ['G', 'end'], ['Enter', 'open'], ['r', 'reload'], ['Esc', 'back'], [':', 'jump']] as const
    const tail = [['?', 'keys'], ['q', 'quit']] as const
    expect(footerText(keys, tail, 200)).toBe('/ search · ↑↓ PgUp PgDn move · G end · Enter open · r reload · Esc back · : jump · ? keys · q quit')
    const at60 = footerText(keys, tail, 60)
    expect(displayWidth(at60)).toBeLessThanOrEqual(60)
    expect(at60).toBe('/ search · ↑↓ PgUp PgDn move · G end · … · ? keys · q quit')
    expect(footerText(keys, tail, 20)).toBe('… · ? keys · q quit')
    expect(footerText([['Enter', 'answer'], ['Esc', 'cancel']], [], 12)).toBe('Enter answe…')
  })

  it('drops optional columns, the rightmost first, before the width runs out', () => {
    const col = (title: string, width: number, more: Partial<Column<string>> = {}): Column<string> => ({title, width, cell: () => '', ...more})
    const cols = [col('ID', 22), col('STATUS', 16), col('AMOUNT', 14), col('METHOD', 8, {optional: true}), col('REFERENCE', 8, {grow: true}), col('CREATED', 12, {optional: true})]
    expect(layoutColumns(cols, 120)).toEqual([22, 16, 14, 8, 48, 12])
    expect(layoutColumns(cols, 80)).toEqual([22, 16, 14, 8, 8, 12])
    expect(layoutColumns(cols, 70)).toEqual([22, 16, 14, 8, 10, 0])
    expect(layoutColumns(cols, 60)).toEqual([22, 16, 14, 0, 8, 0])
  })

  it('plans the evidence form into the rows it has, the prompt always in', () => {
    const parts = {checklist: 3, attached: true, previous: 1, fields: 2, files: 0, notice: true, prompt: 1, error: false, escHint: true}
    expect(compactPlan({...parts, height: 40})).toMatchObject({advice: true, checklistInline: false, spare: 40 - 17})
    const tight = compactPlan({...parts, height: 10})
    expect(tight).toMatchObject({advice: false, attached: false, previous: false, filesInline: true, fieldsInline: true, checklistInline: true})
    expect(tight.spare).toBeGreaterThanOrEqual(0)
    expect(wrappedRows('One submission per stage: once submitted, dp_0VcJxrnXg8cA3zZP3AiWKF7x goes to under_review and nothing can be added or changed at the chargeback stage. Missing keys cannot be sent later.', 60)).toBe(4)
  })
})
