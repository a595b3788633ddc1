// What the parts of the store contract share: the handles an adapter gives, and objects to write.
import type {AccountStore, Kind, Put, Store, StoredObject} from '../../ports/store.js'

export interface ContractHandles {
  /** two handles on the same data: two engine instances where the adapter supports several, else the same store twice */
  a: Store
  b: Store
  /**
   * The instance behind `a` dies: its process is gone, nothing is cleaned up, what it held is
   * not released by it (PostgreSQL: its connections are cut). Returns a store to go on with on
   * the same data: `b` where the adapter runs several instances, else a new instance in place of
   * the dead one. `a` is not used afterwards (close() still closes it).
   */
  kill(): Promise<Store>
  close(): Promise<void>
}

export interface Pay extends StoredObject {
  object: 'payment'
  status: string
  reference: string
  customer: string | null
  merchant: string | null
  amount: number
  _x?: {secret: string}
}

let n = 0
/** ids that sort by creation, like the engine's */
export const nextId = (prefix: string) => `${prefix}_${String(Date.now()).padStart(14, '0')}${String(++n).padStart(8, '0')}`
export const iso = (ms: number) => new Date(ms).toISOString()
export const T0 = Date.parse('2030-01-01T00:00:00.000Z')
export const ACCT = 'acct_contract'
export const OTHER = 'acct_other'

export function pay(over: Partial<Pay> = {}): Pay {
  return {id: nextId('pay'), object: 'payment', status: 'succeeded', reference: 'r', customer: null, merchant: null, amount: 100, created_at: iso(T0), ...over}
}

/** a Put of any object (the tests write objects of their own shapes) */
export const put = (kind: Kind, obj: object, expectVersion?: number): Put => ({kind, obj: obj as StoredObject, ...(expectVersion === undefined ? {} : {expectVersion})})

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** an event's data.object bytes */
export const dataObject = (json: string) => json.slice(json.indexOf('"data":{"object":') + 17, -2)

/** The handles of the running case: the store pair, and one account's data through each. */
export interface Bound {
  h: ContractHandles
  a: AccountStore
  b: AccountStore
}
