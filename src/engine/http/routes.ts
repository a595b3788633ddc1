// Every route of the API: parse and validate the request, call one use case, map its result to
// the wire. Reads run without a unit of work; writes get one from the pipeline, which commits
// it (with the idempotency record) before the response is sent.
import * as customers from '../app/customers.js'
import * as disputes from '../app/disputes.js'
import * as events from '../app/events.js'
import type {App} from '../app/index.js'
import {toApi} from '../app/internal.js'
import * as merchants from '../app/merchants.js'
import {balance} from '../app/money.js'
import * as payments from '../app/payments.js'
import {loadProvider, providerView, setProviderHealth, type HealthStatus} from '../app/provider-state.js'
import * as refunds from '../app/refunds.js'
import * as settlement from '../app/settlement.js'
import {advanceClock, clockView, MAX_ADVANCE_S} from '../app/test-clock.js'
import * as webhooks from '../app/webhooks.js'
import {DISPUTE_REASONS, type DisputeReason} from '../domain/dispute-evidence.js'
import {invalid, testModeOnly} from '../domain/errors.js'
import {MAX_AMOUNT} from '../domain/payment.js'
import {PROVIDERS} from '../domain/providers.js'
import {reportCsv} from '../domain/settlement.js'
import type {ListPage} from '../ports/store.js'
import {ApiError} from './errors.js'
import {EventStreams} from './event-stream.js'
import * as req from './requests.js'
import {Router, type HandlerResult, type RequestCtx} from './router.js'
import {isoParam, pageParams, validate} from './validate.js'

const JSON_TYPE = 'application/json; charset=utf-8'

const ok = (body: unknown, status = 200): HandlerResult => ({status, body: toApi(body)})
const listOf = (url: string, page: ListPage<unknown>): HandlerResult => ({status: 200, body: {object: 'list', url, data: page.data.map(toApi), has_more: page.has_more}})
const query = (ctx: RequestCtx, name: string): string | undefined => ctx.query.get(name) ?? undefined

function testMode(ctx: RequestCtx): void {
  if (ctx.livemode) throw testModeOnly()
}

/** A payment whose issuer declined: 402 with the issuer's code, the failed payment stored (decisions.md). */
function paymentResult(out: payments.PaymentOutcome, status: number): HandlerResult {
  if (out.declined)
    return {status: 402, error: new ApiError(402, 'card_error', out.declined, out.payment.failure_message ?? out.declined, {payment: out.payment.id})}
  return ok(out.payment, status)
}

