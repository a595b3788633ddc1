// Host name resolution for webhook attempts under the engine's destination policy: an address
// the policy refuses is never connected to, whatever name led to it (a host name pointing at
// 169.254.169.254, or changing its answer between the endpoint's creation and the attempt).
import {lookup as dnsLookup, type LookupAddress, type LookupOptions} from 'node:dns'
import type {DestinationPolicy} from '../domain/destinations.js'

type Callback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

type Resolve = (hostname: string, options: LookupOptions & {all: true}, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void

/**
 * A `lookup` for net/tls connect options (undici's `connect`) that drops refused addresses (the
 * policy's refusal: IPv6 spellings of a refused IPv4 address included); none left fails with
 * EDESTBLOCKED. `resolve`: the system resolver (dns.lookup), or a stand-in in tests.
 */
export function guardedLookup(policyNow: () => DestinationPolicy, resolve: Resolve = dnsLookup) {
  return (hostname: string, options: LookupOptions, callback: Callback): void => {
    resolve(hostname, {...options, all: true}, (err, addresses) => {
      if (err) return callback(err, '')
      // the fleet's current policy (it may change while the engine runs)
      const policy = policyNow()
      const allowed = addresses.filter((a) => policy.refusal(a.address) === undefined)
      if (allowed.length === 0) {
        const why = addresses.length ? policy.refusal(addresses[0]!.address) : 'no address'
        return callback(Object.assign(new Error(`${hostname} resolves to ${why}`), {code: 'EDESTBLOCKED'}), '')
      }
      if (options.all) return callback(null, allowed)
      callback(null, allowed[0]!.address, allowed[0]!.family)
    })
  }
}
