// Typed API client: one method per operation the CLI uses (docs/api.md#openapi-contract), each calling
// the operation by its operationId: its method and path are the OpenAPI document's
// (OPERATION_PATHS in src/api/contract.gen.ts, generated from it).
import {OPERATION_PATHS} from '../api/contract.gen.js'
import type {OperationId} from '../api/types.js'
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

/** What a call of an operation sends: the `{id}` of its path, its query, its body. */
interface Call {
  id?: string
  query?: object
  body?: unknown
}

const METHOD = {get: 'GET', post: 'POST', delete: 'DELETE'} as const

/** The path of an operation, as the document writes it, with its `{id}` filled in (encoded). */
export function operationPath(op: OperationId, id?: string): string {
  const path: string = OPERATION_PATHS[op][1]
  return id === undefined ? path : path.replace('{id}', encodeURIComponent(id))
}

export class GwClient extends HttpClient {
  constructor(opts: ClientOptions) {
    super(opts)
  }

  /** Operation `op` of the document, by its method and path; a POST with `o`'s Idempotency-Key (one is made when absent). */
  private async call<T>(op: OperationId, c: Call = {}, o: PostOpts = {}): Promise<T> {
    return (await this.request<T>(METHOD[OPERATION_PATHS[op][0]], operationPath(op, c.id), {query: c.query as Query | undefined, body: c.body, idempotencyKey: o.idempotencyKey})).data
  }

  /** Every item of list operation `op` (of the object `id`, for a list below one), page after page. */
  private pages<T extends {id: string}>(op: OperationId, params: object, max?: number, id?: string): AsyncGenerator<T, void, undefined> {
    return this.paginate<T>(operationPath(op, id), params as Query, {max})
  }

  /** hosted checkout sessions (docs/api.md#hosted-checkout-sessions) */
  readonly checkout = {
    create: (body: CreateCheckoutSessionParams, o?: PostOpts) => this.call<CheckoutSession>('createCheckoutSession', {body}, o),
    list: (params: ListCheckoutSessionsParams = {}) => this.call<ListEnvelope<CheckoutSession>>('listCheckoutSessions', {query: params}),
    iterate: (params: ListCheckoutSessionsParams = {}, max?: number) => this.pages<CheckoutSession>('listCheckoutSessions', params, max),
    get: (id: string) => this.call<CheckoutSession>('retrieveCheckoutSession', {id}),
    expire: (id: string, o?: PostOpts) => this.call<CheckoutSession>('expireCheckoutSession', {id, body: {}}, o),
    /** one try at paying an open session with a saved card: the payment it made; a decline throws a card_error and leaves the session open */
    pay: (id: string, body: CheckoutSessionPay, o?: PostOpts) => this.call<Payment>('payCheckoutSession', {id, body}, o),
  }

  readonly payments = {
    create: (body: CreatePaymentParams, o?: PostOpts) => this.call<Payment>('createPayment', {body}, o),
    list: (params: ListPaymentsParams = {}) => this.call<ListEnvelope<Payment>>('listPayments', {query: params}),
    iterate: (params: ListPaymentsParams = {}, max?: number) => this.pages<Payment>('listPayments', params, max),
    get: (id: string) => this.call<Payment>('retrievePayment', {id}),
    confirm: (id: string, body: ConfirmPaymentParams = {}, o?: PostOpts) =>
      this.call<Payment>('confirmPayment', {id, body}, o),
    capture: (id: string, body: CapturePaymentParams = {}, o?: PostOpts) =>
      this.call<Payment>('capturePayment', {id, body}, o),
    incrementAuthorization: (id: string, amount: number, o?: PostOpts) =>
      this.call<Payment>('incrementAuthorization', {id, body: {amount}}, o),
    cancel: (id: string, o?: PostOpts) => this.call<Payment>('cancelPayment', {id, body: {}}, o),
    /** every routing pass as it was decided, and every attempt with its decline class */
    routing: (id: string) => this.call<PaymentRouting>('retrievePaymentRouting', {id}),
  }

  readonly routing = {
    /** the decision routing would make now for a payment like this; creates nothing */
    simulate: (params: SimulateRoutingParams) => this.call<RoutingDecision>('simulateRouting', {query: params}),
  }

