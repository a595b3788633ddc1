// Customers beside payments: a payment carries its customer's id only, so the console reads the
// customers it shows (a name and an email an agent confirms the person by), a few at a time,
// each once; and, for a name no API filter finds, the customers whose name or email holds it
// with their payments (models/search.ts `anyName`). No Ink.
import type {Customer, ListEnvelope, Payment} from '../../api/types.js'
import {BatchedEmitter, type ConsoleSession} from '../session.js'
import {ANY_NAME_CUSTOMERS, customerMatches} from './search.js'

/** The names and emails of the customers the console has shown, read as rows need them. */
export class CustomerBook extends BatchedEmitter {
  private readonly known = new Map<string, Pick<Customer, 'name' | 'email'> | null>()
  private readonly wanted: string[] = []
  private running = 0

  constructor(private readonly session: ConsoleSession) {
    super(100)
  }

  /** "Zoë Lovelace <zoe@…>", or the email or name alone; undefined while it is read (it is asked for now). */
  label(id: string | null | undefined): string | undefined {
    if (!id) return ''
    const c = this.known.get(id)
    if (c === undefined) {
      this.want(id)
      return undefined
    }
    if (c === null) return ''
    return c.name && c.email ? `${c.name} <${c.email}>` : (c.name ?? c.email ?? '')
  }

  private want(id: string): void {
    if (this.wanted.includes(id)) return
    this.wanted.push(id)
    this.next()
  }

  private next(): void {
    while (this.running < 4 && this.wanted.length) {
      const id = this.wanted.shift()!
      this.running++
      void this.session.call(() => this.session.client.customers.get(id)).then((r) => {
        this.running--
        // a customer that cannot be read (gone, or the key may not): nothing beside the payment
        this.known.set(id, r.ok ? {name: r.value.name, email: r.value.email} : null)
        this.touch()
        this.next()
      })
    }
  }
}

/**
 * The payments of customers whose name or email holds `typed` (folded), customer by customer,
 * each one's newest first: the customers are read here (up to ANY_NAME_CUSTOMERS), since the
 * API's name filter matches only a name's start or its last word.
 */
export function anyNamePayments(session: ConsoleSession, typed: string) {
  let ids: Promise<string[]> | undefined
  /** the customer each page ended in, and whether that customer has more */
  const at = new Map<string, {i: number; more: boolean}>()
  const matching = async () => {
    const found: string[] = []
    for await (const c of session.client.customers.iterate({limit: 100}, ANY_NAME_CUSTOMERS)) if (customerMatches(c, typed)) found.push(c.id)
    return found
  }
  return {
    async page(cursor: string | undefined, limit: number): Promise<ListEnvelope<Payment>> {
      const list = await (ids ??= matching())
      let i = 0
      let after: string | undefined
      if (cursor) {
        const was = at.get(cursor)
        if (was?.more) (i = was.i), (after = cursor)
        else i = (was?.i ?? list.length) + 1
      }
      for (; i < list.length; i++, after = undefined) {
        const page = await session.client.payments.list({customer: list[i]!, limit, ...(after ? {starting_after: after} : {})})
        if (page.data.length === 0) continue
        at.set(page.data[page.data.length - 1]!.id, {i, more: page.has_more})
        return {...page, has_more: page.has_more || i + 1 < list.length}
      }
      return {object: 'list', data: [], has_more: false, url: '/v1/payments'} as ListEnvelope<Payment>
    },
  }
}
