import {OffsetClock, RandomIds} from './adapters/system.js'
import {PROVIDERS} from './domain/providers.js'
import type {RoutingRule} from './domain/routing.js'
import {Router} from './http/router.js'
import {Kernel} from './kernel.js'
import type {ProviderConnection} from './ports/provider.js'
import type {Store} from './ports/store.js'
import {createSimulatedProviders} from './providers/simulated.js'
import {AdminService} from './services/admin.js'
import {CustomersService} from './services/customers.js'
import {EventsService} from './services/events.js'
import {MerchantsService} from './services/merchants.js'
import {SettlementService} from './services/settlement.js'
import {PaymentsService} from './services/payments.js'
import {WebhooksService} from './services/webhooks.js'
import {installMoney} from './services/disputes.js'
import {ProviderStateCache} from './services/provider-state.js'

export interface App {
  kernel: Kernel
  router: Router
  clock: OffsetClock
  events: EventsService
  payments: PaymentsService
  admin: AdminService
  providerState: ProviderStateCache
  /** webhook endpoints, outbox and delivery worker; close() aborts attempts in flight */
  webhooks: WebhooksService
  /** ledger, balance, refunds and disputes */
  money: Awaited<ReturnType<typeof installMoney>>
  /** hourly housekeeping: event retention, idempotency window */
  housekeeping(): Promise<void>
}

/** Composition root: wires the store, clock, providers, services and routes. No I/O of its own. */
export async function buildApp(opts: {
  store: Store
  urls: {baseUrl: string; checkoutUrl: string}
  log: (line: string) => void
  providers?: Map<string, ProviderConnection>
  /** convert every settlement to this currency before paying out (§2 money rule 6); null: one payout per currency */
  payoutCurrency?: string | null
}): Promise<App> {
  const offset = Number((await opts.store.getSetting('clock_offset_ms')) ?? '0')
  const clock = new OffsetClock(offset)
  const kernel = new Kernel(opts.store, clock, new RandomIds(), opts.urls, opts.log)
  const providerState = new ProviderStateCache()
  await providerState.load(opts.store, PROVIDERS.map((p) => p.id), clock.now())
  kernel.onCommit(providerState.onCommit)

  let rulesCache: RoutingRule[] | undefined
  kernel.onCommit((cs) => {
    if (cs.puts?.some((p) => p.kind === 'routing_rule') || cs.deletes?.some((d) => d.kind === 'routing_rule')) rulesCache = undefined
  })
  const rules = async () => (rulesCache ??= await opts.store.all<RoutingRule & {created_at: string}>('routing_rule'))

  const providers = opts.providers ?? createSimulatedProviders()
  const payments = new PaymentsService(kernel, providers, providerState, rules)
  const customers = new CustomersService(kernel)
  const events = new EventsService(kernel)
  const webhooks = await new WebhooksService(kernel).init()
  const housekeeping = () => events.purge()
  const admin = new AdminService(kernel, clock, providerState, payments, housekeeping)
  const merchants = new MerchantsService(kernel)

  const r = new Router()
  r.get('/payments', (c) => payments.list(c))
    .post('/payments', (c) => payments.create(c))
    .get('/payments/:id', (c) => payments.retrieve(c))
    .post('/payments/:id/confirm', (c) => payments.confirm(c))
    .post('/payments/:id/capture', (c) => payments.capture(c))
    .post('/payments/:id/increment_authorization', (c) => payments.increment(c))
    .post('/payments/:id/cancel', (c) => payments.cancel(c))
    .get('/customers', (c) => customers.list(c))
    .post('/customers', (c) => customers.create(c))
    .get('/customers/:id', (c) => customers.retrieve(c))
    .post('/customers/:id', (c) => customers.update(c))
    .delete('/customers/:id', (c) => customers.remove(c))
    .get('/payment_methods', (c) => customers.listPaymentMethods(c))
    .post('/payment_methods', (c) => customers.createPaymentMethod(c))
    .get('/payment_methods/:id', (c) => customers.retrievePaymentMethod(c))
    .post('/payment_methods/:id/detach', (c) => customers.detachPaymentMethod(c))
    .get('/events', (c) => events.list(c))
    .get('/events/stream', (c) => events.stream(c))
    .get('/events/:id', (c) => events.retrieve(c))
    .get('/events/:id/deliveries', (c) => webhooks.listEventDeliveries(c))
    .post('/events/:id/resend', (c) => webhooks.resend(c))
    .get('/webhook_endpoints', (c) => webhooks.list(c))
    .post('/webhook_endpoints', (c) => webhooks.create(c))
    .get('/webhook_endpoints/:id', (c) => webhooks.retrieve(c))
    .post('/webhook_endpoints/:id', (c) => webhooks.update(c))
    .delete('/webhook_endpoints/:id', (c) => webhooks.remove(c))
    .post('/webhook_endpoints/:id/rotate_secret', (c) => webhooks.rotateSecret(c))
    .get('/webhook_endpoints/:id/deliveries', (c) => webhooks.listEndpointDeliveries(c))
    .get('/webhook_deliveries/:id', (c) => webhooks.retrieveDelivery(c))
    .get('/providers', (c) => admin.listProviders(c))
    .get('/providers/:id', (c) => admin.retrieveProvider(c))
    .post('/test_helpers/providers/:id/health', (c) => admin.setHealth(c))
    .get('/test_helpers/clock', (c) => admin.getClock(c))
    .post('/test_helpers/clock/advance', (c) => admin.advanceClock(c))
    .post('/test_helpers/payments/:id/action', (c) => admin.paymentAction(c))
    .post('/test_helpers/payments/:id/review', (c) => admin.paymentReview(c))
    .get('/merchants', (c) => merchants.list(c))
    .post('/merchants', (c) => merchants.create(c))
    .get('/merchants/:id', (c) => merchants.retrieve(c))
    .post('/merchants/:id', (c) => merchants.update(c))
    .get('/routing_rules', (c) => merchants.listRules(c))
    .post('/routing_rules', (c) => merchants.createRule(c))
    .get('/routing_rules/:id', (c) => merchants.retrieveRule(c))
    .post('/routing_rules/:id', (c) => merchants.updateRule(c))
    .delete('/routing_rules/:id', (c) => merchants.deleteRule(c))
  const money = await installMoney({kernel, router: r, payments, providers})
  const settlement = new SettlementService(kernel, opts.payoutCurrency ?? null, money.ledger)
  await settlement.init()
  r.get('/settlement_reports', (c) => settlement.listReports(c))
    .get('/settlement_reports/:id', (c) => settlement.retrieveReport(c))
    .get('/payouts', (c) => settlement.listPayouts(c))
    .get('/payouts/:id', (c) => settlement.retrievePayout(c))

  return {kernel, router: r, clock, events, payments, admin, providerState, webhooks, housekeeping, money}
}
