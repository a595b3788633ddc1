// Failures a merchant switches on to rehearse (docs/decisions.md#failure-on-purpose): API, provider and webhook faults that
// end by themselves (test keys only).
import {idOf, idRef, nullable, obj, ref, str, dateTime, type Family, type Schema} from '../kit.js'
import {CHAOS_API_FAULTS, CHAOS_PROVIDER_FAULTS, CHAOS_WEBHOOK_FAULTS} from '../../vocabulary.js'

/** What every chaos rule has first: its id, kind and the share it faults. */
const chaosCommon = (kind: string): Record<string, Schema> => ({
  id: idOf('chaos'),
  object: {type: 'string', const: 'chaos_rule'},
  kind: {type: 'string', const: kind},
  rate: {type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'The share of matching requests, calls or deliveries faulted.'},
})
/** ... and last: how it ends. */
const chaosEnd: Record<string, Schema> = {
  count: nullable({type: 'integer', minimum: 1, description: 'Faults to inject before the rule is spent; null: until `until`.'}),
  seed: nullable({type: 'integer', description: 'Seeds what is faulted: the same ones every run.'}),
  created_at: dateTime(),
  until: dateTime('When the rule ends, on the engine clock: every fault ends.'),
  injected: nullable({type: 'integer', minimum: 0, description: 'Faults injected so far, for a rule with a count (status only).'}),
}
/** The parts every POST /v1/chaos/... body shares. */
const chaosCreateCommon: Record<string, Schema> = {
  rate: {type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'The share to fault; default 1.'},
  count: {type: 'integer', minimum: 1, description: 'How many faults, then the rule is spent.'},
  for_seconds: {type: 'integer', minimum: 1, maximum: 604800, description: 'How long the rule lasts on the engine clock; default 600 without a count, 7 days (604800) with one.'},
  seed: {type: 'integer', description: 'Seeds which requests, calls or deliveries a rate below 1 picks.'},
}

