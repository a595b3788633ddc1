// Providers, routing decisions explained, sub-merchants and routing rules.
import {body, country, deleted, en, idOf, idQ, idRef, int, livemode, MAX_SAFE, metadata, minor, nullable, obj, q, ref, reqStr, required, str, useCase, bool, dateTime, type Family, type Schema} from '../kit.js'
import {METHOD_CODES} from '../../catalog.js'
import {ATTEMPT_OUTCOMES, KYB_STATUSES, PROVIDER_STATUSES} from '../../vocabulary.js'

export const family: Family = {
  responses: () => ({
    Provider: obj({
      id: idOf('prov'),
      object: {type: 'string', const: 'provider'},
      methods: {type: 'array', items: ref('MethodCode')},
      currencies: {type: 'array', items: ref('Currency')},
      regions: {type: 'array', items: str()},
      status: {type: 'string', enum: [...PROVIDER_STATUSES]},
      auth_rate_7d: nullable({type: 'number', minimum: 0, maximum: 1, description: 'Approved / decided attempts over 7 engine-clock days; null without attempts.'}),
      attempts_7d: {type: 'integer', minimum: 0},
      fees: obj({
        percent_bps: {type: 'integer', minimum: 0},
        fixed: {type: 'object', description: 'Fixed fee per currency, in its minor unit.', propertyNames: ref('Currency'), additionalProperties: {type: 'integer', minimum: 0}},
      }),
      latency_ms: obj({p50: {type: 'integer', minimum: 0}, p99: {type: 'integer', minimum: 0}}),
      livemode,
    }),
    RoutingDecision: obj({
      object: {type: 'string', const: 'routing_decision'},
      decided_at: dateTime(),
      input: obj({amount: minor('The amount routed.'), currency: ref('Currency'), payment_method: ref('MethodCode'), card_brand: nullable(str()), country: nullable(str()), merchant: nullable(idOf('mer'))}),
      providers: {
        type: 'array',
        description: 'Every provider in catalog order: eligible, or excluded and why.',
        items: obj({
          provider: idOf('prov'),
          status: {type: 'string', enum: [...PROVIDER_STATUSES]},
          eligible: bool,
          excluded: nullable({type: 'string', enum: ['currency_not_processed', 'method_not_supported', 'provider_disabled', 'already_tried']}),
        }),
      },
      rule: nullable(
        obj({
          id: idOf('rr'),
          priority: {type: 'integer', minimum: 0},
          action: {type: 'string', enum: ['prefer', 'split', 'block']},
          merchant: nullable(idOf('mer')),
          providers: {type: 'array', items: obj({provider: idOf('prov'), weight: {type: 'integer', minimum: 0}}, {optional: ['weight']})},
        }, {description: 'The routing rule that matched, as it was when the decision was made; null: smart routing alone decided.'}),
      ),
      strategy: {type: 'string', enum: ['smart_routing', 'rule_prefer', 'rule_split', 'rule_block']},
      weights: obj({cost: {type: 'number'}, auth_rate: {type: 'number'}, currency: {type: 'number'}, method: {type: 'number'}}),
      scores: {
        type: 'array',
        description: 'Eligible providers in smart-routing order.',
        items: obj({
          provider: idOf('prov'),
          score: {type: 'number', minimum: 0, maximum: 1},
          degraded: bool,
          cost: obj({fee: minor('The provider fee for this amount.'), component: {type: 'number', minimum: 0, maximum: 1}}),
          auth_rate: obj({rate_7d: nullable({type: 'number', minimum: 0, maximum: 1}), used: {type: 'number', minimum: 0, maximum: 1}}),
          currency: obj({local: bool, component: {type: 'number', minimum: 0, maximum: 1}}),
          method: obj({partner: bool, component: {type: 'number', minimum: 0, maximum: 1}}),
        }),
      },
      tie_break: str(),
      split_pick: nullable(idOf('prov')),
      order: {type: 'array', items: idOf('prov'), description: 'Providers in the order they are tried.'},
    }),
    PaymentRouting: obj({
      object: {type: 'string', const: 'payment_routing'},
      payment: idOf('pay'),
      decisions: {type: 'array', items: ref('RoutingDecision')},
      attempts: {
        type: 'array',
        items: obj({
          provider: idOf('prov'),
          outcome: {type: 'string', enum: [...ATTEMPT_OUTCOMES]},
          decline_code: nullable(str()),
          decline_class: nullable({type: 'string', enum: ['soft', 'final'], description: 'soft: the next provider was tried; final: routing stopped.'}),
          latency_ms: nullable({type: 'integer', minimum: 0}),
          attempted_at: dateTime(),
        }),
      },
    }),
    Merchant: obj({
      id: idOf('mer'),
      object: {type: 'string', const: 'merchant'},
      business_name: str(),
      legal_name: nullable(str()),
      country: nullable(country),
      email: nullable(str()),
      kyb_status: {type: 'string', enum: [...KYB_STATUSES]},
      capabilities: obj({
        card_payments: {type: 'string', enum: ['pending', 'active', 'inactive']},
        local_payments: {type: 'string', enum: ['pending', 'active', 'inactive']},
        payouts: {type: 'string', enum: ['pending', 'active', 'inactive']},
      }),
      mid: nullable(str()),
      metadata: ref('Metadata'),
      livemode,
      created_at: dateTime(),
    }),
    RoutingRuleConditions: obj(
      {
        payment_method: ref('MethodCode'),
        currency: ref('Currency'),
        amount_gte: {type: 'integer', minimum: 0},
        amount_lte: {type: 'integer', minimum: 0},
        card_brand: str(),
        country: str(),
      },
      {optional: ['payment_method', 'currency', 'amount_gte', 'amount_lte', 'card_brand', 'country']},
    ),
    RoutingRule: obj({
      id: idOf('rr'),
      object: {type: 'string', const: 'routing_rule'},
      merchant: nullable(idOf('mer')),
      priority: {type: 'integer', minimum: 0, maximum: 1_000_000, description: 'The lowest number wins.'},
      action: {type: 'string', enum: ['prefer', 'split', 'block']},
      providers: {type: 'array', items: obj({provider: idOf('prov'), weight: {type: 'integer', minimum: 0, maximum: 1000}}, {optional: ['weight']})},
      conditions: ref('RoutingRuleConditions'),
      livemode,
      created_at: dateTime(),
    }),
    DeletedRoutingRule: deleted('rr', 'routing_rule'),
  }),
  requests: () => ({
    TestProviderHealth: body({status: reqStr({enum: [...PROVIDER_STATUSES]})}),
    MerchantCreate: body({
      business_name: reqStr({maxLength: 200}),
      legal_name: str({maxLength: 200}),
      country: useCase(str({maxLength: 2, pattern: '^[A-Z]{2}$'}), 'pattern'),
      email: str({maxLength: 200}),
      metadata,
      capabilities: body({}, 'Capabilities change only once KYB is complete: none on create.'),
    }),
    MerchantUpdate: body({
      business_name: str({maxLength: 200}),
      legal_name: str({maxLength: 200}),
      country: useCase(str({maxLength: 2, pattern: '^[A-Z]{2}$'}), 'pattern'),
      email: str({maxLength: 200}),
      metadata,
      capabilities: body({
        card_payments: str({enum: ['active', 'inactive']}),
        local_payments: str({enum: ['active', 'inactive']}),
        payouts: str({enum: ['active', 'inactive']}),
      }),
    }),
    ...routingRuleBodies(),
  }),
  lists: ['Provider', 'Merchant', 'RoutingRule'],
  operations: [
    {id: 'listProviders', perm: 'routing:read', method: 'get', path: '/providers', tag: 'Providers', summary: 'List providers', list: true,
      query: [q('payment_method', {type: 'string'}, 'Only providers supporting this method code.'), q('currency', {type: 'string'}, 'Only providers processing this currency.')], response: 'ProviderList', responseDescription: 'A page of providers.'},
    {id: 'retrieveProvider', perm: 'routing:read', method: 'get', path: '/providers/{id}', tag: 'Providers', summary: 'Retrieve a provider', response: 'Provider', responseDescription: 'The provider with health, 7-day auth rate, fees and latency.', errors: [404]},
    {id: 'simulateRouting', perm: 'routing:read', method: 'get', path: '/routing/simulate', tag: 'Providers', summary: 'Simulate a routing decision',
      description: 'The decision routing would make now for a payment like this, with the current provider health, 7-day authorization rates and routing rules; creates nothing. A split rule draws as a payment would.',
      query: [
        {...q('amount', {type: 'integer', minimum: 1, maximum: 99_999_999}, "In the currency's minor unit."), required: true},
        {...q('currency', {type: 'string', pattern: '^[A-Z]{3}$', 'x-checked-by-use-case': ['pattern']}, 'Uppercase ISO 4217 code.'), required: true},
        {...q('payment_method', {type: 'string'}, 'A method code.'), required: true},
        q('card_brand', {type: 'string'}, 'For card rules: visa, mastercard, amex, ...'),
        q('country', {type: 'string', pattern: '^[A-Z]{2}$'}, 'For country rules: the card\'s issuing country.'),
        q('merchant', idQ('mer'), 'Route as this sub-merchant (its rules apply).'),
      ],
      response: 'RoutingDecision', responseDescription: 'The decision, explained.', errors: [404]},
    {id: 'testSetProviderHealth', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/providers/{id}/health', tag: 'Test helpers', summary: "Force a provider's health", body: 'TestProviderHealth', bodyRequired: true, testHelper: true,
      response: 'Provider', responseDescription: 'The provider with its new status.', errors: [404]},
    {id: 'listMerchants', perm: 'merchants:read', method: 'get', path: '/merchants', tag: 'Merchants', summary: 'List sub-merchants', list: true, query: [q('kyb_status', en(KYB_STATUSES), 'Only merchants in this KYB status.')], response: 'MerchantList', responseDescription: 'A page of merchants.'},
    {id: 'createMerchant', perm: 'merchants:write', method: 'post', path: '/merchants', tag: 'Merchants', summary: 'Onboard a sub-merchant', body: 'MerchantCreate', bodyRequired: true, status: 201,
      description: 'KYB review completes 60 s (engine clock) after the merchant has a legal name and country.', response: 'Merchant', responseDescription: 'The merchant, kyb_status pending.'},
    {id: 'retrieveMerchant', perm: 'merchants:read', method: 'get', path: '/merchants/{id}', tag: 'Merchants', summary: 'Retrieve a sub-merchant', response: 'Merchant', responseDescription: 'The merchant.', errors: [404]},
    {id: 'updateMerchant', perm: 'merchants:write', method: 'post', path: '/merchants/{id}', tag: 'Merchants', summary: 'Update a sub-merchant', body: 'MerchantUpdate', response: 'Merchant', responseDescription: 'The updated merchant.', errors: [404]},
    {id: 'listRoutingRules', perm: 'routing:read', method: 'get', path: '/routing_rules', tag: 'Routing rules', summary: 'List routing rules', list: true, query: [q('merchant', idQ('mer'), 'Only rules of this merchant.')], response: 'RoutingRuleList', responseDescription: 'A page of rules.'},
    {id: 'createRoutingRule', perm: 'routing:write', method: 'post', path: '/routing_rules', tag: 'Routing rules', summary: 'Create a routing rule', body: 'RoutingRuleCreate', bodyRequired: true, status: 201, response: 'RoutingRule', responseDescription: 'The new rule.', errors: [404]},
    {id: 'retrieveRoutingRule', perm: 'routing:read', method: 'get', path: '/routing_rules/{id}', tag: 'Routing rules', summary: 'Retrieve a routing rule', response: 'RoutingRule', responseDescription: 'The rule.', errors: [404]},
    {id: 'updateRoutingRule', perm: 'routing:write', method: 'post', path: '/routing_rules/{id}', tag: 'Routing rules', summary: 'Update a routing rule', body: 'RoutingRuleUpdate', response: 'RoutingRule', responseDescription: 'The updated rule.', errors: [404]},
    {id: 'deleteRoutingRule', perm: 'routing:write', method: 'delete', path: '/routing_rules/{id}', tag: 'Routing rules', summary: 'Delete a routing rule', response: 'DeletedRoutingRule', responseDescription: 'The deleted rule id.', errors: [404]},
  ],
}


