import {describe, expect, it} from 'vitest'
import {ApiError, NetworkError} from '../client/errors.js'
import {closest} from '../suggest.js'
import {ExitCode, UsageError} from '../errors.js'
import {exitCodeFor} from '../output/errors.js'
import {parseDuration, parseMetadata, parseMinorUnits, parseTimestamp} from './parse.js'
import {usage} from './test-support/usage.js'

describe('durations', () => {
  it('reads human durations', () => {
    expect(parseDuration('7d')).toBe(604_800)
    expect(parseDuration('36h')).toBe(129_600)
    expect(parseDuration('90m')).toBe(5400)
    expect(parseDuration('45s')).toBe(45)
    expect(parseDuration('2w')).toBe(1_209_600)
    expect(parseDuration('1d12h')).toBe(129_600)
    expect(parseDuration('1.5h')).toBe(5400)
    expect(parseDuration('2 days')).toBe(172_800)
    expect(parseDuration('3600')).toBe(3600)
  })
  it('explains bad ones', () => {
    const e = usage(() => parseDuration('7x', 'DURATION'))
    expect(e.message).toContain('DURATION "7x"')
    expect(e.hint).toContain('7d')
    usage(() => parseDuration(''))
    usage(() => parseDuration('d'))
  })
})

describe('flag values', () => {
  it('metadata k=v', () => {
    expect(parseMetadata(['a=1', 'b=x=y'])).toEqual({a: '1', b: 'x=y'})
    expect(parseMetadata([])).toBeUndefined()
    expect(usage(() => parseMetadata(['oops'])).message).toContain('--metadata "oops" is not key=value')
  })

  it('minor units point decimals to --display-amount', () => {
    expect(parseMinorUnits('2000')).toBe(2000)
    const e = usage(() => parseMinorUnits('20.00'))
    expect(e.message).toContain('--amount "20.00"')
    expect(e.hint).toContain('--display-amount 20.00')
    usage(() => parseMinorUnits('0'))
    usage(() => parseMinorUnits('-5'))
  })

  it('timestamps', () => {
    expect(parseTimestamp('2025-01-31', '--created-gte')).toBe('2025-01-31T00:00:00.000Z')
    expect(parseTimestamp('2025-01-31T12:00:00Z', '--created-lte')).toBe('2025-01-31T12:00:00.000Z')
    expect(usage(() => parseTimestamp('yesterday', '--created-gte')).message).toContain('--created-gte')
  })

  it('suggests close method codes', () => {
    expect(closest('ideel', ['card', 'ideal', 'pix'])).toEqual(['ideal'])
    expect(closest('sepa', ['sepa_debit', 'sepa_credit', 'card'])).toContain('sepa_debit')
  })
})

describe('exit codes', () => {
  const api = (status: number, type: string) =>
    new ApiError({status, type: type as ApiError['type'], code: 'x', message: 'm'})
  it('map each error class to its code', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(ExitCode.USAGE)
    expect(exitCodeFor(api(401, 'authentication_error'))).toBe(ExitCode.AUTH)
    expect(exitCodeFor(api(402, 'card_error'))).toBe(ExitCode.CARD)
    expect(exitCodeFor(api(404, 'invalid_request_error'))).toBe(ExitCode.NOT_FOUND)
    expect(exitCodeFor(api(429, 'rate_limit_error'))).toBe(ExitCode.RATE_LIMITED)
    expect(exitCodeFor(api(503, 'api_error'))).toBe(ExitCode.SERVER)
    expect(exitCodeFor(api(400, 'invalid_request_error'))).toBe(ExitCode.ERROR)
    expect(exitCodeFor(api(409, 'idempotency_error'))).toBe(ExitCode.ERROR)
    expect(exitCodeFor(new NetworkError('x', 'ECONNREFUSED', 'https://a'))).toBe(ExitCode.NETWORK)
    expect(exitCodeFor(Object.assign(new Error('missing arg'), {oclif: {exit: 2}}))).toBe(ExitCode.USAGE)
    expect(exitCodeFor(new Error('bug'))).toBe(ExitCode.ERROR)
  })
  it('have distinct values', () => {
    const values = Object.values(ExitCode)
    expect(new Set(values).size).toBe(values.length)
  })
})
