// Refunds of succeeded payments, and disputes (chargebacks) with their evidence.
import {body, en, idOf, idQ, int, livemode, MAX_AMOUNT, metadata, minor, nullable, obj, q, ref, reqStr, required, str, useCase, dateTime, type Family} from '../kit.js'
import {DISPUTE_REASONS, DISPUTE_STAGES, DISPUTE_STATUSES, REFUND_REASONS, REFUND_STATUSES} from '../../vocabulary.js'
import {EVIDENCE_LIMITS} from '../../dispute-evidence.js'

export const family: Family = {
  responses: () => ({
    Refund: obj({
      id: idOf('rf'),
      object: {type: 'string', const: 'refund'},
      payment: idOf('pay'),
      amount: minor('Refunded amount.', {minimum: 1}),
      currency: ref('Currency'),
      status: {type: 'string', enum: [...REFUND_STATUSES]},
      reason: nullable({type: 'string', enum: [...REFUND_REASONS]}),
      failure_reason: nullable({type: 'string', enum: ['declined', 'provider_unavailable']}),
      reference: str({description: "The payment's reference."}),
      metadata: ref('Metadata'),
      livemode,
      created_at: dateTime(),
    }),
    DisputeEvidence: obj({
      fields: {type: 'object', additionalProperties: {type: 'string'}},
      files: {type: 'array', items: str({format: 'uri'})},
      submitted_at: dateTime(),
    }),
    Dispute: obj({
      id: idOf('dp'),
      object: {type: 'string', const: 'dispute'},
      payment: idOf('pay'),
      amount: minor('Disputed amount; can be less than the payment amount.', {minimum: 1}),
      currency: ref('Currency'),
      reason: {type: 'string', enum: [...DISPUTE_REASONS]},
      stage: {type: 'string', enum: [...DISPUTE_STAGES]},
      status: {type: 'string', enum: [...DISPUTE_STATUSES]},
      evidence_due_by: nullable(dateTime('Null once resolved and while under_review.')),
      evidence: nullable(ref('DisputeEvidence')),
      previous_evidence: {
        type: 'array',
        description: 'Evidence argued at earlier stages, oldest first: after a ruling escalates the dispute, `evidence` is the next stage\'s (null until submitted) and what was argued before stays here. Absent on disputes stored before this field.',
        items: obj({
          stage: {type: 'string', enum: [...DISPUTE_STAGES]},
          fields: {type: 'object', additionalProperties: {type: 'string'}},
          files: {type: 'array', items: str({format: 'uri'})},
          submitted_at: dateTime(),
        }),
      },
      closed_by: nullable({type: 'string', enum: ['ruling', 'deadline', 'merchant'], description: 'Who closed it: `ruling` (the issuer or network ruled: won or lost), `deadline` (the evidence deadline passed unanswered: lost), `merchant` (accepted). Null while open; absent on disputes closed before this field.'}),
      livemode,
      created_at: dateTime(),
    }, {optional: ['previous_evidence', 'closed_by']}),
  }),
  requests: () => ({
    RefundCreate: body({
      payment: required(useCase({type: 'string', minLength: 1, pattern: '^pay_[0-9A-Za-z]+$', description: 'The succeeded payment to refund; unknown → 404.'}, 'pattern')),
      amount: {...int(1, MAX_AMOUNT, "in the payment currency's minor unit"), description: 'Omit to refund everything still refundable.'},
      reason: nullable(str({enum: [...REFUND_REASONS]})),
      metadata,
    }),
    DisputeEvidenceSubmit: {
      ...body({
        fields: {
          type: 'object',
          description: 'Any keys; recognized: product_description, customer_communication, tracking_number, shipping_address, refund_policy, service_date.',
          maxProperties: EVIDENCE_LIMITS.maxFields,
          propertyNames: {minLength: 1, maxLength: EVIDENCE_LIMITS.maxKeyLength},
          additionalProperties: {type: 'string', maxLength: EVIDENCE_LIMITS.maxValueLength},
          'x-messages': {
            type: '{path} must be an object of string keys to string values, e.g. {"tracking_number": "1Z999..."}.',
            maxProperties: '{path} can hold at most {limit} keys.',
            propertyNames: `fields keys must be 1 to ${EVIDENCE_LIMITS.maxKeyLength} characters.`,
            'additionalProperties.type': '{path} must be a string.',
            'additionalProperties.maxLength': '{path} must be at most {limit} characters.',
          },
        },
        files: {
          type: 'array',
          maxItems: EVIDENCE_LIMITS.maxFiles,
          items: {type: 'string', maxLength: EVIDENCE_LIMITS.maxUrlLength, format: 'uri', pattern: '^https://', 'x-messages': {'*': '{path} must be an HTTPS URL such as https://shop.example/receipt.pdf.'}},
          'x-messages': {type: '{path} must be an array of HTTPS URLs.', maxItems: '{path} can hold at most {limit} URLs.'},
        },
      }),
      'x-messages': {type: 'The request body must be a JSON object {fields, files}.'},
      description: 'At least one field or file (else 400 parameter_missing, checked by the use case).',
    },
    TestDisputeCreate: body({
      payment: required(useCase({type: 'string', minLength: 1, pattern: '^pay_[0-9A-Za-z]+$'}, 'pattern')),
      reason: str({enum: [...DISPUTE_REASONS]}),
      amount: {...int(1, MAX_AMOUNT, "in the payment currency's minor unit"), description: 'Defaults to, and may not exceed, captured minus refunded.'},
    }),
    TestDisputeResolve: body({outcome: reqStr({enum: ['won', 'lost', 'escalate']})}),
  }),
  lists: ['Refund', 'Dispute'],
  operations: [
    {id: 'listRefunds', perm: 'refunds:read', method: 'get', path: '/refunds', tag: 'Refunds', summary: 'List refunds', list: true,
      query: [q('payment', idQ('pay'), 'Only refunds of this payment.'), q('status', en(REFUND_STATUSES), 'Only refunds in this status.')], response: 'RefundList', responseDescription: 'A page of refunds.'},
    {id: 'createRefund', perm: 'refunds:write', method: 'post', path: '/refunds', tag: 'Refunds', summary: 'Refund a payment', body: 'RefundCreate', bodyRequired: true, status: 201,
      description: 'Full or partial refund of a succeeded payment, routed to the provider that processed it; pending until the rail answers (refund.succeeded / refund.failed). Codes: payment_not_refundable, payment_disputed, partial_refund_unsupported, amount_too_large.',
      response: 'Refund', responseDescription: 'The pending refund.', errors: [404]},
    {id: 'retrieveRefund', perm: 'refunds:read', method: 'get', path: '/refunds/{id}', tag: 'Refunds', summary: 'Retrieve a refund', response: 'Refund', responseDescription: 'The refund.', errors: [404]},
    {id: 'listDisputes', perm: 'disputes:read', method: 'get', path: '/disputes', tag: 'Disputes', summary: 'List disputes', list: true,
      query: [q('status', en(DISPUTE_STATUSES), 'Only disputes in this status.'), q('payment', idQ('pay'), 'Only disputes of this payment.')], response: 'DisputeList', responseDescription: 'A page of disputes, newest first.'},
    {id: 'retrieveDispute', perm: 'disputes:read', method: 'get', path: '/disputes/{id}', tag: 'Disputes', summary: 'Retrieve a dispute', response: 'Dispute', responseDescription: 'The dispute.', errors: [404]},
    {id: 'submitDisputeEvidence', perm: 'disputes:write', method: 'post', path: '/disputes/{id}/evidence', tag: 'Disputes', summary: 'Submit evidence', body: 'DisputeEvidenceSubmit', bodyRequired: true,
      description: 'Only on a dispute in needs_response (else 400 dispute_not_actionable); moves it to under_review.', response: 'Dispute', responseDescription: 'The dispute, under_review.', errors: [404]},
    {id: 'acceptDispute', perm: 'disputes:write', method: 'post', path: '/disputes/{id}/accept', tag: 'Disputes', summary: 'Accept a dispute', body: 'Empty',
      description: 'Only on a dispute in needs_response (else 400 dispute_not_actionable); final.', response: 'Dispute', responseDescription: 'The accepted dispute.', errors: [404]},
    {id: 'testCreateDispute', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/disputes', tag: 'Test helpers', summary: 'Open a dispute as the card network', body: 'TestDisputeCreate', bodyRequired: true, status: 201, testHelper: true,
      description: 'Only succeeded card-family payments (else 400 payment_not_disputable), once per payment (payment_already_disputed).', response: 'Dispute', responseDescription: 'The new dispute, needs_response.', errors: [404]},
    {id: 'testResolveDispute', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/disputes/{id}/resolve', tag: 'Test helpers', summary: 'Rule on a dispute as the issuer or network', body: 'TestDisputeResolve', bodyRequired: true, testHelper: true,
      response: 'Dispute', responseDescription: 'The dispute after the ruling.', errors: [404]},
  ],
}