function routingRuleBodies(): Record<string, Schema> {
  const conditions = body({
    payment_method: useCase(str({enum: [...METHOD_CODES]}), 'enum'),
    currency: useCase(str({maxLength: 3, pattern: '^[A-Z]{3}$'}), 'pattern'),
    amount_gte: int(0, MAX_SAFE),
    amount_lte: int(0, MAX_SAFE),
    card_brand: str({maxLength: 20}),
    country: str({maxLength: 2}),
  })
  const providers: Schema = {
    type: 'array',
    description: 'At least one for prefer and split (checked by the use case).',
    items: {
      ...body({provider: required(useCase({type: 'string', pattern: '^prov_[0-9A-Za-z]+$'}, 'pattern')), weight: int(0, 1000)}),
      'x-messages': {
        type: '{path} must be an object {provider, weight?}.',
        additionalProperties: 'Received unknown parameter: {path}.',
        'provider.*': '{path} must be a provider id.',
        'weight.*': '{path} must be an integer from 0 to 1000.',
      },
    },
    'x-messages': {type: '{path} must be an array of {provider, weight?}.'},
  }
  const mk = (create: boolean) =>
    body({
      merchant: nullable(idRef('mer', 'Merchant (null: every payment of the account)')),
      priority: create ? required(int(0, 1_000_000)) : int(0, 1_000_000),
      action: create ? reqStr({enum: ['prefer', 'split', 'block']}) : str({enum: ['prefer', 'split', 'block']}),
      conditions,
      providers,
    })
  return {RoutingRuleCreate: mk(true), RoutingRuleUpdate: mk(false)}
}
