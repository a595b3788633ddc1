// Event fixtures for tests of the feed, the forwarder and the events commands.
import type {GwEvent, Payment} from '../../../../api/types.js'

export function ev(n: number, type = 'payment.succeeded'): GwEvent {
  // any type, known or not (a feed passes on types added later): the event as the wire has it
  return <GwEvent>(<GwEvent<Payment>>{
    id: `evt_${n}`,
    object: 'event',
    type,
    created_at: `2025-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
    livemode: false,
    request_id: `req_${n}`,
    // a payment cut to the fields the feed's tests read
    data: {object: {id: `pay_${n}`, object: 'payment', amount: 1000 + n, currency: 'EUR', status: 'succeeded'} as Payment},
  })
}

/** One SSE message as GET /events/stream writes it. */
export const frame = (e: GwEvent) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`

export const list = (events: GwEvent[], has_more = false) => ({object: 'list', url: '/v1/events', data: events, has_more})
