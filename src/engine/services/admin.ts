import type {Provider} from '../../api/types.js'
import {fixedFeeTable, PROVIDERS, providerProfile, type ProviderProfile} from '../domain/providers.js'
import {ApiError, invalid, notFound} from '../http/errors.js'
import type {HandlerResult, RequestCtx} from '../http/router.js'
import {pageParams, validate} from '../http/validate.js'
import type {OffsetClock} from '../adapters/system.js'
import {toApi, type Kernel} from '../kernel.js'
import {Draft} from './draft.js'
import {parseInstrument, type PaymentsService} from './payments.js'
import type {HealthStatus, ProviderStateCache} from './provider-state.js'

export const MAX_ADVANCE_S = 400 * 86_400

export function requireTestMode(ctx: RequestCtx): void {
  if (ctx.livemode) throw new ApiError(400, 'invalid_request_error', 'test_mode_only', 'Test helpers work with test keys only.')
}

/** Providers (read-only), provider health and the engine clock (test helpers). */
export class AdminService {
  constructor(
    private k: Kernel,
    private clock: OffsetClock,
    private state: ProviderStateCache,
    private payments: PaymentsService,
    private afterAdvance: () => Promise<void>,
  ) {}

  providerView(p: ProviderProfile): Provider {
    const now = this.k.clock.now()
    const r = this.state.authRate(p.id, now)
    return {
      id: p.id,
      object: 'provider',
      methods: [...p.methods],
      currencies: [...p.currencies],
      regions: [...p.regions],
      status: this.state.getStatus(p.id),
      auth_rate_7d: r.rate === null ? null : Math.round(r.rate * 10_000) / 10_000,
      attempts_7d: r.total,
      fees: {percent_bps: p.fees.percent_bps, fixed: fixedFeeTable(p)},
      latency_ms: {p50: p.latency.p50_ms, p99: p.latency.p99_ms},
      livemode: this.k.livemode,
    }
  }

  async listProviders(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['payment_method', 'currency'])
    const pm = ctx.query.get('payment_method')
    const cur = ctx.query.get('currency')
    const list = PROVIDERS.filter((p) => (pm === null || p.methods.includes(pm)) && (cur === null || p.currencies.includes(cur)))
    let start = 0
    if (page.starting_after) {
      const i = list.findIndex((p) => p.id === page.starting_after)
      if (i < 0) throw invalid('starting_after', `starting_after: no such provider '${page.starting_after}'.`)
      start = i + 1
    }
    let end = list.length
    if (page.ending_before) {
      const i = list.findIndex((p) => p.id === page.ending_before)
      if (i < 0) throw invalid('ending_before', `ending_before: no such provider '${page.ending_before}'.`)
      end = i
      start = Math.max(0, end - page.limit)
    }
    const data = list.slice(start, Math.min(end, start + page.limit)).map((p) => this.providerView(p))
    const has_more = page.ending_before ? start > 0 : start + page.limit < end
    return {status: 200, body: {object: 'list', url: '/v1/providers', data, has_more}}
  }

  async retrieveProvider(ctx: RequestCtx): Promise<HandlerResult> {
    const p = providerProfile(ctx.params.id!)
    if (!p) throw notFound('provider', ctx.params.id!)
    return {status: 200, body: this.providerView(p)}
  }

  async setHealth(ctx: RequestCtx): Promise<HandlerResult> {
    requireTestMode(ctx)
    const b = validate<{status: HealthStatus}>(ctx.body, {
      status: {type: 'string', required: true, enum: ['active', 'degraded', 'disabled']},
    })
    const p = providerProfile(ctx.params.id!)
    if (!p) throw notFound('provider', ctx.params.id!)
    const before = this.state.getStatus(p.id)
    const d = new Draft(this.k, null)
    d.settings[`provider_status:${p.id}`] = b.status
    const view = {...this.providerView(p), status: b.status}
    if (before !== b.status) d.emit('provider.health.changed', view, this.k.clock.now())
    return {status: 200, body: view, changes: d.changeSet()}
  }

  clockView() {
    return {object: 'test_clock', now: this.clock.now().toISOString(), offset_seconds: Math.round(this.clock.offsetMs / 1000)}
  }

  async getClock(ctx: RequestCtx): Promise<HandlerResult> {
    requireTestMode(ctx)
    return {status: 200, body: this.clockView()}
  }

  async advanceClock(ctx: RequestCtx): Promise<HandlerResult> {
    requireTestMode(ctx)
    const b = validate<{seconds: number}>(ctx.body, {
      seconds: {type: 'integer', required: true, min: 1, max: MAX_ADVANCE_S, hint: '(whole seconds to move the engine clock forward)'},
    })
    // what the advance set off (additive field `fired`, docs/api.md): events the clock caused
    // (request_id null), payouts created and paid, webhook delivery attempts started
    const fired: Record<string, number> = {}
    const bump = (k: string) => (fired[k] = (fired[k] ?? 0) + 1)
    const stop = this.k.onCommit((cs) => {
      for (const e of cs.events ?? []) if (e.json.includes('"request_id":null')) bump(e.type)
      for (const p of cs.puts ?? []) if (p.kind === 'payout') bump(p.expectVersion === undefined ? 'payout.created' : (p.obj as {status?: string}).status === 'paid' ? 'payout.paid' : 'payout.updated')
      for (const j of cs.addJobs ?? []) if (j.kind === 'webhook.deliver' && j.data?.lease) bump('webhook.delivery_attempt')
    })
    try {
      this.clock.offsetMs += b.seconds * 1000
      await this.k.commit({settings: {clock_offset_ms: String(this.clock.offsetMs)}})
      await this.k.runDueJobs()
      await this.afterAdvance()
    } finally {
      stop()
    }
    return {status: 200, body: {...this.clockView(), fired}}
  }

  // ---- payment test helpers
  async paymentAction(ctx: RequestCtx): Promise<HandlerResult> {
    requireTestMode(ctx)
    const b = validate<{outcome: 'approve' | 'fail' | 'abandon'}>(ctx.body, {
      outcome: {type: 'string', required: true, enum: ['approve', 'fail', 'abandon']},
    })
    const {p} = await this.payments.load(ctx.params.id!)
    // the hosted card form needs a card: the helper types test card 4242
    let card
    if (b.outcome === 'approve' && p._x.session?.step === 'card_form') {
      card = parseInstrument({card: {number: '4242424242424242', exp_month: 12, exp_year: this.k.clock.now().getUTCFullYear() + 3, cvc: '123'}}, this.k.clock.now(), '')
    }
    const out = await this.payments.customerAction(p.id, b.outcome, {card})
    return {status: 200, body: toApi(out)}
  }

  async paymentReview(ctx: RequestCtx): Promise<HandlerResult> {
    requireTestMode(ctx)
    const b = validate<{decision: 'approve' | 'block'}>(ctx.body, {
      decision: {type: 'string', required: true, enum: ['approve', 'block']},
    })
    const out = await this.payments.review(ctx.params.id!, b.decision)
    return {status: 200, body: toApi(out)}
  }
}
