// Typed API client: one method per operation the CLI uses (spec §4, decisions.md).
import type {Account, AccountWithKeys, ApiKey, ApiKeyWithSecret, Balance, Customer, Dispute, ListEnvelope, Payment, PaymentMethod, PaymentRouting, Payout, Refund, RoutingDecision, SettlementReport, Snapshot, SnapshotLoad, TestClock} from '../api/types.js'
import {HttpClient, type ClientOptions, type Query} from './http.js'
import type {GwEvent, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookReplay} from '../api/types.js'
import type {CheckoutSession, CheckoutSessionPay, ChaosRule, Deleted, Merchant, Provider, ProviderStatus, RoutingRule} from '../api/types.js'
import type {
  ActionOutcome,
  CapturePaymentParams,
  ConfirmPaymentParams,
  CreateAccountParams,
  CreateApiKeyParams,
  CreateChaosApiFaultParams,
  CreateChaosProviderFaultParams,
  CreateChaosWebhookFaultParams,
  CreateCheckoutSessionParams,
  CreateCustomerParams,
  CreateMerchantParams,
  CreatePaymentMethodParams,
  CreatePaymentParams,
  CreateRefundParams,
  CreateRoutingRuleParams,
  CreateWebhookEndpointParams,
  DisputeOutcome,
  ListAccountsParams,
  ListApiKeysParams,
  ListCheckoutSessionsParams,
  ListCustomersParams,
  ListDisputesParams,
  ListEventDeliveriesParams,
  ListEventsParams,
  ListMerchantsParams,
  ListPaymentMethodsParams,
  ListPaymentsParams,
  ListPayoutsParams,
  ListProvidersParams,
  ListRefundsParams,
  ListRoutingRulesParams,
  ListSettlementReportsParams,
  ListWebhookEndpointDeliveriesParams,
  ListWebhookEndpointsParams,
  ReplayWebhookEndpointParams,
  ResendEventParams,
  ReviewDecision,
  RollApiKeyParams,
  SimulateRoutingParams,
  SubmitDisputeEvidenceParams,
  TestCreateDisputeParams,
  TestSetClockParams,
  UpdateAccountParams,
  UpdateCustomerParams,
  UpdateMerchantParams,
  UpdateRoutingRuleParams,
  UpdateWebhookEndpointParams,
} from './params.js'

export {ApiError, NetworkError} from './errors.js'
export {HttpClient, type ClientOptions, type Query, type RequestOptions, type ApiResponse, type Method} from './http.js'
export type * from './params.js'

/** Options of every POST: the Idempotency-Key to send (default a new one per call, reused by its retries). */
export type PostOpts = {idempotencyKey?: string}
const enc = encodeURIComponent
const q = (p: object): Query => p as Query

export class GwClient extends HttpClient {
  constructor(opts: ClientOptions) {
    super(opts)
  }

  /** hosted checkout sessions (issue 28) */
  readonly checkout = {
    create: (body: CreateCheckoutSessionParams, o?: PostOpts) => this.post<CheckoutSession>('/checkout_sessions', body, o),
    list: (params: ListCheckoutSessionsParams = {}) => this.get<ListEnvelope<CheckoutSession>>('/checkout_sessions', q(params)),
    iterate: (params: ListCheckoutSessionsParams = {}, max?: number) => this.paginate<CheckoutSession>('/checkout_sessions', q(params), {max}),
    get: (id: string) => this.get<CheckoutSession>(`/checkout_sessions/${enc(id)}`),
    expire: (id: string, o?: PostOpts) => this.post<CheckoutSession>(`/checkout_sessions/${enc(id)}/expire`, {}, o),
    /** one try at paying an open session with a saved card (issue 36): the payment it made; a decline throws a card_error and leaves the session open */
    pay: (id: string, body: CheckoutSessionPay, o?: PostOpts) => this.post<Payment>(`/checkout_sessions/${enc(id)}/pay`, body, o),
  }

  readonly payments = {
    create: (body: CreatePaymentParams, o?: PostOpts) => this.post<Payment>('/payments', body, o),
    list: (params: ListPaymentsParams = {}) => this.get<ListEnvelope<Payment>>('/payments', q(params)),
    iterate: (params: ListPaymentsParams = {}, max?: number) => this.paginate<Payment>('/payments', q(params), {max}),
    get: (id: string) => this.get<Payment>(`/payments/${enc(id)}`),
    confirm: (id: string, body: ConfirmPaymentParams = {}, o?: PostOpts) =>
      this.post<Payment>(`/payments/${enc(id)}/confirm`, body, o),
    capture: (id: string, body: CapturePaymentParams = {}, o?: PostOpts) =>
      this.post<Payment>(`/payments/${enc(id)}/capture`, body, o),
    incrementAuthorization: (id: string, amount: number, o?: PostOpts) =>
      this.post<Payment>(`/payments/${enc(id)}/increment_authorization`, {amount}, o),
    cancel: (id: string, o?: PostOpts) => this.post<Payment>(`/payments/${enc(id)}/cancel`, {}, o),
    /** every routing pass as it was decided, and every attempt with its decline class */
    routing: (id: string) => this.get<PaymentRouting>(`/payments/${enc(id)}/routing`),
  }

