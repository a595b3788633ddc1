// The SDK (package export `gw`): the API client the CLI itself uses, for a merchant's Node code.
// One method per operation, grouped by resource (gateway.payments.create, .refunds.list, ...);
// an Idempotency-Key on every POST, reused by its retries; 429 and 503 retried for a budget with
// Retry-After, other 5xx and lost connections a few times; typed errors (ApiError with type,
// code, param, request_id; NetworkError); `iterate` pages through any list with `for await`.
// Loads no oclif, Ink or engine code.
import {verifySignature, type Payload, type VerifiedSignature, type VerifyOptions} from './api/webhook-signature.js'
import {GwClient} from './client/index.js'
import type {ClientOptions} from './client/http.js'

export interface GatewayOptions extends Omit<ClientOptions, 'apiKey' | 'baseUrl'> {
  /** e.g. https://127.0.0.1:8443/v1, or what startGateway() / gw serve --json gave */
  baseUrl: string
  /** a secret or restricted key (sk_test_..., rk_test_...) */
  apiKey: string
}

export class Gateway extends GwClient {
  constructor(opts: GatewayOptions) {
    super({userAgent: 'gw-sdk', ...opts})
  }

  /** Webhook helpers: verify a delivery's signature (the raw body, the Service-Signature header, the endpoint's secret or secrets). */
  readonly webhooks = {
    verify: (payload: Payload, header: string | string[] | undefined, secret: string | readonly string[], opts: Omit<VerifyOptions, 'payload' | 'header' | 'secret'> = {}): VerifiedSignature =>
      verifySignature({...opts, payload, header, secret}),
  }
}
