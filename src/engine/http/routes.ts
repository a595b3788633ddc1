// Every route of the API, named by its operationId in the OpenAPI document (src/api/openapi),
// whose method and path the router takes from it (router.ts), and whose schemas the pipeline
// checks each request against before the handler runs. A handler
// reads its checked input, calls one use case, and maps the result to the wire. Reads run
// without a unit of work; writes get one from the pipeline, which commits it (with the
// idempotency record) before the response is sent.
import * as accounts from '../app/accounts.js'
import * as chaos from '../app/chaos.js'
import * as checkout from '../app/checkout-sessions.js'
import {addProviderFault} from '../app/chaos-providers.js'
import {addWebhookFault} from '../app/chaos-webhooks.js'
import {replayEndpoint} from '../app/webhook-replay.js'
import * as snapshots from '../app/snapshots.js'
import * as customers from '../app/customers.js'
import * as keys from '../app/keys.js'
import * as disputes from '../app/disputes.js'
import * as events from '../app/events.js'
import type {App} from '../app/index.js'
import {toApi} from '../core/internal.js'
import * as merchants from '../app/merchants.js'
import {balance} from '../app/ledger.js'
import * as payments from '../app/payments.js'
import * as paymentChanges from '../app/payment-changes.js'
import * as paymentQueries from '../app/payment-queries.js'
import {listProviders, loadProvider, providerView, setProviderHealth} from '../core/provider-state.js'
import * as refunds from '../app/refunds.js'
import * as settlement from '../app/settlement.js'
import {setClock, advanceClock, clockView} from '../app/test-clock.js'
import * as webhooks from '../app/webhooks.js'
import {forbidden, invalid} from '../domain/errors.js'
import {redactShownOnce} from '../domain/secrets.js'
import {reportCsv} from '../domain/settlement.js'
import type {ListPage} from '../ports/store.js'
import {ApiError} from './errors.js'
import {JSON_CONTENT_TYPE} from './answer.js'
import {EventStreams} from './event-stream.js'
import type {StreamBudget} from './sse.js'
import {RequestLog} from './request-log.js'
import {snapshotSource} from './snapshot-body.js'
import {authorizeAlso} from './access.js'
import {allows} from '../domain/keys.js'
import {eventReadPermissions} from '../domain/webhooks.js'
import {PLATFORM_ACCOUNT} from '../ports/store.js'
import {snapshotAnswer} from './snapshot-out.js'
import {listUrl, Router, type HandlerResult, type RequestCtx} from './router.js'

/** An object as the response: its public JSON (the pipeline serializes it, once, without `_x`). */
const ok = (body: unknown, status = 200): HandlerResult => ({status, body})
/** An answer that shows a secret once (a key, an account's keys, a signing secret): its idempotency record keeps each redacted, so no store holds it. */
const shownOnce = (body: object, status = 200): HandlerResult => ({status, body, recorded: redactShownOnce(body)})
/** A page of a list as its answer, `url` the path the request named. */
const listOf = (ctx: RequestCtx, page: ListPage<unknown>): HandlerResult => ({status: 200, body: {object: 'list', url: listUrl(ctx), data: page.data.map(toApi), has_more: page.has_more}})

/** The checked query: paging (limit defaults to 20) plus the operation's filters, as typed by the document. */
function q<Q extends {limit?: number; starting_after?: string; ending_before?: string}>(ctx: {input: {query: Q}}): Q & {limit: number} {
  const v = ctx.input.query
  return {...v, limit: v.limit ?? 20}
}
/** A date-time filter in the stored form (UTC, milliseconds). */
const time = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined
  // the document's pattern only asks for a leading YYYY-MM-DD: 2026-99-99 gets here and is no date
  const at = new Date(v)
  if (Number.isNaN(at.getTime())) throw invalid(name, `${name} must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z; got '${v}'.`)
  return at.toISOString()
}

/** The 413 of a snapshot over the limit: the limit, and who may change it how. */
const snapshotTooLarge = (max: number) =>
  `Snapshots loaded into this engine are limited to ${+(max / 1048576).toFixed(1)} MiB (${max} bytes). Its operator can raise the limit: gw serve --snapshot-max-bytes BYTES (or GW_SNAPSHOT_MAX_BYTES).`