  readonly routing = {
    /** the decision routing would make now for a payment like this; creates nothing */
    simulate: (params: SimulateRoutingParams) => this.get<RoutingDecision>('/routing/simulate', q(params)),
  }

  readonly accounts = {
    /** the account of the key in use */
    current: () => this.get<Account>('/account'),
    create: (body: CreateAccountParams, o?: PostOpts) => this.post<AccountWithKeys>('/accounts', body, o),
    list: (params: ListAccountsParams = {}) => this.get<ListEnvelope<Account>>('/accounts', q(params)),
    iterate: (params: ListAccountsParams = {}, max?: number) => this.paginate<Account>('/accounts', q(params), {max}),
    get: (id: string) => this.get<Account>(`/accounts/${enc(id)}`),
    update: (id: string, body: UpdateAccountParams, o?: PostOpts) => this.post<Account>(`/accounts/${enc(id)}`, body, o),
    delete: (id: string) => this.delete<Deleted<'account'>>(`/accounts/${enc(id)}`),
  }

  readonly apiKeys = {
    /** the key in use */
    self: () => this.get<ApiKey>('/api_keys/self'),
    create: (body: CreateApiKeyParams, o?: PostOpts) => this.post<ApiKeyWithSecret>('/api_keys', body, o),
    list: (params: ListApiKeysParams = {}) => this.get<ListEnvelope<ApiKey>>('/api_keys', q(params)),
    iterate: (params: ListApiKeysParams = {}, max?: number) => this.paginate<ApiKey>('/api_keys', q(params), {max}),
    get: (id: string) => this.get<ApiKey>(`/api_keys/${enc(id)}`),
    roll: (id: string, body: RollApiKeyParams = {}, o?: PostOpts) => this.post<ApiKeyWithSecret>(`/api_keys/${enc(id)}/roll`, body, o),
    revoke: (id: string, o?: PostOpts) => this.post<ApiKey>(`/api_keys/${enc(id)}/revoke`, {}, o),
  }

  readonly customers = {
    create: (body: CreateCustomerParams, o?: PostOpts) => this.post<Customer>('/customers', body, o),
    list: (params: ListCustomersParams = {}) => this.get<ListEnvelope<Customer>>('/customers', q(params)),
    iterate: (params: ListCustomersParams = {}, max?: number) => this.paginate<Customer>('/customers', q(params), {max}),
    get: (id: string) => this.get<Customer>(`/customers/${enc(id)}`),
    update: (id: string, body: UpdateCustomerParams, o?: PostOpts) => this.post<Customer>(`/customers/${enc(id)}`, body, o),
    delete: (id: string) => this.delete<Deleted<'customer'>>(`/customers/${enc(id)}`),
  }

  readonly providers = {
    list: (params: ListProvidersParams = {}) => this.get<ListEnvelope<Provider>>('/providers', q(params)),
    iterate: (params: ListProvidersParams = {}, max?: number) => this.paginate<Provider>('/providers', q(params), {max}),
    get: (id: string) => this.get<Provider>(`/providers/${enc(id)}`),
    /** Test helper: force a provider's health status. */
    setHealth: (id: string, status: ProviderStatus, o?: PostOpts) =>
      this.post<Provider>(`/test_helpers/providers/${enc(id)}/health`, {status}, o),
  }

  readonly merchants = {
    create: (body: CreateMerchantParams, o?: PostOpts) => this.post<Merchant>('/merchants', body, o),
    list: (params: ListMerchantsParams = {}) => this.get<ListEnvelope<Merchant>>('/merchants', q(params)),
    iterate: (params: ListMerchantsParams = {}, max?: number) => this.paginate<Merchant>('/merchants', q(params), {max}),
    get: (id: string) => this.get<Merchant>(`/merchants/${enc(id)}`),
    update: (id: string, body: UpdateMerchantParams, o?: PostOpts) => this.post<Merchant>(`/merchants/${enc(id)}`, body, o),
  }

