// --amount (minor units) or --display-amount (a decimal in the currency), as `gw payments create`
// and `gw routing simulate` take them.
import {UsageError} from '../errors.js'
import {formatMoney, parseDisplayAmount} from '../api/money.js'
import {MAX_AMOUNT} from './parse.js'

/** The amount in minor units from --amount or --display-amount; a usage error naming the flag otherwise. */
export function amountFromFlags(f: {amount?: number; 'display-amount'?: string}, currency: string): number {
  let amount = f.amount
  if (amount === undefined && f['display-amount'] !== undefined) {
    try {
      amount = parseDisplayAmount(f['display-amount'], currency)
    } catch (error) {
      throw new UsageError(`--display-amount: ${(error as Error).message}`, `e.g. --display-amount 20.00 --currency ${currency}`)
    }
    if (amount <= 0) throw new UsageError('--display-amount must be positive (more than zero).')
    if (amount > MAX_AMOUNT) throw new UsageError(`--display-amount ${f['display-amount']} is too large: at most ${formatMoney(MAX_AMOUNT, currency)}.`)
  }
  if (amount === undefined) {
    throw new UsageError('Missing the amount: pass --amount (minor units) or --display-amount.', `e.g. --amount 2000 --currency ${currency}, or --display-amount 20.00 --currency ${currency}`)
  }
  return amount
}
