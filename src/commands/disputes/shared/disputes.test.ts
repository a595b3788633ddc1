import {describe, expect, it} from 'vitest'
import type {Dispute} from '../../../api/types.js'
import * as engine from '../../../engine/domain/dispute-evidence.js'
import {
  byDeadline,
  checkHttpsUrl,
  DISPUTE_REASONS,
  EVIDENCE_BY_REASON,
  evidenceCoverage,
  isHttpsUrl,
  notActionableReason,
  notResolvableReason,
  parseEvidenceJson,
  parseFields,
  RECOGNIZED_KEYS,
  shortDuration,
  timeLeft,
} from './disputes.js'

describe('the CLI evidence table', () => {
  it("is the engine's table (one module in src/api, which loads no engine code)", () => {
    expect(RECOGNIZED_KEYS).toBe(engine.RECOGNIZED_KEYS)
    expect(DISPUTE_REASONS).toBe(engine.DISPUTE_REASONS)
    expect(EVIDENCE_BY_REASON).toBe(engine.EVIDENCE_BY_REASON)
  })

  it('coverage agrees with the engine on which suited keys are missing', () => {
    const samples: Record<string, string>[] = [{}, {tracking_number: '1Z'}, {customer_communication: ' '}, {refund_policy: '30d', note: 'x'}, Object.fromEntries(RECOGNIZED_KEYS.map((k) => [k, 'v']))]
    for (const reason of DISPUTE_REASONS)
      for (const fields of samples) expect(evidenceCoverage(reason, fields).missing).toEqual(engine.evidenceCoverage(reason, fields).missing)
  })
})

describe('evidenceCoverage', () => {
  it('marks the suited keys the fields fill, and lists the other keys', () => {
    const c = evidenceCoverage('product_not_received', {tracking_number: '1Z', refund_policy: 'x', gift: 'y', service_date: ''})
    expect(c.checklist.map((x) => [x.key, x.covered])).toEqual([
      ['tracking_number', true],
      ['service_date', false],
      ['shipping_address', false],
    ])
    expect(c.extra).toEqual(['refund_policy', 'gift'])
    // tracking number *or* service date (docs/api.md#dispute-lifecycle): the tracking number meets both
    expect(c.missing).toEqual(['shipping_address'])
    expect(c.checklist.find((x) => x.key === 'service_date')?.metBy).toBe('tracking_number')
  })

  it('neither alternative given: missing names them as one item, "tracking_number or service_date"', () => {
    expect(evidenceCoverage('product_not_received', {shipping_address: '1 Main St'}).missing).toEqual(['tracking_number or service_date'])
    expect(evidenceCoverage('product_not_received', {service_date: '2026-05-01'}).missing).toEqual(['shipping_address'])
  })

  it('no evidence: nothing covered; general suits every recognized key', () => {
    expect(evidenceCoverage('general', null).missing).toEqual([...RECOGNIZED_KEYS])
  })
})

describe('deadlines', () => {
  const now = new Date('2025-03-01T00:00:00Z')
  const due = (s: number) => new Date(now.getTime() + s * 1000).toISOString()

  it('shortDuration keeps the two largest units', () => {
    expect(shortDuration(2 * 86_400 + 4 * 3600 + 59)).toBe('2d 4h')
    expect(shortDuration(7 * 86_400)).toBe('7d')
    expect(shortDuration(5400)).toBe('1h 30m')
    expect(shortDuration(3600)).toBe('1h')
    expect(shortDuration(300)).toBe('5m')
    expect(shortDuration(20)).toBe('<1m')
  })

  it('timeLeft: left, overdue, none', () => {
    expect(timeLeft({status: 'needs_response', evidence_due_by: due(2 * 86_400 + 4 * 3600)}, now)).toBe('2d 4h left')
    expect(timeLeft({status: 'needs_response', evidence_due_by: due(-3 * 3600)}, now)).toBe('overdue 3h')
    expect(timeLeft({status: 'under_review', evidence_due_by: null}, now)).toBe('none (under review)')
    expect(timeLeft({status: 'won', evidence_due_by: null}, now)).toBe('none (won)')
    expect(timeLeft({status: 'accepted', evidence_due_by: null}, now)).toBe('none (accepted)')
  })

  it('byDeadline: soonest deadline first, then disputes without one, newest first', () => {
    const d = (id: string, due_by: string | null, created: string) => ({id, evidence_due_by: due_by, created_at: created}) as Dispute
    const list = [d('a', null, '2025-01-01'), d('b', due(100), '2025-01-01'), d('c', null, '2025-02-01'), d('e', due(10), '2025-01-01')]
    expect(list.sort(byDeadline).map((x) => x.id)).toEqual(['e', 'b', 'c', 'a'])
  })
})

describe('evidence input', () => {
  it('parseFields splits on the first "=" only', () => {
    expect(parseFields(['a=1', 'b=x=y', 'c='])).toEqual({a: '1', b: 'x=y', c: ''})
    expect(() => parseFields(['nokey'])).toThrow(/not key=value/)
    expect(() => parseFields(['=v'])).toThrow(/not key=value/)
  })

  it('checkHttpsUrl accepts https only', () => {
    expect(checkHttpsUrl(' https://shop.example/r.pdf ')).toBe('https://shop.example/r.pdf')
    for (const bad of ['http://shop.example/r.pdf', 'ftp://x/y', 'receipt.pdf', 'https://', '']) expect(isHttpsUrl(bad)).toBe(false)
  })

  it('parseEvidenceJson reads {fields, files} and names what is wrong', () => {
    expect(parseEvidenceJson('{"fields": {"a": "1"}, "files": ["https://x.example/a"]}', 'e.json')).toEqual({fields: {a: '1'}, files: ['https://x.example/a']})
    expect(parseEvidenceJson('{"files": []}', 'e.json')).toEqual({fields: {}, files: []})
    expect(() => parseEvidenceJson('[]', 'e.json')).toThrow(/must hold a JSON object/)
    expect(() => parseEvidenceJson('{"fields": []}', 'e.json')).toThrow(/"fields" must be an object/)
    expect(() => parseEvidenceJson('{"files": "https://x"}', 'e.json')).toThrow(/"files" must be an array/)
  })
})

describe('not actionable, in words', () => {
  it('says whether evidence was already submitted at this stage or the dispute is resolved', () => {
    expect(notActionableReason({id: 'dp_1', status: 'needs_response', stage: 'chargeback'})).toBeUndefined()
    expect(notActionableReason({id: 'dp_1', status: 'under_review', stage: 'pre_arbitration'})).toMatch(/pre_arbitration stage of dp_1 was already submitted.*one submission per stage/)
    expect(notActionableReason({id: 'dp_1', status: 'won', stage: 'chargeback'})).toMatch(/resolved: won/)
    expect(notActionableReason({id: 'dp_1', status: 'lost', stage: 'chargeback'})).toMatch(/resolved: lost.*deadline passed/)
    expect(notActionableReason({id: 'dp_1', status: 'accepted', stage: 'chargeback'})).toMatch(/resolved: it was accepted/)
  })

  it('says why a ruling is not possible', () => {
    expect(notResolvableReason({id: 'dp_1', status: 'under_review', stage: 'chargeback'})).toBeUndefined()
    expect(notResolvableReason({id: 'dp_1', status: 'needs_response', stage: 'chargeback'})).toMatch(/waiting for your response/)
    expect(notResolvableReason({id: 'dp_1', status: 'under_review', stage: 'arbitration'})).toMatch(/binding/)
    expect(notResolvableReason({id: 'dp_1', status: 'won', stage: 'chargeback'})).toMatch(/resolved \(won\)/)
  })
})