  readonly routingRules = {
    create: (body: CreateRoutingRuleParams, o?: PostOpts) => this.post<RoutingRule>('/routing_rules', body, o),
    list: (params: ListRoutingRulesParams = {}) => this.get<ListEnvelope<RoutingRule>>('/routing_rules', q(params)),
    iterate: (params: ListRoutingRulesParams = {}, max?: number) => this.paginate<RoutingRule>('/routing_rules', q(params), {max}),
    get: (id: string) => this.get<RoutingRule>(`/routing_rules/${enc(id)}`),
    update: (id: string, body: UpdateRoutingRuleParams, o?: PostOpts) => this.post<RoutingRule>(`/routing_rules/${enc(id)}`, body, o),
    delete: (id: string) => this.delete<Deleted<'routing_rule'>>(`/routing_rules/${enc(id)}`),
  }

  readonly refunds = {
    create: (body: CreateRefundParams, o?: PostOpts) => this.post<Refund>('/refunds', body, o),
    list: (params: ListRefundsParams = {}) => this.get<ListEnvelope<Refund>>('/refunds', q(params)),
    iterate: (params: ListRefundsParams = {}, max?: number) => this.paginate<Refund>('/refunds', q(params), {max}),
    get: (id: string) => this.get<Refund>(`/refunds/${enc(id)}`),
  }

  readonly disputes = {
    list: (params: ListDisputesParams = {}) => this.get<ListEnvelope<Dispute>>('/disputes', q(params)),
    iterate: (params: ListDisputesParams = {}, max?: number) => this.paginate<Dispute>('/disputes', q(params), {max}),
    get: (id: string) => this.get<Dispute>(`/disputes/${enc(id)}`),
    submitEvidence: (id: string, body: SubmitDisputeEvidenceParams, o?: PostOpts) => this.post<Dispute>(`/disputes/${enc(id)}/evidence`, body, o),
    accept: (id: string, o?: PostOpts) => this.post<Dispute>(`/disputes/${enc(id)}/accept`, undefined, o),
  }

  readonly balance = {
    get: () => this.get<Balance>('/balance'),
  }

  readonly settlementReports = {
    list: (params: ListSettlementReportsParams = {}) => this.get<ListEnvelope<SettlementReport>>('/settlement_reports', q(params)),
    iterate: (params: ListSettlementReportsParams = {}, max?: number) =>
      this.paginate<SettlementReport>('/settlement_reports', q(params), {max}),
    get: (id: string) => this.get<SettlementReport>(`/settlement_reports/${enc(id)}`),
    /** the report as CSV (Accept: text/csv), one row per line, each with the payment reference */
    csv: async (id: string) =>
      String((await this.request<string>('GET', `/settlement_reports/${enc(id)}`, {headers: {accept: 'text/csv'}})).data ?? ''),
  }

  readonly payouts = {
    list: (params: ListPayoutsParams = {}) => this.get<ListEnvelope<Payout>>('/payouts', q(params)),
    iterate: (params: ListPayoutsParams = {}, max?: number) => this.paginate<Payout>('/payouts', q(params), {max}),
    get: (id: string) => this.get<Payout>(`/payouts/${enc(id)}`),
  }

  readonly paymentMethods = {
    create: (body: CreatePaymentMethodParams, o?: PostOpts) => this.post<PaymentMethod>('/payment_methods', body, o),
    list: (params: ListPaymentMethodsParams = {}) =>
      this.get<ListEnvelope<PaymentMethod>>('/payment_methods', q(params)),
    iterate: (params: ListPaymentMethodsParams = {}, max?: number) =>
      this.paginate<PaymentMethod>('/payment_methods', q(params), {max}),
    get: (id: string) => this.get<PaymentMethod>(`/payment_methods/${enc(id)}`),
    detach: (id: string, o?: PostOpts) => this.post<PaymentMethod>(`/payment_methods/${enc(id)}/detach`, {}, o),
  }

  /** Failures on purpose (issue 29): faults this account switched on to rehearse (test keys). */
  readonly chaos = {
    addApiFault: (body: CreateChaosApiFaultParams, o?: PostOpts) => this.post<ChaosRule>('/chaos/api', body, o),
    addProviderFault: (body: CreateChaosProviderFaultParams, o?: PostOpts) => this.post<ChaosRule>('/chaos/providers', body, o),
    addWebhookFault: (body: CreateChaosWebhookFaultParams, o?: PostOpts) => this.post<ChaosRule>('/chaos/webhooks', body, o),
    list: () => this.get<ListEnvelope<ChaosRule>>('/chaos'),
    clear: () => this.delete<ListEnvelope<ChaosRule>>('/chaos'),
    end: (id: string) => this.delete<ChaosRule>(`/chaos/${enc(id)}`),
  }