  readonly accounts = {
    /** the account of the key in use */
    current: () => this.call<Account>('retrieveCurrentAccount'),
    create: (body: CreateAccountParams, o?: PostOpts) => this.call<AccountWithKeys>('createAccount', {body}, o),
    list: (params: ListAccountsParams = {}) => this.call<ListEnvelope<Account>>('listAccounts', {query: params}),
    iterate: (params: ListAccountsParams = {}, max?: number) => this.pages<Account>('listAccounts', params, max),
    get: (id: string) => this.call<Account>('retrieveAccount', {id}),
    update: (id: string, body: UpdateAccountParams, o?: PostOpts) => this.call<Account>('updateAccount', {id, body}, o),
    delete: (id: string) => this.call<Deleted<'account'>>('deleteAccount', {id}),
  }

  readonly apiKeys = {
    /** the key in use */
    self: () => this.call<ApiKey>('retrieveCurrentApiKey'),
    create: (body: CreateApiKeyParams, o?: PostOpts) => this.call<ApiKeyWithSecret>('createApiKey', {body}, o),
    list: (params: ListApiKeysParams = {}) => this.call<ListEnvelope<ApiKey>>('listApiKeys', {query: params}),
    iterate: (params: ListApiKeysParams = {}, max?: number) => this.pages<ApiKey>('listApiKeys', params, max),
    get: (id: string) => this.call<ApiKey>('retrieveApiKey', {id}),
    roll: (id: string, body: RollApiKeyParams = {}, o?: PostOpts) => this.call<ApiKeyWithSecret>('rollApiKey', {id, body}, o),
    revoke: (id: string, o?: PostOpts) => this.call<ApiKey>('revokeApiKey', {id, body: {}}, o),
  }

  readonly customers = {
    create: (body: CreateCustomerParams, o?: PostOpts) => this.call<Customer>('createCustomer', {body}, o),
    list: (params: ListCustomersParams = {}) => this.call<ListEnvelope<Customer>>('listCustomers', {query: params}),
    iterate: (params: ListCustomersParams = {}, max?: number) => this.pages<Customer>('listCustomers', params, max),
    get: (id: string) => this.call<Customer>('retrieveCustomer', {id}),
    update: (id: string, body: UpdateCustomerParams, o?: PostOpts) => this.call<Customer>('updateCustomer', {id, body}, o),
    delete: (id: string) => this.call<Deleted<'customer'>>('deleteCustomer', {id}),
  }

  readonly providers = {
    list: (params: ListProvidersParams = {}) => this.call<ListEnvelope<Provider>>('listProviders', {query: params}),
    iterate: (params: ListProvidersParams = {}, max?: number) => this.pages<Provider>('listProviders', params, max),
    get: (id: string) => this.call<Provider>('retrieveProvider', {id}),
    /** Test helper: force a provider's health status. */
    setHealth: (id: string, status: ProviderStatus, o?: PostOpts) =>
      this.call<Provider>('testSetProviderHealth', {id, body: {status}}, o),
  }

  readonly merchants = {
    create: (body: CreateMerchantParams, o?: PostOpts) => this.call<Merchant>('createMerchant', {body}, o),
    list: (params: ListMerchantsParams = {}) => this.call<ListEnvelope<Merchant>>('listMerchants', {query: params}),
    iterate: (params: ListMerchantsParams = {}, max?: number) => this.pages<Merchant>('listMerchants', params, max),
    get: (id: string) => this.call<Merchant>('retrieveMerchant', {id}),
    update: (id: string, body: UpdateMerchantParams, o?: PostOpts) => this.call<Merchant>('updateMerchant', {id, body}, o),
  }

  readonly routingRules = {
    create: (body: CreateRoutingRuleParams, o?: PostOpts) => this.call<RoutingRule>('createRoutingRule', {body}, o),
    list: (params: ListRoutingRulesParams = {}) => this.call<ListEnvelope<RoutingRule>>('listRoutingRules', {query: params}),
    iterate: (params: ListRoutingRulesParams = {}, max?: number) => this.pages<RoutingRule>('listRoutingRules', params, max),
    get: (id: string) => this.call<RoutingRule>('retrieveRoutingRule', {id}),
    update: (id: string, body: UpdateRoutingRuleParams, o?: PostOpts) => this.call<RoutingRule>('updateRoutingRule', {id, body}, o),
    delete: (id: string) => this.call<Deleted<'routing_rule'>>('deleteRoutingRule', {id}),
  }