/** A payment whose issuer declined: 402 with the issuer's code, the failed payment stored (docs/decisions.md#declines-and-risk-blocks). */
function paymentResult(out: payments.PaymentOutcome, status: number): HandlerResult {
  if (out.declined) return {status: 402, error: new ApiError(402, 'card_error', out.declined, out.payment.failure_message ?? out.declined, {payment: out.payment.id})}
  return ok(out.payment, status)
}

export function routes(
  app: App,
  opts: {
    onRequest?: ConstructorParameters<typeof RequestLog>[2]
    requestLog?: ConstructorParameters<typeof RequestLog>[3]
    /** the largest snapshot a load takes (gw serve --snapshot-max-bytes); default DEFAULT_SNAPSHOT_MAX_BYTES */
    snapshotMaxBytes?: number
    /** the event streams (and request-log streams) each account may hold open (gw serve --max-event-streams), and the connections they hold */
    streams?: StreamBudget
  } = {},
): {router: Router; streams: EventStreams; requestLog: RequestLog} {
  const r = new Router()
  const snapshotMax = opts.snapshotMaxBytes ?? snapshots.DEFAULT_SNAPSHOT_MAX_BYTES
  const streams = new EventStreams(app, opts.streams)

  paymentRoutes(r)
  customerRoutes(r)
  moneyRoutes(r)
  settlementRoutes(r)
  eventRoutes(r, streams)
  merchantRoutes(r)
  providerAndClockRoutes(r, snapshotMax)
  checkoutRoutes(r)
  chaosRoutes(r)
  accountRoutes(r)

  // the API request log (GET /request_logs, /request_logs/stream): the pipeline feeds it, each entry on its account's clock
  const requestLog = new RequestLog((account) => (account ? app.loaded(account)?.clock : undefined) ?? app.core.clock, 1000, opts.onRequest, {...opts.requestLog, streams: opts.streams})
  requestLog.install(r)
  return {router: r, streams, requestLog}
}

/** Payments. */
function paymentRoutes(r: Router): void {
  r.on('listPayments', async (ctx) => {
    // a filter that matches customers' data answers questions about it: it needs customers:read too
    const by = paymentQueries.CUSTOMER_DATA_FILTERS.filter((f) => ctx.input.query[f] !== undefined)
    if (by.length > 0) authorizeAlso(ctx, ['customers:read'], `filtering payments by ${by.join(' and ')}`, 'payments:read')
    return listOf(ctx, await paymentQueries.listPayments(ctx.core, {...q(ctx), created_gte: time('created_gte', ctx.input.query.created_gte), created_lte: time('created_lte', ctx.input.query.created_lte)}))
  })
    .on('createPayment', async (ctx, u) => paymentResult(await payments.createPayment(u, ctx.input.body), 201))
    .on('retrievePayment', async (ctx) => ok((await paymentQueries.loadPayment(ctx.core.store, ctx.params.id)).p))
    .on('retrievePaymentRouting', async (ctx) => ok(await paymentQueries.paymentRouting(ctx.core, ctx.params.id)))
    .on('simulateRouting', async (ctx) => ok(await paymentQueries.simulateRouting(ctx.core, ctx.input.query)))
    .on('confirmPayment', async (ctx, u) =>
      paymentResult(await payments.confirmPayment(u, ctx.params.id, ctx.input.body, {frameOrigin: payments.parentOrigin(ctx.headers['gw-parent-origin'])}), 200),
    )
    .on('capturePayment', async (ctx, u) => ok(await paymentChanges.capturePayment(u, ctx.params.id, ctx.input.body)))
    .on('incrementAuthorization', async (ctx, u) => ok(await paymentChanges.incrementAuthorization(u, ctx.params.id, ctx.input.body)))
    .on('cancelPayment', async (ctx, u) => ok(await paymentChanges.cancelPayment(u, ctx.params.id)))
    .on('testPaymentAction', async (ctx, u) => {
      u.standIn() // the customer's step: its events carry request_id null
      return ok(await paymentChanges.testHelperAction(u, ctx.params.id, ctx.input.body.outcome))
    })
    .on('testPaymentReview', async (ctx, u) => {
      u.standIn() // the operator's decision
      return ok(await paymentChanges.reviewPayment(u, ctx.params.id, ctx.input.body.decision))
    })
}

