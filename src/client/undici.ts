// The three pieces of undici the API client uses (Agent, request, stream), loaded from
// undici's internal files instead of its index. The index also loads fetch, WebSocket,
// EventSource, caches, cookies, mocks, interceptors and their node: modules, which costs
// 40-80 ms on every `gw` command that makes a request; these files cost about a third of
// that. undici 7 has no "exports" map, so the paths resolve; package.json pins undici to one
// exact version, and undici.test.ts fails loudly if an upgrade moves or changes them.
// Loaded with require(): an ESM import of a CommonJS file would also run the export lexer.
import {createRequire} from 'node:module'
import type * as Undici from 'undici'
import type {Dispatcher} from 'undici'

const require = createRequire(import.meta.url)

export const UNDICI_INTERNALS = {
  agent: 'undici/lib/dispatcher/agent.js',
  request: 'undici/lib/api/api-request.js',
  stream: 'undici/lib/api/api-stream.js',
} as const

export const Agent = require(UNDICI_INTERNALS.agent) as typeof Undici.Agent

type RequestImpl = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>
type StreamImpl = (this: Dispatcher, opts: Dispatcher.RequestOptions, factory: Dispatcher.StreamFactory) => Promise<Dispatcher.StreamData>

const requestImpl = require(UNDICI_INTERNALS.request) as RequestImpl
const streamImpl = require(UNDICI_INTERNALS.stream) as StreamImpl

type Options = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {method?: Dispatcher.HttpMethod; dispatcher: Dispatcher}

/** What undici's index does for `request(url, opts)`, minus the global dispatcher: the client always passes its own. */
function dispatchOptions(url: string | URL, opts: Options): Dispatcher.RequestOptions {
  const u = typeof url === 'string' ? new URL(url) : url
  const {dispatcher: _dispatcher, ...rest} = opts
  return {...rest, origin: u.origin, path: `${u.pathname}${u.search}`, method: opts.method ?? (opts.body ? 'PUT' : 'GET')}
}

export function request(url: string | URL, opts: Options): Promise<Dispatcher.ResponseData> {
  return requestImpl.call(opts.dispatcher, dispatchOptions(url, opts))
}

export function stream(url: string | URL, opts: Options, factory: Dispatcher.StreamFactory): Promise<Dispatcher.StreamData> {
  return streamImpl.call(opts.dispatcher, dispatchOptions(url, opts), factory)
}