  readonly refunds = {
    create: (body: CreateRefundParams, o?: PostOpts) => this.call<Refund>('createRefund', {body}, o),
    list: (params: ListRefundsParams = {}) => this.call<ListEnvelope<Refund>>('listRefunds', {query: params}),
    iterate: (params: ListRefundsParams = {}, max?: number) => this.pages<Refund>('listRefunds', params, max),
    get: (id: string) => this.call<Refund>('retrieveRefund', {id}),
  }

  readonly disputes = {
    list: (params: ListDisputesParams = {}) => this.call<ListEnvelope<Dispute>>('listDisputes', {query: params}),
    iterate: (params: ListDisputesParams = {}, max?: number) => this.pages<Dispute>('listDisputes', params, max),
    get: (id: string) => this.call<Dispute>('retrieveDispute', {id}),
    submitEvidence: (id: string, body: SubmitDisputeEvidenceParams, o?: PostOpts) => this.call<Dispute>('submitDisputeEvidence', {id, body}, o),
    accept: (id: string, o?: PostOpts) => this.call<Dispute>('acceptDispute', {id}, o),
  }

  readonly balance = {
    get: () => this.call<Balance>('retrieveBalance'),
  }

  readonly settlementReports = {
    list: (params: ListSettlementReportsParams = {}) => this.call<ListEnvelope<SettlementReport>>('listSettlementReports', {query: params}),
    iterate: (params: ListSettlementReportsParams = {}, max?: number) =>
      this.pages<SettlementReport>('listSettlementReports', params, max),
    get: (id: string) => this.call<SettlementReport>('retrieveSettlementReport', {id}),
    /** the report as CSV (Accept: text/csv), one row per line, each with the payment reference */
    csv: async (id: string) =>
      String((await this.request<string>('GET', operationPath('retrieveSettlementReport', id), {headers: {accept: 'text/csv'}})).data ?? ''),
  }

  readonly payouts = {
    list: (params: ListPayoutsParams = {}) => this.call<ListEnvelope<Payout>>('listPayouts', {query: params}),
    iterate: (params: ListPayoutsParams = {}, max?: number) => this.pages<Payout>('listPayouts', params, max),
    get: (id: string) => this.call<Payout>('retrievePayout', {id}),
  }

  readonly paymentMethods = {
    create: (body: CreatePaymentMethodParams, o?: PostOpts) => this.call<PaymentMethod>('createPaymentMethod', {body}, o),
    list: (params: ListPaymentMethodsParams = {}) =>
      this.call<ListEnvelope<PaymentMethod>>('listPaymentMethods', {query: params}),
    iterate: (params: ListPaymentMethodsParams = {}, max?: number) =>
      this.pages<PaymentMethod>('listPaymentMethods', params, max),
    get: (id: string) => this.call<PaymentMethod>('retrievePaymentMethod', {id}),
    detach: (id: string, o?: PostOpts) => this.call<PaymentMethod>('detachPaymentMethod', {id, body: {}}, o),
  }

  /** Failures on purpose (docs/decisions.md#failure-on-purpose): faults this account switched on to rehearse (test keys). */
  readonly chaos = {
    addApiFault: (body: CreateChaosApiFaultParams, o?: PostOpts) => this.call<ChaosRule>('createChaosApiFault', {body}, o),
    addProviderFault: (body: CreateChaosProviderFaultParams, o?: PostOpts) => this.call<ChaosRule>('createChaosProviderFault', {body}, o),
    addWebhookFault: (body: CreateChaosWebhookFaultParams, o?: PostOpts) => this.call<ChaosRule>('createChaosWebhookFault', {body}, o),
    list: () => this.call<ListEnvelope<ChaosRule>>('listChaos'),
    clear: () => this.call<ListEnvelope<ChaosRule>>('clearChaos'),
    end: (id: string) => this.call<ChaosRule>('deleteChaosRule', {id}),
  }