/** Customers and payment methods. */
function customerRoutes(r: Router): void {
  r.on('listCustomers', async (ctx) => listOf(ctx, await customers.listCustomers(ctx.core, q(ctx))))
    .on('createCustomer', async (ctx, u) => ok(await customers.createCustomer(u, ctx.input.body), 201))
    .on('retrieveCustomer', async (ctx) => ok(await customers.retrieveCustomer(ctx.core, ctx.params.id)))
    .on('updateCustomer', async (ctx, u) => ok(await customers.updateCustomer(u, ctx.params.id, ctx.input.body)))
    .on('deleteCustomer', async (ctx, u) => ok(await customers.deleteCustomer(u, ctx.params.id)))
    .on('listPaymentMethods', async (ctx) => listOf(ctx, await customers.listPaymentMethods(ctx.core, q(ctx))))
    .on('createPaymentMethod', async (ctx, u) => ok(await customers.createPaymentMethod(u, ctx.input.body), 201))
    .on('retrievePaymentMethod', async (ctx) => ok(await customers.retrievePaymentMethod(ctx.core, ctx.params.id)))
    .on('detachPaymentMethod', async (ctx, u) => ok(await customers.detachPaymentMethod(u, ctx.params.id)))
}

/** Refunds, disputes, balance. */
function moneyRoutes(r: Router): void {
  r.on('retrieveBalance', async (ctx) => ok(await balance(ctx.core)))
    .on('createRefund', async (ctx, u) => ok(await refunds.createRefund(u, ctx.input.body), 201))
    .on('listRefunds', async (ctx) => listOf(ctx, await refunds.listRefunds(ctx.core, q(ctx))))
    .on('retrieveRefund', async (ctx) => ok(await refunds.retrieveRefund(ctx.core, ctx.params.id)))
    .on('listDisputes', async (ctx) => listOf(ctx, await disputes.listDisputes(ctx.core, q(ctx))))
    .on('retrieveDispute', async (ctx) => ok(await disputes.retrieveDispute(ctx.core, ctx.params.id)))
    .on('submitDisputeEvidence', async (ctx, u) => ok(await disputes.submitEvidence(u, ctx.params.id, {fields: ctx.input.body.fields ?? {}, files: ctx.input.body.files ?? []})))
    .on('acceptDispute', async (ctx, u) => ok(await disputes.acceptDispute(u, ctx.params.id)))
    .on('testCreateDispute', async (ctx, u) => {
      u.standIn() // the network opens it
      return ok(await disputes.openTestDispute(u, ctx.input.body), 201)
    })
    .on('testResolveDispute', async (ctx, u) => {
      u.standIn() // the network decides it
      return ok(await disputes.resolveDispute(u, ctx.params.id, ctx.input.body.outcome))
    })
}

/** Settlement and payouts. */
function settlementRoutes(r: Router): void {
  r.on('listSettlementReports', async (ctx) => listOf(ctx, await settlement.listReports(ctx.core, q(ctx))))
    .on('retrieveSettlementReport', async (ctx) => {
      const report = await settlement.retrieveReport(ctx.core, ctx.params.id)
      if (String(ctx.headers.accept ?? '').includes('text/csv')) return {status: 200, text: {contentType: 'text/csv; charset=utf-8', body: reportCsv(report)}}
      return ok(report)
    })
    .on('listPayouts', async (ctx) => listOf(ctx, await settlement.listPayouts(ctx.core, q(ctx))))
    .on('retrievePayout', async (ctx) => ok(await settlement.retrievePayout(ctx.core, ctx.params.id)))
}

/** An endpoint receives whole payloads: its subscriber must hold what reading them needs (events:read covers them all). */
const mayReceive =
  (ctx: RequestCtx): webhooks.MayReceive =>
  (enabled) => {
    if (allows(ctx.key.type, ctx.key.permissions, 'events:read', ctx.account === PLATFORM_ACCOUNT)) return
    authorizeAlso(ctx, eventReadPermissions(enabled), `an endpoint receiving ${enabled.join(', ')}`, 'webhooks:write')
  }

