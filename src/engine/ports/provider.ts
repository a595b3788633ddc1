// ProviderConnection: the one interface behind which every provider sits. The simulated
// providers are its first implementation; a real acquirer connection can be added later.

export type ProviderOutcome = 'approved' | 'declined' | 'soft_declined' | 'timeout' | 'error'

export interface ProviderCardInput {
  brand: string
  last4: string
  /** full PAN in test mode only; used by the simulation to pick test-card behaviour */
  number?: string
  exp_month: number
  exp_year: number
  cvc_provided: boolean
  network_token: boolean
}

export interface AuthorizeRequest {
  payment_id: string
  amount: number
  currency: string
  payment_method: string
  card?: ProviderCardInput
  /** 0 for the first provider tried in this routing pass, 1 for the first failover, ... */
  route_index: number
  /** true when the capture happens with the authorization (automatic capture, single-message rails) */
  capture: boolean
}

export interface ProviderResult {
  outcome: ProviderOutcome
  /** issuer/provider decline code when outcome is declined or soft_declined, else null */
  decline_code: string | null
  /** simulated or measured latency of the call */
  latency_ms: number
}

export interface CaptureRequest {
  payment_id: string
  amount: number
  currency: string
  final: boolean
}

export interface RefundRequest {
  payment_id: string
  refund_id: string
  amount: number
  currency: string
  payment_method: string
  card?: ProviderCardInput
}

export interface ProviderConnection {
  readonly id: string
  authorize(req: AuthorizeRequest): Promise<ProviderResult>
  capture(req: CaptureRequest): Promise<ProviderResult>
  incrementAuthorization(req: {payment_id: string; amount: number; currency: string}): Promise<ProviderResult>
  void(req: {payment_id: string}): Promise<ProviderResult>
  refund(req: RefundRequest): Promise<ProviderResult>
}