  readonly testHelpers = {
    paymentAction: (id: string, outcome: ActionOutcome, o?: PostOpts) =>
      this.call<Payment>('testPaymentAction', {id, body: {outcome}}, o),
    paymentReview: (id: string, decision: ReviewDecision, o?: PostOpts) =>
      this.call<Payment>('testPaymentReview', {id, body: {decision}}, o),
    clock: () => this.call<TestClock>('testGetClock'),
    setClock: (body: TestSetClockParams, o?: PostOpts) => this.call<TestClock>('testSetClock', {body}, o),
    /** includeSecrets: the signing secrets and card numbers too (sensitive; a secret key only) */
    saveSnapshot: (o: {includeSecrets?: boolean} = {}) => this.call<Snapshot>('testSaveSnapshot', {query: o.includeSecrets ? {include_secrets: true} : undefined}),
    loadSnapshot: (snapshot: unknown, o?: PostOpts) => this.call<SnapshotLoad>('testLoadSnapshot', {body: snapshot}, o),
    advanceClock: (seconds: number, o?: PostOpts & {wait?: boolean}) => this.call<TestClock>('testAdvanceClock', {body: o?.wait ? {seconds, wait: true} : {seconds}}, o),
    createDispute: (body: TestCreateDisputeParams, o?: PostOpts) => this.call<Dispute>('testCreateDispute', {body}, o),
    resolveDispute: (id: string, outcome: DisputeOutcome, o?: PostOpts) =>
      this.call<Dispute>('testResolveDispute', {id, body: {outcome}}, o),
  }

  readonly events = {
    list: (params: ListEventsParams = {}) => this.call<ListEnvelope<GwEvent>>('listEvents', {query: params}),
    iterate: (params: ListEventsParams = {}, max?: number) => this.pages<GwEvent>('listEvents', params, max),
    get: (id: string) => this.call<GwEvent>('retrieveEvent', {id}),
    /** new deliveries of the event: to one endpoint, or to every enabled endpoint subscribed to its type */
    resend: (id: string, body: ResendEventParams = {}, o?: PostOpts) =>
      this.call<ListEnvelope<WebhookDelivery>>('resendEvent', {id, body}, o),
    deliveries: (id: string, params: ListEventDeliveriesParams = {}) =>
      this.call<ListEnvelope<WebhookDelivery>>('listEventDeliveries', {id, query: params}),
    iterateDeliveries: (id: string, params: ListEventDeliveriesParams = {}, max?: number) =>
      this.pages<WebhookDelivery>('listEventDeliveries', params, max, id),
  }

  readonly webhookDeliveries = {
    get: (id: string) => this.call<WebhookDelivery>('retrieveWebhookDelivery', {id}),
  }

  /** GET /openapi.json: the API's OpenAPI 3.1 document (public: served without checking the key) */
  openapi(): Promise<Record<string, unknown>> {
    return this.call<Record<string, unknown>>('getOpenApiDocument')
  }

  readonly webhookEndpoints = {
    create: (body: CreateWebhookEndpointParams, o?: PostOpts) => this.call<WebhookEndpointWithSecret>('createWebhookEndpoint', {body}, o),
    list: (params: ListWebhookEndpointsParams = {}) => this.call<ListEnvelope<WebhookEndpoint>>('listWebhookEndpoints', {query: params}),
    iterate: (params: ListWebhookEndpointsParams = {}, max?: number) => this.pages<WebhookEndpoint>('listWebhookEndpoints', params, max),
    get: (id: string) => this.call<WebhookEndpoint>('retrieveWebhookEndpoint', {id}),
    update: (id: string, body: UpdateWebhookEndpointParams, o?: PostOpts) => this.call<WebhookEndpoint>('updateWebhookEndpoint', {id, body}, o),
    delete: (id: string) => this.call<{id: string; object: 'webhook_endpoint'; deleted: boolean}>('deleteWebhookEndpoint', {id}),
    replay: (id: string, body: ReplayWebhookEndpointParams, o?: PostOpts) => this.call<WebhookReplay>('replayWebhookEndpoint', {id, body}, o),
    rotateSecret: (id: string, o?: PostOpts & {expiresIn?: number}) =>
      this.call<WebhookEndpointWithSecret>('rotateWebhookEndpointSecret', {id, body: o?.expiresIn === undefined ? {} : {expires_in: o.expiresIn}}, o),
    deliveries: (id: string, params: ListWebhookEndpointDeliveriesParams = {}) =>
      this.call<ListEnvelope<WebhookDelivery>>('listWebhookEndpointDeliveries', {id, query: params}),
  }
}