/** Events and webhooks. */
function eventRoutes(r: Router, streams: EventStreams): void {
  r.on('listEvents', async (ctx) => {
    const res = await events.listEvents(ctx.core, {...q(ctx), type: ctx.input.query.type, object: ctx.input.query.object, created_gte: time('created_gte', ctx.input.query.created_gte), created_lte: time('created_lte', ctx.input.query.created_lte)})
    // the exact stored bytes of each event, as delivered to webhooks
    return {status: 200, text: {contentType: JSON_CONTENT_TYPE, body: `{"object":"list","url":"${listUrl(ctx)}","data":[${res.data.map((e) => e.json).join(',')}],"has_more":${res.has_more}}`}}
  })
    .on('streamEvents', (ctx) => streams.handle(ctx))
    .on('retrieveEvent', async (ctx) => ({status: 200, text: {contentType: JSON_CONTENT_TYPE, body: (await events.retrieveEvent(ctx.core, ctx.params.id)).json}}))
    .on('listEventDeliveries', async (ctx) => listOf(ctx, await webhooks.listEventDeliveries(ctx.core, ctx.params.id, q(ctx))))
    .on('resendEvent', async (ctx, u) => {
      const ds = await webhooks.resendEvent(u, ctx.params.id, ctx.input.body)
      return {status: 200, body: {object: 'list', url: listUrl(ctx), data: ds.map(toApi), has_more: false}}
    })
    .on('listWebhookEndpoints', async (ctx) => listOf(ctx, await webhooks.listEndpoints(ctx.core, {...q(ctx), disabled: ctx.input.query.disabled})))
    .on('createWebhookEndpoint', async (ctx, u) => shownOnce(await webhooks.createEndpoint(u, ctx.input.body, mayReceive(ctx)), 201))
    .on('retrieveWebhookEndpoint', async (ctx) => ok(await webhooks.retrieveEndpoint(ctx.core, ctx.params.id)))
    .on('updateWebhookEndpoint', async (ctx, u) => ok(await webhooks.updateEndpoint(u, ctx.params.id, ctx.input.body, mayReceive(ctx))))
    .on('deleteWebhookEndpoint', async (ctx, u) => ok(await webhooks.deleteEndpoint(u, ctx.params.id)))
    .on('replayWebhookEndpoint', async (ctx, u) => ok(await replayEndpoint(u, ctx.params.id, ctx.input.body)))
    .on('rotateWebhookEndpointSecret', async (ctx, u) => shownOnce(await webhooks.rotateSecret(u, ctx.params.id, ctx.input.body)))
    .on('listWebhookEndpointDeliveries', async (ctx) => listOf(ctx, await webhooks.listEndpointDeliveries(ctx.core, ctx.params.id, q(ctx))))
    .on('retrieveWebhookDelivery', async (ctx) => ok(await webhooks.retrieveDelivery(ctx.core, ctx.params.id)))
}

/** Merchants and routing rules. */
function merchantRoutes(r: Router): void {
  r.on('listMerchants', async (ctx) => listOf(ctx, await merchants.listMerchants(ctx.core, q(ctx))))
    .on('createMerchant', async (ctx, u) => ok(await merchants.createMerchant(u, ctx.input.body), 201))
    .on('retrieveMerchant', async (ctx) => ok(await merchants.retrieveMerchant(ctx.core, ctx.params.id)))
    .on('updateMerchant', async (ctx, u) => ok(await merchants.updateMerchant(u, ctx.params.id, ctx.input.body)))
    .on('listRoutingRules', async (ctx) => listOf(ctx, await merchants.listRules(ctx.core, q(ctx))))
    .on('createRoutingRule', async (ctx, u) => ok(await merchants.createRule(u, ctx.input.body), 201))
    .on('retrieveRoutingRule', async (ctx) => ok(await merchants.retrieveRule(ctx.core, ctx.params.id)))
    .on('updateRoutingRule', async (ctx, u) => ok(await merchants.updateRule(u, ctx.params.id, ctx.input.body)))
    .on('deleteRoutingRule', async (ctx, u) => ok(await merchants.deleteRule(u, ctx.params.id)))
}

/** Providers and the test clock. */
function providerAndClockRoutes(r: Router, snapshotMax: number): void {
  r.on('listProviders', async (ctx) => ({status: 200, body: {object: 'list', url: listUrl(ctx), ...listProviders(ctx.core, q(ctx))}}))
    .on('retrieveProvider', async (ctx) => ok(providerView(ctx.core, loadProvider(ctx.params.id))))
    .on('testSetProviderHealth', async (ctx, u) => ok(await setProviderHealth(u, ctx.params.id, ctx.input.body.status)))
    .on('testGetClock', async (ctx) => ok(clockView(ctx.core)))
    .on('testSetClock', async (ctx) => ok(await setClock(ctx.core, ctx.input.body)))
    .on('testSaveSnapshot', async (ctx) => {
      const includeSecrets = ctx.input.query.include_secrets === true
      // signing secrets and card numbers: what only a secret key of the account may read
      if (includeSecrets && ctx.key.type !== 'secret')
        throw forbidden('none', `include_secrets=true puts the account's webhook signing secrets and card numbers in the snapshot: it needs a secret key of the account; this ${ctx.key.type} key (${ctx.key.redacted}) may save a snapshot without them (leave include_secrets out).`)
      return snapshotAnswer(ctx.core, includeSecrets)
    })
    .on('testLoadSnapshot', async (ctx, u) => ok(await snapshots.loadSnapshot(u, await snapshotSource(ctx.raw))), {maxBody: snapshotMax, rawBody: true, tooLarge: snapshotTooLarge})
    .on('testAdvanceClock', async (ctx) => {
      const {clock, fired, pending} = await advanceClock(ctx.core, ctx.input.body.seconds, {wait: ctx.input.body.wait === true})
      return ok({...clock, fired, ...(pending ? {pending_attempts: pending} : {})})
    })
}

