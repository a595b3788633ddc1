// The hint on a connection failure fits the base URL: the local engine only for a local one.
import {describe, expect, it} from 'vitest'
import {NetworkError} from '../client/errors.js'
import {painter} from './color.js'
import {formatError, networkHint} from './errors.js'

const failed = (url: string, code = 'ECONNREFUSED') => new NetworkError(`Could not connect to ${url}`, code, url)

describe('the hint on a connection failure', () => {
  it('names the local engine and `gw serve` for a loopback base URL', () => {
    for (const url of ['https://127.0.0.1:8443/v1/payments', 'https://localhost:8443/v1', 'https://[::1]:8443/v1/payments'])
      expect(networkHint(failed(url)), url).toBe('Is the local engine running? Start it with `gw serve`.')
  })

  it('names the local engine for the profile `gw login --local` made, whatever its host', () => {
    expect(networkHint(failed('https://gw-box.lan:8443/v1'), () => true)).toMatch(/local engine.*gw serve/)
  })

  it('for a remote base URL names its host and the balancer, never the local engine', () => {
    const reset = networkHint(failed('https://gw.example.com/v1/payments', 'ECONNRESET'), () => false)!
    expect(reset).toContain('gw.example.com:443')
    expect(reset).toMatch(/load balancer.*\/readyz/)
    expect(reset).not.toMatch(/gw serve|local engine/)
    expect(networkHint(failed('https://gw.example.com:8443/v1', 'ECONNREFUSED'))).toContain('gw.example.com:8443')
    expect(networkHint(failed('https://gw.nowhere.example/v1', 'ENOTFOUND'))).toMatch(/host gw\.nowhere\.example was not found/)
    const text = formatError(failed('https://gw.example.com/v1/payments', 'ECONNRESET'), {color: painter(false)})
    expect(text).toContain('gw.example.com:443')
    expect(text).not.toContain('gw serve')
  })

  it('gives none for a TLS failure (its message has its own)', () => {
    expect(networkHint(failed('https://127.0.0.1:8443/v1', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'))).toBeUndefined()
  })
})
