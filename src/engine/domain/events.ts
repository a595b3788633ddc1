// What an event is about, as the store indexes it (the story of GET /v1/events?object=).

/**
 * What an event is about: its data.object's id, and the payment it concerns (a payment's, a
 * refund's or a dispute's). Its story's subject (EventQuery.subject) is the payment, else the object.
 */
export function eventSubjects(event: {data?: {object?: Record<string, unknown>}}): {object_id: string | null; payment: string | null} {
  const o = event.data?.object
  const id = typeof o?.id === 'string' ? o.id : null
  const payment = o?.object === 'payment' ? id : typeof o?.payment === 'string' ? o.payment : null
  return {object_id: id, payment}
}