export function routes(app: App): {router: Router; streams: EventStreams} {
  const core = app.core
  const r = new Router()
  const streams = new EventStreams(app)

  // ---------------------------------------------------------------- payments
  r.get('/payments', async (ctx) => {
    const page = pageParams(ctx.query, ['status', 'customer', 'reference', 'created_gte', 'created_lte'])
    const q = {...page, status: query(ctx, 'status'), customer: query(ctx, 'customer'), reference: query(ctx, 'reference'), created_gte: isoParam(ctx.query, 'created_gte'), created_lte: isoParam(ctx.query, 'created_lte')}
    return listOf('/v1/payments', await payments.listPayments(core, q))
  })
    .post('/payments', async (ctx, u) => paymentResult(await payments.createPayment(u, validate<payments.CreatePayment>(ctx.body, req.CREATE_PAYMENT)), 201))
    .get('/payments/:id', async (ctx) => ok((await payments.loadPayment(core.store, ctx.params.id!)).p))
    .post('/payments/:id/confirm', async (ctx, u) => paymentResult(await payments.confirmPayment(u, ctx.params.id!, validate(ctx.body, req.CONFIRM_PAYMENT)), 200))
    .post('/payments/:id/capture', async (ctx, u) => ok(await payments.capturePayment(u, ctx.params.id!, validate(ctx.body, req.CAPTURE_PAYMENT))))
    .post('/payments/:id/increment_authorization', async (ctx, u) => ok(await payments.incrementAuthorization(u, ctx.params.id!, validate<{amount: number}>(ctx.body, req.INCREMENT_PAYMENT))))
    .post('/payments/:id/cancel', async (ctx, u) => {
      validate(ctx.body, req.CANCEL_PAYMENT)
      return ok(await payments.cancelPayment(u, ctx.params.id!))
    })
    .post('/test_helpers/payments/:id/action', async (ctx, u) => {
      testMode(ctx)
      const b = validate<{outcome: 'approve' | 'fail' | 'abandon'}>(ctx.body, {outcome: {type: 'string', required: true, enum: ['approve', 'fail', 'abandon']}})
      return ok(await payments.testHelperAction(u, ctx.params.id!, b.outcome))
    })
    .post('/test_helpers/payments/:id/review', async (ctx, u) => {
      testMode(ctx)
      const b = validate<{decision: 'approve' | 'block'}>(ctx.body, {decision: {type: 'string', required: true, enum: ['approve', 'block']}})
      return ok(await payments.reviewPayment(u, ctx.params.id!, b.decision))
    })

  // ---------------------------------------------------------------- customers and payment methods
  r.get('/customers', async (ctx) => listOf('/v1/customers', await customers.listCustomers(core, {...pageParams(ctx.query, ['email']), email: query(ctx, 'email')})))
    .post('/customers', async (ctx, u) => ok(await customers.createCustomer(u, validate(ctx.body, req.CUSTOMER_FIELDS)), 201))
    .get('/customers/:id', async (ctx) => ok(await customers.retrieveCustomer(core, ctx.params.id!)))
    .post('/customers/:id', async (ctx, u) => ok(await customers.updateCustomer(u, ctx.params.id!, validate(ctx.body, req.CUSTOMER_FIELDS))))
    .delete('/customers/:id', async (ctx, u) => ok(await customers.deleteCustomer(u, ctx.params.id!)))
    .get('/payment_methods', async (ctx) =>
      listOf('/v1/payment_methods', await customers.listPaymentMethods(core, {...pageParams(ctx.query, ['customer', 'type']), customer: query(ctx, 'customer'), type: query(ctx, 'type')})),
    )
    .post('/payment_methods', async (ctx, u) => ok(await customers.createPaymentMethod(u, validate<customers.CreatePaymentMethod>(ctx.body, req.PAYMENT_METHOD_DATA_SCHEMA)), 201))
    .get('/payment_methods/:id', async (ctx) => ok(await customers.retrievePaymentMethod(core, ctx.params.id!)))
    .post('/payment_methods/:id/detach', async (ctx, u) => {
      validate(ctx.body, {})
      return ok(await customers.detachPaymentMethod(u, ctx.params.id!))
    })

  // ---------------------------------------------------------------- refunds, disputes, balance
  r.get('/balance', async (ctx) => {
    validate(Object.fromEntries(ctx.query), {})
    return ok(await balance(core))
  })
    .post('/refunds', async (ctx, u) => ok(await refunds.createRefund(u, validate<refunds.CreateRefund>(ctx.body, req.CREATE_REFUND)), 201))
    .get('/refunds', async (ctx) =>
      listOf('/v1/refunds', await refunds.listRefunds(core, {...pageParams(ctx.query, ['payment', 'status']), payment: query(ctx, 'payment'), status: query(ctx, 'status')})),
    )
    .get('/refunds/:id', async (ctx) => ok(await refunds.retrieveRefund(core, ctx.params.id!)))
    .get('/disputes', async (ctx) =>
      listOf('/v1/disputes', await disputes.listDisputes(core, {...pageParams(ctx.query, ['status', 'payment']), status: query(ctx, 'status'), payment: query(ctx, 'payment')})),
    )
    .get('/disputes/:id', async (ctx) => ok(await disputes.retrieveDispute(core, ctx.params.id!)))
    .post('/disputes/:id/evidence', async (ctx, u) => ok(await disputes.submitEvidence(u, ctx.params.id!, req.parseEvidence(ctx.body))))
    .post('/disputes/:id/accept', async (ctx, u) => {
      validate(ctx.body, {})
      return ok(await disputes.acceptDispute(u, ctx.params.id!))
    })
    .post('/test_helpers/disputes', async (ctx, u) => {
      testMode(ctx)
      const b = validate<{payment: string; reason?: DisputeReason; amount?: number}>(ctx.body, {
        payment: {type: 'string', required: true},
        reason: {type: 'string', enum: DISPUTE_REASONS},
        amount: {type: 'integer', min: 1, max: MAX_AMOUNT, hint: "in the payment currency's minor unit"},
      })
      return ok(await disputes.openTestDispute(u, b), 201)
    })
    .post('/test_helpers/disputes/:id/resolve', async (ctx, u) => {
      testMode(ctx)
      const b = validate<{outcome: 'won' | 'lost' | 'escalate'}>(ctx.body, {outcome: {type: 'string', required: true, enum: ['won', 'lost', 'escalate']}})
      return ok(await disputes.resolveDispute(u, ctx.params.id!, b.outcome))
    })

  // ---------------------------------------------------------------- settlement and payouts
  r.get('/settlement_reports', async (ctx) =>
    listOf(
      '/v1/settlement_reports',
      await settlement.listReports(core, {...pageParams(ctx.query, ['provider', 'currency', 'date']), provider: query(ctx, 'provider'), currency: query(ctx, 'currency'), date: query(ctx, 'date')}),
    ),
  )
    .get('/settlement_reports/:id', async (ctx) => {
      const report = await settlement.retrieveReport(core, ctx.params.id!)
      if (String(ctx.headers.accept ?? '').includes('text/csv')) return {status: 200, text: {contentType: 'text/csv; charset=utf-8', body: reportCsv(report)}}
      return ok(report)
    })
    .get('/payouts', async (ctx) => listOf('/v1/payouts', await settlement.listPayouts(core, {...pageParams(ctx.query, ['currency', 'status']), currency: query(ctx, 'currency'), status: query(ctx, 'status')})))
    .get('/payouts/:id', async (ctx) => ok(await settlement.retrievePayout(core, ctx.params.id!)))

  // ---------------------------------------------------------------- events and webhooks
  r.get('/events', async (ctx) => {
    const page = pageParams(ctx.query, ['type', 'created_gte', 'created_lte'])
    const res = await events.listEvents(core, {...page, type: query(ctx, 'type'), created_gte: isoParam(ctx.query, 'created_gte'), created_lte: isoParam(ctx.query, 'created_lte')})
    // the exact stored bytes of each event, as delivered to webhooks
    return {status: 200, text: {contentType: JSON_TYPE, body: `{"object":"list","url":"/v1/events","data":[${res.data.map((e) => e.json).join(',')}],"has_more":${res.has_more}}`}}
  })
    .get('/events/stream', (ctx) => streams.handle(ctx))
    .get('/events/:id', async (ctx) => ({status: 200, text: {contentType: JSON_TYPE, body: (await events.retrieveEvent(core, ctx.params.id!)).json}}))
    .get('/events/:id/deliveries', async (ctx) =>
      listOf(
        `/v1/events/${ctx.params.id}/deliveries`,
        await webhooks.listEventDeliveries(core, ctx.params.id!, {...pageParams(ctx.query, ['status', 'endpoint']), status: query(ctx, 'status'), endpoint: query(ctx, 'endpoint')}),
      ),
    )
    .post('/events/:id/resend', async (ctx, u) => {
      const b = validate<{endpoint?: string}>(ctx.body, {endpoint: {type: 'string'}})
      const ds = await webhooks.resendEvent(u, ctx.params.id!, b)
      return {status: 200, body: {object: 'list', url: `/v1/events/${ctx.params.id}/resend`, data: ds.map(toApi), has_more: false}}
    })
    .get('/webhook_endpoints', async (ctx) => {
      const page = pageParams(ctx.query, ['disabled'])
      const d = query(ctx, 'disabled')
      if (d !== undefined && d !== 'true' && d !== 'false') throw invalid('disabled', `disabled must be true or false; got '${d}'.`)
      return listOf('/v1/webhook_endpoints', await webhooks.listEndpoints(core, {...page, disabled: d === undefined ? undefined : d === 'true'}))
    })
    .post('/webhook_endpoints', async (ctx, u) => ok(await webhooks.createEndpoint(u, validate(ctx.body, req.CREATE_ENDPOINT)), 201))
    .get('/webhook_endpoints/:id', async (ctx) => ok(await webhooks.retrieveEndpoint(core, ctx.params.id!)))
    .post('/webhook_endpoints/:id', async (ctx, u) => ok(await webhooks.updateEndpoint(u, ctx.params.id!, validate(ctx.body, req.UPDATE_ENDPOINT))))
    .delete('/webhook_endpoints/:id', async (ctx, u) => {
      validate(ctx.body, {})
      return ok(await webhooks.deleteEndpoint(u, ctx.params.id!))
    })
    .post('/webhook_endpoints/:id/rotate_secret', async (ctx, u) => {
      validate(ctx.body, {})
      return ok(await webhooks.rotateSecret(u, ctx.params.id!))
    })
    .get('/webhook_endpoints/:id/deliveries', async (ctx) => {
      if (ctx.query.has('endpoint')) throw invalid('endpoint', 'endpoint is implied by the path here; remove the parameter.', 'parameter_unknown')
      const q = {...pageParams(ctx.query, ['status']), status: query(ctx, 'status')}
      return listOf(`/v1/webhook_endpoints/${ctx.params.id}/deliveries`, await webhooks.listEndpointDeliveries(core, ctx.params.id!, q))
    })
    .get('/webhook_deliveries/:id', async (ctx) => ok(await webhooks.retrieveDelivery(core, ctx.params.id!)))

  // ---------------------------------------------------------------- merchants and routing rules
  r.get('/merchants', async (ctx) => listOf('/v1/merchants', await merchants.listMerchants(core, {...pageParams(ctx.query, ['kyb_status']), kyb_status: query(ctx, 'kyb_status')})))
    .post('/merchants', async (ctx, u) => ok(await merchants.createMerchant(u, validate(ctx.body, req.CREATE_MERCHANT)), 201))
    .get('/merchants/:id', async (ctx) => ok(await merchants.retrieveMerchant(core, ctx.params.id!)))
    .post('/merchants/:id', async (ctx, u) => ok(await merchants.updateMerchant(u, ctx.params.id!, validate(ctx.body, req.MERCHANT_FIELDS))))
    .get('/routing_rules', async (ctx) => listOf('/v1/routing_rules', await merchants.listRules(core, {...pageParams(ctx.query, ['merchant']), merchant: query(ctx, 'merchant')})))
    .post('/routing_rules', async (ctx, u) => ok(await merchants.createRule(u, validate(ctx.body, req.rule(false))), 201))
    .get('/routing_rules/:id', async (ctx) => ok(await merchants.retrieveRule(core, ctx.params.id!)))
    .post('/routing_rules/:id', async (ctx, u) => ok(await merchants.updateRule(u, ctx.params.id!, validate(ctx.body, req.rule(true)))))
    .delete('/routing_rules/:id', async (ctx, u) => ok(await merchants.deleteRule(u, ctx.params.id!)))

  // ---------------------------------------------------------------- providers and the test clock
  r.get('/providers', async (ctx) => {
    const page = pageParams(ctx.query, ['payment_method', 'currency'])
    const pm = ctx.query.get('payment_method')
    const cur = ctx.query.get('currency')
    const list = PROVIDERS.filter((p) => (pm === null || p.methods.includes(pm)) && (cur === null || p.currencies.includes(cur)))
    // providers are a fixed set, in their catalog order: cursors are positions in it
    let start = 0
    let end = list.length
    if (page.starting_after) {
      const i = list.findIndex((p) => p.id === page.starting_after)
      if (i < 0) throw invalid('starting_after', `starting_after: no such provider '${page.starting_after}'.`)
      start = i + 1
    }
    if (page.ending_before) {
      const i = list.findIndex((p) => p.id === page.ending_before)
      if (i < 0) throw invalid('ending_before', `ending_before: no such provider '${page.ending_before}'.`)
      end = i
      start = Math.max(0, end - page.limit)
    }
    const data = list.slice(start, Math.min(end, start + page.limit)).map((p) => providerView(core, p))
    const has_more = page.ending_before ? start > 0 : start + page.limit < end
    return {status: 200, body: {object: 'list', url: '/v1/providers', data, has_more}}
  })
    .get('/providers/:id', async (ctx) => ok(providerView(core, loadProvider(ctx.params.id!))))
    .post('/test_helpers/providers/:id/health', async (ctx, u) => {
      testMode(ctx)
      const b = validate<{status: HealthStatus}>(ctx.body, {status: {type: 'string', required: true, enum: ['active', 'degraded', 'disabled']}})
      return ok(await setProviderHealth(u, ctx.params.id!, b.status))
    })
    .get('/test_helpers/clock', async (ctx) => {
      testMode(ctx)
      return ok(clockView(core))
    })
    .post('/test_helpers/clock/advance', async (ctx) => {
      testMode(ctx)
      const b = validate<{seconds: number}>(ctx.body, {seconds: {type: 'integer', required: true, min: 1, max: MAX_ADVANCE_S, hint: '(whole seconds to move the engine clock forward)'}})
      return ok((await advanceClock(core, b.seconds)).clock)
    })

  return {router: r, streams}
}