  readonly testHelpers = {
    paymentAction: (id: string, outcome: ActionOutcome, o?: PostOpts) =>
      this.post<Payment>(`/test_helpers/payments/${enc(id)}/action`, {outcome}, o),
    paymentReview: (id: string, decision: ReviewDecision, o?: PostOpts) =>
      this.post<Payment>(`/test_helpers/payments/${enc(id)}/review`, {decision}, o),
    clock: () => this.get<TestClock>('/test_helpers/clock'),
    setClock: (body: TestSetClockParams, o?: PostOpts) => this.post<TestClock>('/test_helpers/clock', body, o),
    /** includeSecrets: the signing secrets and card numbers too (sensitive; a secret key only) */
    saveSnapshot: (o: {includeSecrets?: boolean} = {}) => this.get<Snapshot>('/test_helpers/snapshot', o.includeSecrets ? {include_secrets: true} : undefined),
    loadSnapshot: (snapshot: unknown, o?: PostOpts) => this.post<SnapshotLoad>('/test_helpers/snapshot', snapshot, o),
    advanceClock: (seconds: number, o?: PostOpts & {wait?: boolean}) => this.post<TestClock>('/test_helpers/clock/advance', o?.wait ? {seconds, wait: true} : {seconds}, o),
    createDispute: (body: TestCreateDisputeParams, o?: PostOpts) => this.post<Dispute>('/test_helpers/disputes', body, o),
    resolveDispute: (id: string, outcome: DisputeOutcome, o?: PostOpts) =>
      this.post<Dispute>(`/test_helpers/disputes/${enc(id)}/resolve`, {outcome}, o),
  }

  readonly events = {
    list: (params: ListEventsParams = {}) => this.get<ListEnvelope<GwEvent>>('/events', q(params)),
    iterate: (params: ListEventsParams = {}, max?: number) => this.paginate<GwEvent>('/events', q(params), {max}),
    get: (id: string) => this.get<GwEvent>(`/events/${enc(id)}`),
    /** new deliveries of the event: to one endpoint, or to every enabled endpoint subscribed to its type */
    resend: (id: string, body: ResendEventParams = {}, o?: PostOpts) =>
      this.post<ListEnvelope<WebhookDelivery>>(`/events/${enc(id)}/resend`, body, o),
    deliveries: (id: string, params: ListEventDeliveriesParams = {}) =>
      this.get<ListEnvelope<WebhookDelivery>>(`/events/${enc(id)}/deliveries`, q(params)),
    iterateDeliveries: (id: string, params: ListEventDeliveriesParams = {}, max?: number) =>
      this.paginate<WebhookDelivery>(`/events/${enc(id)}/deliveries`, q(params), {max}),
  }

  readonly webhookDeliveries = {
    get: (id: string) => this.get<WebhookDelivery>(`/webhook_deliveries/${enc(id)}`),
  }

  /** GET /openapi.json: the API's OpenAPI 3.1 document (public: served without checking the key) */
  openapi(): Promise<Record<string, unknown>> {
    return this.get<Record<string, unknown>>('/openapi.json')
  }

  readonly webhookEndpoints = {
    create: (body: CreateWebhookEndpointParams, o?: PostOpts) => this.post<WebhookEndpointWithSecret>('/webhook_endpoints', body, o),
    list: (params: ListWebhookEndpointsParams = {}) => this.get<ListEnvelope<WebhookEndpoint>>('/webhook_endpoints', q(params)),
    iterate: (params: ListWebhookEndpointsParams = {}, max?: number) => this.paginate<WebhookEndpoint>('/webhook_endpoints', q(params), {max}),
    get: (id: string) => this.get<WebhookEndpoint>(`/webhook_endpoints/${enc(id)}`),
    update: (id: string, body: UpdateWebhookEndpointParams, o?: PostOpts) => this.post<WebhookEndpoint>(`/webhook_endpoints/${enc(id)}`, body, o),
    delete: (id: string) => this.delete<{id: string; object: 'webhook_endpoint'; deleted: boolean}>(`/webhook_endpoints/${enc(id)}`),
    replay: (id: string, body: ReplayWebhookEndpointParams, o?: PostOpts) => this.post<WebhookReplay>(`/webhook_endpoints/${enc(id)}/replay`, body, o),
    rotateSecret: (id: string, o?: PostOpts & {expiresIn?: number}) =>
      this.post<WebhookEndpointWithSecret>(`/webhook_endpoints/${enc(id)}/rotate_secret`, o?.expiresIn === undefined ? {} : {expires_in: o.expiresIn}, o),
    deliveries: (id: string, params: ListWebhookEndpointDeliveriesParams = {}) =>
      this.get<ListEnvelope<WebhookDelivery>>(`/webhook_endpoints/${enc(id)}/deliveries`, q(params)),
  }
}
