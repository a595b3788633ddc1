// Idle sockets from anyone cannot stop the engine taking connections (docs/api.md#connections),
// with real sockets against an engine booted in-process with low caps, on SQLite and PostgreSQL:
// thousands of TCP connections that never send a byte leave the engine holding no more than its
// cap, and a health check and a keyed client still get through; event streams are capped per
// account (429 beyond, saying so) and counted in gw_connections{state}.
import net from 'node:net'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {waitFor} from '../test-support/wait.js'
import {expectError} from './helpers.js'

const TOTAL = 200
const PER_ADDRESS = 150
const STREAMS = 3

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0, maxConnections: TOTAL, maxConnectionsPerAddress: PER_ADDRESS, maxEventStreams: STREAMS})
})
afterAll(async () => t?.stop())

const origin = () => new URL(t.engine.baseUrl).origin

/** gw_connections{state} as GET /metrics reports it. */
async function connections(): Promise<Record<string, number>> {
  const text = (await t.raw('GET', `${origin()}/metrics`)).text
  return Object.fromEntries([...text.matchAll(/^gw_connections\{state="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]))
}

/** A GET on a connection of its own (a new client), its status. */
async function fresh(path: string, key?: string): Promise<number> {
  const agent = new Agent({connect: {ca: t.engine.caCertPem}})
  try {
    const r = await request(`${origin()}${path}`, {dispatcher: agent, headers: key ? {authorization: `Bearer ${key}`} : {}})
    await r.body.text()
    return r.statusCode
  } finally {
    await agent.close()
  }
}

describe('idle connections (item 2)', () => {
  it('3,000 TCP connections that never send a byte: the engine keeps no more than its cap open, and a health check and a keyed client still get through', async () => {
    const a = await t.account('keyed client')
    const idle: net.Socket[] = []
    try {
      for (let batch = 0; batch < 15; batch++) {
        const opened = Array.from({length: 200}, () => {
          const s = net.connect({host: '127.0.0.1', port: t.engine.port})
          s.on('error', () => {})
          idle.push(s)
          return new Promise<void>((r) => {
            s.once('connect', () => r())
            s.once('close', () => r())
          })
        })
        await Promise.all(opened)
      }
      // the engine closed the oldest of them as the newer came: at most its cap per address is left
      const open = () => idle.filter((s) => !s.destroyed && s.readyState === 'open').length
      await waitFor(`at most ${PER_ADDRESS} left open (${open()} now)`, () => open() <= PER_ADDRESS)
      const held = await connections()
      expect(held.handshake).toBeLessThanOrEqual(PER_ADDRESS)
      expect(held.handshake + held.active + held.idle + held.stream).toBeLessThanOrEqual(TOTAL)
      // a new client gets through: each one closes one of the idle connections to get in
      expect(await fresh('/healthz')).toBe(200)
      expect(await fresh('/readyz')).toBe(200)
      expect(await fresh('/v1/payments?limit=1', a.key)).toBe(200)
      expect(await fresh('/v1/account', a.key)).toBe(200)
    } finally {
      for (const s of idle) s.destroy()
    }
  }, 120_000)
})

describe('event streams (item 2)', () => {
  it(`an account holds at most ${STREAMS} streams open (429 beyond, saying so); they count as streams in gw_connections; one closed makes room`, async () => {
    const a = await t.account('streams')
    const b = await t.account('streams too')
    const agent = new Agent({connect: {ca: t.engine.caCertPem}})
    const open = async (key: string, path = '/v1/events/stream') => {
      const r = await request(`${origin()}${path}`, {dispatcher: agent, headers: {authorization: `Bearer ${key}`}})
      return r
    }
    try {
      const streams = [await open(a.key), await open(a.key), await open(a.key, '/v1/request_logs/stream')]
      for (const s of streams) expect(s.statusCode).toBe(200)
      const refused = await open(a.key)
      const text = await refused.body.text()
      const e = expectError({status: refused.statusCode, headers: refused.headers, body: JSON.parse(text), text}, 429, 'rate_limit_error', 'rate_limit_exceeded')
      expect(refused.headers['retry-after']).toBe('5')
      expect(e.message).toMatch(new RegExp(`This account has ${STREAMS} event streams open on this instance, the most it may`))
      // another account's are its own
      const theirs = await open(b.key)
      expect(theirs.statusCode).toBe(200)
      expect((await connections()).stream).toBe(STREAMS + 1)
      streams[0]!.body.destroy()
      const again = await waitFor('a stream again', async () => {
        const r = await open(a.key)
        if (r.statusCode === 200) return r
        await r.body.text()
        return undefined
      })
      expect(again.statusCode).toBe(200)
      for (const s of [...streams.slice(1), theirs, again]) s.body.destroy()
      await waitFor('no stream left', async () => (await connections()).stream === 0)
    } finally {
      await agent.close()
    }
  }, 60_000)
})