export const family: Family = {
  responses: () => ({
    ChaosRule: {
      description: 'A fault the account switched on to rehearse failures (test mode): of the API, a provider, or webhook deliveries.',
      oneOf: [ref('ChaosApiRule'), ref('ChaosProviderRule'), ref('ChaosWebhookRule')],
    },
    ChaosApiRule: obj(
      {
        ...chaosCommon('api'),
        method: {type: 'string', enum: ['GET', 'POST', 'DELETE', '*']},
        path: str({description: 'An API path under /v1: /payments, /payments/* (one segment), /refunds/** (any depth below).'}),
        fault: {type: 'string', enum: [...CHAOS_API_FAULTS]},
        latency_ms: nullable({type: 'integer', minimum: 1, description: 'The slow fault\'s added latency.'}),
        ...chaosEnd,
      },
      {description: 'An API fault: matching requests answered with an error, slowly, or not at all.', optional: ['injected']},
    ),
    ChaosProviderRule: obj(
      {
        ...chaosCommon('provider'),
        provider: idOf('prov'),
        fault: {type: 'string', enum: [...CHAOS_PROVIDER_FAULTS]},
        latency_ms: nullable({type: 'integer', minimum: 1, description: 'The latency fault\'s added latency.'}),
        ...chaosEnd,
      },
      {description: 'A provider fault: its authorizations and refunds fail (down), time out, soft-decline or slow down.', optional: ['injected']},
    ),
    ChaosWebhookRule: obj(
      {
        ...chaosCommon('webhooks'),
        endpoint: nullable(idOf('wh', 'One endpoint\'s deliveries; null: every endpoint\'s.')),
        fault: {type: 'string', enum: [...CHAOS_WEBHOOK_FAULTS]},
        delay_seconds: nullable({type: 'integer', minimum: 1, description: 'delay: how long each delivery is held; shuffle: the window deliveries are spread over.'}),
        attempts: nullable({type: 'integer', minimum: 1, description: 'fail_first: attempts of each delivery failed on purpose before one is sent.'}),
        ...chaosEnd,
      },
      {description: 'A webhook fault: what happens to the deliveries created while it is active.', optional: ['injected']},
    ),
    ChaosApiFaultCreate: obj(
      {
        method: {type: 'string', enum: ['GET', 'POST', 'DELETE', '*'], description: 'Default *.'},
        path: str({description: 'The API path to fault, under /v1: /payments, /payments/*, /refunds/**.', examples: ['/payments']}),
        fault: {type: 'string', enum: [...CHAOS_API_FAULTS], description: '500, 503 or 429 (with Retry-After) instead of the answer; slow: the answer after latency_ms; response_lost: the work is done and committed, then the connection is dropped with no response.'},
        ...chaosCreateCommon,
        latency_ms: {type: 'integer', minimum: 1, maximum: 30000, description: 'The slow fault\'s added latency; default 2000.'},
      },
      {optional: ['method', 'rate', 'count', 'for_seconds', 'latency_ms', 'seed']},
    ),
    ChaosProviderFaultCreate: obj(
      {
        provider: idRef('prov', 'The provider (GET /v1/providers)'),
        fault: {type: 'string', enum: [...CHAOS_PROVIDER_FAULTS], description: 'down: every call fails (a provider error) and the provider is marked degraded until the rule ends; timeout: a share of calls time out; soft_decline: a share of authorizations are declined softly (try_again_later); latency: calls answer latency_ms later (really waited), and time out when that passes the provider\'s timeout. Routing fails over as after a real failure.'},
        ...chaosCreateCommon,
        latency_ms: {type: 'integer', minimum: 1, maximum: 30000, description: 'The latency fault\'s added latency; default 1000.'},
      },
      {optional: ['rate', 'count', 'for_seconds', 'latency_ms', 'seed']},
    ),
    ChaosWebhookFaultCreate: obj(
      {
        fault: {type: 'string', enum: [...CHAOS_WEBHOOK_FAULTS], description: 'duplicate: the event is delivered twice (two deliveries, each signed and logged); shuffle: deliveries are held a random time within delay_seconds, so they arrive out of order; delay: every delivery is held delay_seconds; fail_first: the first `attempts` attempts of each delivery fail on purpose (logged, nothing sent) and the retry schedule takes over.'},
        endpoint: {...idRef('wh', 'Webhook endpoint'), description: 'Only this endpoint\'s deliveries (default: every endpoint\'s); an unknown id is 404 resource_missing naming this parameter.'},
        ...chaosCreateCommon,
        delay_seconds: {type: 'integer', minimum: 1, maximum: 86400, description: 'delay: the hold (required); shuffle: the window (default 10).'},
        attempts: {type: 'integer', minimum: 1, maximum: 10, description: 'fail_first: how many attempts of each delivery fail (default 1).'},
      },
      {optional: ['endpoint', 'rate', 'count', 'for_seconds', 'delay_seconds', 'attempts', 'seed']},
    ),
  }),
  lists: ['ChaosRule'],
  operations: [
    {id: 'createChaosApiFault', perm: 'test_helpers:write', method: 'post', path: '/chaos/api', tag: 'Chaos', summary: 'Switch on an API fault to rehearse', body: 'ChaosApiFaultCreate', bodyRequired: true, status: 201, testHelper: true,
      description: "A share (`rate`) of this account's requests matching `method` and `path` is answered 500, 503 or 429 (with Retry-After) instead, answered after `latency_ms` (slow), or done and committed and then left without a response, the connection dropped (response_lost: a retry with the same Idempotency-Key replays it; one without makes a second payment). Every fault ends: after `count` faults, and at the latest after `for_seconds` on the engine clock (600 s by default without a count). Injected faults carry `Gw-Chaos: <rule id>` and are marked in the request log. Test keys only; /v1/chaos itself is never faulted.",
      response: 'ChaosRule', responseDescription: 'The rule, with when it ends.'},
    {id: 'createChaosProviderFault', perm: 'test_helpers:write', method: 'post', path: '/chaos/providers', tag: 'Chaos', summary: 'Switch on a provider fault to rehearse', body: 'ChaosProviderFaultCreate', bodyRequired: true, status: 201, testHelper: true,
      description: "For this account, a provider goes down (every authorization and refund call fails with a provider error; the provider is marked `degraded`, with `provider.health.changed`, at the first failure and `active` again when the rule ends), or a share (`rate`) of its calls time out, soft-decline (`try_again_later`) or answer `latency_ms` later (really waited; past the provider's timeout the call times out). Routing fails over to the next provider inside the same call as after a real failure: `provider_attempts`, the routing explanation and the 7-day authorization rate show it. Every fault ends: after `count` faults (not for down), and at the latest after `for_seconds` on the engine clock. Test keys only.",
      response: 'ChaosRule', responseDescription: 'The rule, with when it ends.', errors: [404]},
    {id: 'createChaosWebhookFault', perm: 'test_helpers:write', method: 'post', path: '/chaos/webhooks', tag: 'Chaos', summary: 'Switch on a webhook fault to rehearse', body: 'ChaosWebhookFaultCreate', bodyRequired: true, status: 201, testHelper: true,
      description: "Shapes the deliveries created while it is active (of one endpoint, or every one): a share (`rate`) of events delivered twice, deliveries held a random time within `delay_seconds` so they arrive out of order (shuffle), every delivery held `delay_seconds` (delay), or the first `attempts` attempts of each delivery failed on purpose (logged with error `chaos_fail_first`, nothing sent) so the retry schedule takes over. Every delivery is still signed when sent and recorded in the delivery log, marked with the rule (`chaos`). Every fault ends: after `count` deliveries, and at the latest after `for_seconds` on the engine clock. Test keys only.",
      response: 'ChaosRule', responseDescription: 'The rule, with when it ends.', errors: [404]},
    {id: 'listChaos', perm: 'test_helpers:read', method: 'get', path: '/chaos', tag: 'Chaos', summary: 'List the active faults', testHelper: true, response: 'ChaosRuleList', responseDescription: 'Every active rule of the account, with the faults each injected.'},
    {id: 'clearChaos', perm: 'test_helpers:write', method: 'delete', path: '/chaos', tag: 'Chaos', summary: 'Clear every fault', testHelper: true, response: 'ChaosRuleList', responseDescription: 'The rules that were active and are now ended.'},
    {id: 'deleteChaosRule', perm: 'test_helpers:write', method: 'delete', path: '/chaos/{id}', tag: 'Chaos', summary: 'End one fault', testHelper: true, response: 'ChaosRule', responseDescription: 'The rule, now ended.', errors: [404]},
  ],
}
