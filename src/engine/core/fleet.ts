// Settings every instance of a fleet must agree on (docs/decisions.md#the-fleet): the rate limit, the payout
// currency and the webhook destinations. They live in the store (the platform account's
// settings), so instances on one database share them: the first instance's values win, an
// instance started with other values is refused with what the fleet uses and how to change it
// (--update-fleet-settings changes them for every instance, which follow at once through the
// change feed). On SQLite one instance owns the data, so its flags (or their defaults) always
// apply, as before.
import {DestinationPolicy} from '../domain/destinations.js'
import {PLATFORM_ACCOUNT, type Store} from '../ports/store.js'

export const DEFAULT_RATE_LIMIT = 100

const KEYS = {rateLimit: 'fleet.rate_limit', payoutCurrency: 'fleet.payout_currency', webhookAllow: 'fleet.webhook_allow'} as const

export interface FleetValues {
  /** requests per second per account and mode; 0: off */
  rateLimit: number
  payoutCurrency: string | null
  webhookAllow: string[]
}

/** What the command line asked for; undefined: not given. */
export type FleetFlags = Partial<FleetValues>

export class FleetConfigError extends Error {}

const FLAG: Record<keyof FleetValues, string> = {rateLimit: '--rate-limit', payoutCurrency: '--payout-currency', webhookAllow: '--webhook-allow'}
const encode = (k: keyof FleetValues, v: FleetValues[keyof FleetValues]): string => (k === 'webhookAllow' ? (v as string[]).join(',') : v === null ? '' : String(v))
function decode<K extends keyof FleetValues>(k: K, s: string): FleetValues[K] {
  if (k === 'rateLimit') return Number(s) as FleetValues[K]
  if (k === 'payoutCurrency') return (s === '' ? null : s) as FleetValues[K]
  return (s === '' ? [] : s.split(',')) as FleetValues[K]
}
const show = (k: keyof FleetValues, v: FleetValues[keyof FleetValues]) => (k === 'rateLimit' ? `${v}/s` : k === 'payoutCurrency' ? (v ?? 'none (one payout per currency)') : (v as string[]).join(',') || 'none (every address but link-local and metadata)')

/** The fleet's settings as this instance applies them, kept current by the store's change feed. */
export class FleetSettings {
  private values: FleetValues
  private policy: DestinationPolicy

  private constructor(values: FleetValues) {
    this.values = values
    this.policy = new DestinationPolicy(values.webhookAllow)
  }

  get rateLimit(): number {
    return this.values.rateLimit
  }
  get payoutCurrency(): string | null {
    return this.values.payoutCurrency
  }
  get destinations(): DestinationPolicy {
    return this.policy
  }

  /** Settings fixed in code (tests, an app without a store of its own to agree with). */
  static fixed(values: Partial<FleetValues> = {}): FleetSettings {
    return new FleetSettings({rateLimit: values.rateLimit ?? DEFAULT_RATE_LIMIT, payoutCurrency: values.payoutCurrency ?? null, webhookAllow: values.webhookAllow ?? []})
  }

  /**
   * Agrees this instance's flags with the fleet's stored settings (see the file's comment) and
   * follows later changes. `notes` gets a line for each setting taken from the fleet.
   */
  static async agree(store: Store, flags: FleetFlags, opts: {shared: boolean; update: boolean; notes: (line: string) => void}): Promise<FleetSettings> {
    const platform = store.account(PLATFORM_ACCOUNT)
    const values = FleetSettings.fixed().values
    const write: Record<string, string> = {}
    const refusals: string[] = []
    for (const k of Object.keys(KEYS) as (keyof FleetValues)[]) {
      const stored = await platform.getSetting(KEYS[k])
      const given = flags[k]
      const fleet = stored === undefined ? undefined : decode(k, stored)
      if (!opts.shared || fleet === undefined || (given !== undefined && opts.update)) {
        const v = given ?? fleet ?? values[k]
        ;(values as unknown as Record<string, unknown>)[k] = !opts.shared && given === undefined ? values[k] : v
        if (stored !== encode(k, values[k])) write[KEYS[k]] = encode(k, values[k])
        continue
      }
      ;(values as unknown as Record<string, unknown>)[k] = fleet
      if (given === undefined) opts.notes(`fleet: ${FLAG[k]} ${show(k, fleet)} (the fleet's setting, from the database)`)
      else if (encode(k, given) !== stored)
        refusals.push(`${FLAG[k]} ${show(k, given)} disagrees with this database's fleet setting ${show(k, fleet)} (the first instance's)`)
    }
    if (refusals.length)
      throw new FleetConfigError(
        `${refusals.join('; ')}. Every instance on one database applies the same settings: start this one without ${refusals.length > 1 ? 'them' : 'it'} (or with the fleet's values), or add --update-fleet-settings to change ${refusals.length > 1 ? 'them' : 'it'} for every instance (running instances follow at once).`,
      )
    if (Object.keys(write).length) await platform.commit({settings: write})
    const s = new FleetSettings(values)
    platform.onChange((n) => {
      if (n.settings.some((k) => k.startsWith('fleet.')) || n.account === '*') void s.reload(store).catch(() => {}) // unreachable: the next notice reads again
    }, 'shared')
    return s
  }

  private async reload(store: Store): Promise<void> {
    const platform = store.account(PLATFORM_ACCOUNT)
    const next = {...this.values}
    for (const k of Object.keys(KEYS) as (keyof FleetValues)[]) {
      const stored = await platform.getSetting(KEYS[k])
      if (stored !== undefined) (next as unknown as Record<string, unknown>)[k] = decode(k, stored)
    }
    this.policy = new DestinationPolicy(next.webhookAllow)
    this.values = next
  }
}
