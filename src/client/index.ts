// Typed API client: one method per operation the CLI uses (spec §4, decisions.md).
import type {Customer, ListEnvelope, Payment, PaymentMethod, TestClock} from '../api/types.js'
import {HttpClient, type ClientOptions, type Query} from './http.js'
import type {
  ActionOutcome,
  CreateCustomerParams,
  CreatePaymentMethodParams,
  CreatePaymentParams,
  ListParams,
  ListPaymentMethodsParams,
  ListPaymentsParams,
  ReviewDecision,
} from './params.js'

export {ApiError, NetworkError} from './errors.js'
export {HttpClient, type ClientOptions, type Query, type RequestOptions, type ApiResponse, type Method} from './http.js'
export type * from './params.js'

type PostOpts = {idempotencyKey?: string}
const enc = encodeURIComponent
const q = (p: object): Query => p as Query

export class GwClient extends HttpClient {
  constructor(opts: ClientOptions) {
    super(opts)
  }

  readonly payments = {
    create: (body: CreatePaymentParams, o?: PostOpts) => this.post<Payment>('/payments', body, o),
    list: (params: ListPaymentsParams = {}) => this.get<ListEnvelope<Payment>>('/payments', q(params)),
    iterate: (params: ListPaymentsParams = {}, max?: number) => this.paginate<Payment>('/payments', q(params), {max}),
    get: (id: string) => this.get<Payment>(`/payments/${enc(id)}`),
    confirm: (id: string, body: {payment_method_id?: string} = {}, o?: PostOpts) =>
      this.post<Payment>(`/payments/${enc(id)}/confirm`, body, o),
    capture: (id: string, body: {amount?: number} = {}, o?: PostOpts) =>
      this.post<Payment>(`/payments/${enc(id)}/capture`, body, o),
    incrementAuthorization: (id: string, amount: number, o?: PostOpts) =>
      this.post<Payment>(`/payments/${enc(id)}/increment_authorization`, {amount}, o),
    cancel: (id: string, o?: PostOpts) => this.post<Payment>(`/payments/${enc(id)}/cancel`, {}, o),
  }

  readonly customers = {
    create: (body: CreateCustomerParams, o?: PostOpts) => this.post<Customer>('/customers', body, o),
    list: (params: ListParams = {}) => this.get<ListEnvelope<Customer>>('/customers', q(params)),
    iterate: (params: ListParams = {}, max?: number) => this.paginate<Customer>('/customers', q(params), {max}),
    get: (id: string) => this.get<Customer>(`/customers/${enc(id)}`),
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

  readonly testHelpers = {
    paymentAction: (id: string, outcome: ActionOutcome, o?: PostOpts) =>
      this.post<Payment>(`/test_helpers/payments/${enc(id)}/action`, {outcome}, o),
    paymentReview: (id: string, decision: ReviewDecision, o?: PostOpts) =>
      this.post<Payment>(`/test_helpers/payments/${enc(id)}/review`, {decision}, o),
    clock: () => this.get<TestClock>('/test_helpers/clock'),
    advanceClock: (seconds: number, o?: PostOpts) => this.post<TestClock>('/test_helpers/clock/advance', {seconds}, o),
  }
}