/** Hosted checkout sessions (docs/api.md#hosted-checkout-sessions). */
function checkoutRoutes(r: Router): void {
  r.on('listCheckoutSessions', async (ctx) => listOf(ctx, await checkout.listCheckoutSessions(ctx.core, q(ctx))))
    .on('createCheckoutSession', async (ctx, u) => ok(await checkout.createCheckoutSession(u, ctx.input.body), 201))
    .on('retrieveCheckoutSession', async (ctx) => ok(await checkout.retrieveCheckoutSession(ctx.core, ctx.params.id)))
    .on('expireCheckoutSession', async (ctx, u) => ok(await checkout.expireCheckoutSession(u, ctx.params.id)))
    // card fields pay a session, each try a payment of it
    .on('payCheckoutSession', async (ctx, u) =>
      paymentResult(await checkout.payCheckoutSession(u, ctx.params.id, ctx.input.body, {frameOrigin: payments.parentOrigin(ctx.headers['gw-parent-origin'])}), 201),
    )
}

/** Failure on purpose (docs/api.md#failure-on-purpose-chaos). */
function chaosRoutes(r: Router): void {
  r.on('createChaosApiFault', async (ctx, u) => ok(await chaos.addApiFault(u, ctx.input.body), 201))
    .on('createChaosProviderFault', async (ctx, u) => ok(await addProviderFault(u, ctx.input.body), 201))
    .on('createChaosWebhookFault', async (ctx, u) => ok(await addWebhookFault(u, ctx.input.body), 201))
    .on('listChaos', async (ctx) => ({status: 200, body: {object: 'list', url: listUrl(ctx), data: await chaos.chaosStatus(ctx.core), has_more: false}}))
    .on('clearChaos', async (ctx, u) => ({status: 200, body: {object: 'list', url: listUrl(ctx), data: await chaos.clearChaos(u), has_more: false}}))
    .on('deleteChaosRule', async (ctx, u) => ok((await chaos.clearChaos(u, ctx.params.id))[0]))
}

/** Accounts and keys (docs/api.md#accounts-and-keys). */
function accountRoutes(r: Router): void {
  r.on('retrieveCurrentAccount', async (ctx) => ok(await accounts.currentAccount(ctx.core)))
    .on('listAccounts', async (ctx) => listOf(ctx, await accounts.listAccounts(ctx.core, q(ctx))))
    .on('createAccount', async (ctx, u) => shownOnce(await accounts.createAccount(u, ctx.input.body), 201))
    .on('retrieveAccount', async (ctx) => ok(await accounts.retrieveAccount(ctx.core, ctx.params.id)))
    .on('updateAccount', async (ctx, u) => ok(await accounts.updateAccount(u, ctx.params.id, ctx.input.body)))
    .on('deleteAccount', async (ctx, u) => ok(await accounts.deleteAccount(u, ctx.params.id)))
    .on('listApiKeys', async (ctx) => listOf(ctx, await keys.listKeys(ctx.core, q(ctx))))
    .on('createApiKey', async (ctx, u) => shownOnce(await keys.createKey(u, ctx.input.body), 201))
    .on('retrieveCurrentApiKey', async (ctx) => ok(ctx.key))
    .on('retrieveApiKey', async (ctx) => ok(await keys.retrieveKey(ctx.core, ctx.params.id)))
    .on('rollApiKey', async (ctx, u) => shownOnce(await keys.rollKey(u, ctx.params.id, ctx.input.body)))
    .on('revokeApiKey', async (ctx, u) => ok(await keys.revokeKey(u, ctx.params.id)))
}
