// `gw balance` on screen: one row per currency, available and pending. Amounts are minor units
// of their currency, shown with its exponent.
import type {Balance} from '../../api/types.js'
import {formatMoney} from '../../api/money.js'
import type {Columns} from '../../output/table.js'

export interface BalanceRow {
  currency: string
  available: number
  pending: number
}

/** One row per currency, from the two lists of the balance object. */
export function balanceRows(b: Balance): BalanceRow[] {
  const rows = new Map<string, BalanceRow>()
  const row = (c: string) => rows.get(c) ?? rows.set(c, {currency: c, available: 0, pending: 0}).get(c)!
  for (const a of b.available ?? []) row(a.currency).available += a.amount
  for (const a of b.pending ?? []) row(a.currency).pending += a.amount
  return [...rows.values()].sort((x, y) => (x.currency < y.currency ? -1 : 1))
}

export const balanceColumns: Columns<BalanceRow> = {
  head: ['CURRENCY', 'AVAILABLE', 'PENDING'],
  row: (x, p) => [x.currency, x.available < 0 ? p.red(formatMoney(x.available, x.currency)) : formatMoney(x.available, x.currency), formatMoney(x.pending, x.currency)],
}
