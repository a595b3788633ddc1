// Tables for lists, drawn by cli-table3, which is imported only when a table is drawn.
import type {Customer, Payment, PaymentMethod} from '../api/types.js'
import {paintStatus, type Painter} from './color.js'
import {describeCard} from './detail.js'
import {formatMoney} from './money.js'

export interface Columns<T> {
  head: string[]
  row: (item: T, p: Painter) => string[]
}

export async function renderTable<T>(items: T[], cols: Columns<T>, p: Painter): Promise<string> {
  const {default: Table} = await import('cli-table3')
  const table = new Table({
    head: cols.head,
    style: {head: p.enabled ? ['bold'] : [], border: p.enabled ? ['gray'] : [], compact: true},
  })
  for (const item of items) table.push(cols.row(item, p))
  return table.toString()
}

const date = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : '')

export const paymentColumns: Columns<Payment> = {
  head: ['ID', 'STATUS', 'AMOUNT', 'METHOD', 'REFERENCE', 'CREATED'],
  row: (x, p) => [x.id, paintStatus(p, x.status), formatMoney(x.amount, x.currency), x.payment_method, x.reference ?? '', date(x.created_at)],
}

export const customerColumns: Columns<Customer> = {
  head: ['ID', 'EMAIL', 'NAME', 'CREATED'],
  row: (x) => [x.id, x.email ?? '', x.name ?? '', date(x.created_at)],
}

export const paymentMethodColumns: Columns<PaymentMethod> = {
  head: ['ID', 'TYPE', 'CARD', 'CUSTOMER', 'CREATED'],
  row: (x) => [x.id, x.type, describeCard(x.card) ?? '', x.customer ?? '', date(x.created_at)],
}
