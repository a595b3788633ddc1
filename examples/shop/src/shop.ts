// A small shop server, as a merchant would write it against gw: it creates payments for its
// orders (an Idempotency-Key per order, so a retried checkout never charges twice), sends the
// customer to 3-D Secure when asked, refunds, and learns every outcome from signed webhooks — the
// return from 3-D Secure "only signals that the customer came back" (docs/api.md#payment-lifecycle). Its webhook handler
// verifies signatures and applies each event once, whatever the order or the number of
// deliveries. It imports only the SDK's public entry, `@gw/sdk`.
import {createServer, type Server} from 'node:https'
import {ApiError, Gateway, SignatureVerificationError, verifySignature, type GwEvent, type Payment} from '@gw/sdk'

export type OrderStatus = 'awaiting_payment' | 'paid' | 'payment_failed' | 'refunded' | 'authorization_expired' | 'chargeback_lost' | 'chargeback_won'

export interface Order {
  id: string
  amount: number
  currency: string
  status: OrderStatus
  payment?: string
  /** what the shop did once per event (emails, stock): the duplicates test counts these */
  sideEffects: string[]
}

export interface ShopOptions {
  baseUrl: string
  apiKey: string
  /** the gateway's CA (PEM), when it is not a public one */
  ca?: string
  /** the key and certificate the shop's HTTPS server (its webhook URL) uses */
  tls: {key: string; cert: string}
}

/** How far along an order is: an older event arriving late never moves it back. */
const RANK: Record<OrderStatus, number> = {awaiting_payment: 0, payment_failed: 1, authorization_expired: 1, paid: 2, refunded: 3, chargeback_won: 3, chargeback_lost: 4}

export class Shop {
  readonly orders = new Map<string, Order>()
  private readonly byPayment = new Map<string, string>()
  private readonly seen = new Set<string>()
  private readonly gateway: Gateway
  private server?: Server
  private secret = ''
  webhookUrl = ''

  constructor(private readonly opts: ShopOptions) {
    this.gateway = new Gateway({baseUrl: opts.baseUrl, apiKey: opts.apiKey, ca: opts.ca})
  }

  /** Starts the HTTPS server and registers its webhook endpoint with the gateway. */
  async start(): Promise<this> {
    this.server = createServer({key: this.opts.tls.key, cert: this.opts.tls.cert}, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/webhooks') return void res.writeHead(404).end()
        const status = this.receive(Buffer.concat(chunks).toString('utf8'), req.headers['service-signature'])
        res.writeHead(status).end()
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.webhookUrl = `https://127.0.0.1:${(this.server.address() as {port: number}).port}/webhooks`
    const endpoint = await this.gateway.webhookEndpoints.create({url: this.webhookUrl, enabled_events: ['payment.*', 'refund.*', 'dispute.*']})
    this.secret = endpoint.secret!
    return this
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections()
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)))
    await this.gateway.close()
  }

  /** Checkout: pays an order by card. A retry of the same order replays the first answer (same Idempotency-Key). */
  async checkout(order: {id: string; amount: number; currency: string}, card: {number: string; exp_month: number; exp_year: number; cvc: string}, opts: {capture?: 'automatic' | 'manual'} = {}): Promise<{order: Order; redirect?: string}> {
    const o = this.orders.get(order.id) ?? {...order, status: 'awaiting_payment' as const, sideEffects: []}
    this.orders.set(order.id, o)
    let payment: Payment
    try {
      payment = await this.gateway.payments.create(
        {amount: order.amount, currency: order.currency, payment_method: 'card', payment_method_data: {type: 'card', card}, reference: order.id, capture_method: opts.capture ?? 'automatic', return_url: 'https://shop.example/return'},
        {idempotencyKey: `order-${order.id}`},
      )
    } catch (error) {
      // a decline is an answer, not a crash: the order waits for another card
      if (error instanceof ApiError && error.type === 'card_error') return {order: o}
      throw error
    }
    o.payment = payment.id
    this.byPayment.set(payment.id, order.id)
    return {order: o, redirect: payment.status === 'requires_action' ? payment.next_action?.url ?? undefined : undefined}
  }

  async refund(orderId: string): Promise<void> {
    const o = this.orders.get(orderId)
    if (!o?.payment) throw new Error(`order ${orderId} has no payment`)
    await this.gateway.refunds.create({payment: o.payment}, {idempotencyKey: `refund-${orderId}`})
  }

  /** The webhook handler: 400 for a bad signature, 200 once the event is applied (or was already). */
  receive(raw: string, header: string | string[] | undefined): number {
    try {
      verifySignature({payload: raw, header, secret: this.secret})
    } catch (error) {
      if (error instanceof SignatureVerificationError) return 400
      throw error
    }
    const event = JSON.parse(raw) as GwEvent<{id: string; object: string; payment?: string; status?: string}>
    // at-least-once delivery: an event id applies once
    if (this.seen.has(event.id)) return 200
    this.seen.add(event.id)
    const obj = event.data.object
    const orderId = this.byPayment.get(obj.object === 'payment' ? obj.id : obj.payment ?? '')
    const o = orderId ? this.orders.get(orderId) : undefined
    if (!o) return 200
    const next = this.statusFor(event.type, obj.status)
    // out of order: a late older event never moves the order back
    if (next && RANK[next] >= RANK[o.status] && next !== o.status) {
      o.status = next
      o.sideEffects.push(`${next} (${event.id})`)
    }
    return 200
  }

  private statusFor(type: string, status: string | undefined): OrderStatus | undefined {
    switch (type) {
      case 'payment.succeeded':
        return 'paid'
      case 'payment.failed':
        return 'payment_failed'
      case 'payment.canceled':
        return 'authorization_expired'
      case 'refund.succeeded':
        return 'refunded'
      case 'dispute.closed':
        return status === 'won' ? 'chargeback_won' : 'chargeback_lost'
      default:
        return undefined
    }
  }
}
