import {describe, expect, it} from 'vitest'
import {
  decimalAmount,
  DISPUTE_REASONS,
  EVIDENCE_BY_REASON,
  evidenceCoverage,
  RECOGNIZED_KEYS,
  renderEvidence,
  SCHEME_REASON_CODES,
  type EvidenceContext,
  type EvidenceSubmission,
} from './dispute-evidence.js'

const ctx = (over: Partial<EvidenceContext['dispute']> = {}): EvidenceContext => ({
  dispute: {id: 'dp_1', reason: 'fraudulent', stage: 'chargeback', amount: 2000, currency: 'EUR', ...over},
  payment: {id: 'pay_1', reference: 'order-7', created_at: '2026-01-01T00:00:00.000Z', last4: '4242'},
  authentication: {three_d_secure: true, avs_result: 'pass', cvv_result: 'pass'},
  refunds: [{id: 'rf_1', amount: 500, status: 'succeeded', created_at: '2026-01-02T00:00:00.000Z'}],
})

const ev: EvidenceSubmission = {
  fields: {customer_communication: 'Customer confirmed the order by email', shipping_address: '1 Main St', order_notes: 'VIP'},
  files: ['https://shop.example/a.pdf', 'https://shop.example/b.png'],
  submitted_at: '2026-01-03T00:00:00.000Z',
}

describe('recognized keys and the evidence that suits each reason', () => {
  it('recognizes exactly the six documented keys', () => {
    expect([...RECOGNIZED_KEYS].sort()).toEqual(
      ['customer_communication', 'product_description', 'refund_policy', 'service_date', 'shipping_address', 'tracking_number'],
    )
  })

  it('maps every reason to recognized keys', () => {
    expect(Object.keys(EVIDENCE_BY_REASON).sort()).toEqual([...DISPUTE_REASONS].sort())
    for (const r of DISPUTE_REASONS) for (const k of EVIDENCE_BY_REASON[r].keys) expect(RECOGNIZED_KEYS).toContain(k)
    expect(EVIDENCE_BY_REASON.product_not_received.keys).toEqual(expect.arrayContaining(['tracking_number', 'service_date']))
    expect(EVIDENCE_BY_REASON.credit_not_processed.keys).toContain('refund_policy')
    expect(EVIDENCE_BY_REASON.fraudulent.attached).toEqual(expect.arrayContaining(['three_d_secure', 'avs_result', 'cvv_result']))
    expect(EVIDENCE_BY_REASON.general.keys).toHaveLength(RECOGNIZED_KEYS.length)
  })

  it('reports coverage: recognized, free-text and missing suited keys', () => {
    const c = evidenceCoverage('product_not_received', {tracking_number: '1Z', note: 'x', service_date: '  '})
    expect(c.recognized.sort()).toEqual(['service_date', 'tracking_number'])
    expect(c.other).toEqual(['note'])
    // a blank service_date does not count, but the tracking number meets "tracking number or service date"
    expect(c.missing.sort()).toEqual(['shipping_address'])
  })
})

describe('decimalAmount', () => {
  it('follows the currency exponent', () => {
    expect(decimalAmount(2000, 'EUR')).toBe('20.00')
    expect(decimalAmount(5, 'EUR')).toBe('0.05')
    expect(decimalAmount(1500, 'JPY')).toBe('1500')
    expect(decimalAmount(1250, 'KWD')).toBe('1.250')
    expect(decimalAmount(-75, 'USD')).toBe('-0.75')
  })
})

describe('scheme renderings', () => {
  it('Visa: VROL-like named fields, dispute condition, compelling evidence', () => {
    const r = renderEvidence('visa', ctx(), ev)
    expect(r).toMatchObject({scheme: 'visa', format: 'visa_vrol', reason_code: '10.4'})
    expect(r.payload).toMatchObject({
      CaseNumber: 'dp_1',
      ResponseType: 'DisputeResponse',
      DisputeCondition: '10.4',
      MerchantReference: 'order-7',
      DisputeAmount: {Value: '20.00', Currency: 'EUR'},
      CardholderCommunication: 'Customer confirmed the order by email',
      ShippingAddress: '1 Main St',
      AdditionalInformation: [{label: 'order_notes', text: 'VIP'}],
      CompellingEvidence: {ThreeDSecureAuthenticated: true, AVSResult: 'pass', CVV2Result: 'pass'},
      CreditsIssued: [{CreditId: 'rf_1', Amount: '5.00', Status: 'succeeded', Date: '2026-01-02T00:00:00.000Z'}],
      Attachments: [
        {Sequence: 1, DocumentUrl: 'https://shop.example/a.pdf'},
        {Sequence: 2, DocumentUrl: 'https://shop.example/b.png'},
      ],
    })
    expect(renderEvidence('visa', ctx({stage: 'pre_arbitration'}), ev).payload.ResponseType).toBe('PreArbitrationResponse')
  })

  it('Mastercard: Mastercom-like memo and document indicator', () => {
    const r = renderEvidence('mastercard', ctx({reason: 'duplicate', stage: 'arbitration'}), ev)
    expect(r).toMatchObject({scheme: 'mastercard', format: 'mastercard_mastercom', reason_code: '4834'})
    expect(r.payload).toMatchObject({claimId: 'dp_1', messageType: 'ARBITRATION_CASE', amount: '20.00', currency: 'EUR', documentIndicator: true})
    const memo = r.payload.memo as string
    expect(memo).toContain('CARDHOLDER COMMUNICATION: Customer confirmed the order by email')
    expect(memo).toContain('SHIPPING ADDRESS: 1 Main St')
    expect(memo).toContain('ORDER_NOTES: VIP')
    expect(memo).toContain('3-D SECURE')
    expect(memo).toContain('CREDIT rf_1: 5.00 EUR SUCCEEDED')
    const noFiles = renderEvidence('mastercard', ctx(), {...ev, files: []})
    expect(noFiles.payload.documentIndicator).toBe(false)
  })

  it('American Express: merchant response with supporting data', () => {
    const r = renderEvidence('amex', ctx({reason: 'credit_not_processed', currency: 'JPY', amount: 3000}), ev)
    expect(r).toMatchObject({scheme: 'amex', format: 'amex_merchant_response', reason_code: 'C02'})
    expect(r.payload).toMatchObject({
      case_number: 'dp_1',
      case_type: 'chargeback',
      disputed_amount: {amount: '3000', currency: 'JPY'},
      supporting_data: {card_member_correspondence: 'Customer confirmed the order by email', ship_to_address: '1 Main St'},
      remarks: 'order_notes: VIP',
      supporting_documents: ev.files,
      authentication: {safekey: true, avs: 'pass', cid: 'pass'},
      transaction: {id: 'pay_1', reference: 'order-7', card_last4: '4242'},
    })
  })

  it('other schemes get a generic rendering with everything', () => {
    const r = renderEvidence('discover', ctx(), ev)
    expect(r).toMatchObject({scheme: 'other', format: 'generic', reason_code: 'fraudulent'})
    expect(r.payload).toMatchObject({fields: ev.fields, files: ev.files, amount: '20.00'})
    expect(renderEvidence(null, ctx(), ev).format).toBe('generic')
  })

  it('has a reason code for every reason and scheme', () => {
    for (const scheme of ['visa', 'mastercard', 'amex'] as const)
      for (const reason of DISPUTE_REASONS) {
        expect(SCHEME_REASON_CODES[scheme][reason]).toBeTruthy()
        expect(renderEvidence(scheme, ctx({reason}), ev).reason_code).toBe(SCHEME_REASON_CODES[scheme][reason])
      }
  })
})
