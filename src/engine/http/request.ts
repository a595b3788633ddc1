// What the pipeline (pipeline.ts) reads and checks of one request, each a plain function: the
// request target, the body (readBody, its nesting, its canonical form and hash for the
// Idempotency-Key) and the input checked against the operation's schemas. The key is checked in
// access.ts, answers are sent by answer.ts, chaos's faults made in faults.ts.
import * as crypto from 'node:crypto'
import zlib from 'node:zlib'
import type {IncomingMessage} from 'node:http'
import {ApiError} from './errors.js'
import {requestValidator} from './openapi-validate.js'
import type {RequestCtx, Route} from './router.js'
import {jsonString} from '../domain/json.js'

/** The client went away before its request was read (connection reset, body cut short). */
export class ClientAborted extends Error {
  constructor() {
    super('aborted by the client')
  }
}

export const MAX_BODY_BYTES = 1024 * 1024

// one-shot hashing, no Hash object per call (crypto.hash: node >= 20.12; @types/node does not declare it yet)
const oneShotHash = (crypto as unknown as {hash(algorithm: string, data: string, encoding: 'buffer' | 'hex'): Buffer | string}).hash

export const sha256Hex = (s: string): string => oneShotHash('sha256', s, 'hex') as string

/** A request's path and query. */
export interface RequestTarget {
  pathname: string
  searchParams: URLSearchParams
}

/** Targets a URL parser leaves as they are: /-separated segments of letters, digits, _ and -, then a query of printable ASCII without a fragment. */
const PLAIN_TARGET = /^(?:\/[A-Za-z0-9_-]+)*\/?(?:\?[!-"$-~]*)?$/

/**
 * A request target split into path and query, without the cost of a URL parse for the plain ones
 * (`/v1/payments?limit=3`); undefined for one no URL can be made of (`//`, `//host:99999`).
 */
export function requestTarget(raw: string | undefined): RequestTarget | undefined {
  const target = raw ?? '/'
  // anything a URL parser would rewrite (dot segments, escapes, backslashes, an absolute form) goes through one
  if (!PLAIN_TARGET.test(target)) {
    // (not URL.canParse: on node 20 it sometimes answers false for a target the parser takes, e.g. //é)
    try {
      const url = new URL(target, 'https://localhost')
      return {pathname: url.pathname, searchParams: url.searchParams}
    } catch {
      return undefined
    }
  }
  const q = target.indexOf('?')
  // (URLSearchParams drops one leading '?': the query goes in with its own)
  return q < 0 ? {pathname: target, searchParams: new URLSearchParams()} : {pathname: target.slice(0, q), searchParams: new URLSearchParams(target.slice(q))}
}

/** How deeply arrays and objects may nest in a request body (docs/api.md). */
export const MAX_JSON_DEPTH = 32

/**
 * The deepest nesting of arrays and objects in a JSON text, stopping once it exceeds `limit`:
 * one linear pass over the raw bytes (brackets inside strings do not count), no recursion, so
 * a body of 20,000 `[` is rejected before anything walks it.
 */
export function jsonDepthExceeds(raw: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!
    if (inString) {
      if (c === 0x5c) i++ // backslash: skip the escaped byte
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

type CanonicalFrame = {items: unknown[]; i: number} | {obj: Record<string, unknown>; keys: string[]; i: number}

/** JSON of a value that is not an object or array. */
function jsonScalar(v: unknown): string {
  if (typeof v === 'string') return jsonString(v)
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null'
  if (v === null) return 'null'
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  return JSON.stringify(v) ?? 'null'
}

/**
 * Canonical JSON (object keys sorted) of a parsed body, for the idempotency hash. Iterative with
 * an explicit stack: no recursion over client input.
 */
export function canonical(root: unknown): string {
  let out = ''
  const stack: CanonicalFrame[] = []
  let next: {v: unknown} | undefined = {v: root}
  for (;;) {
    if (next) {
      const v = next.v
      next = undefined
      if (v === null || typeof v !== 'object') out += jsonScalar(v)
      else if (Array.isArray(v)) {
        out += '['
        stack.push({items: v, i: 0})
      } else {
        out += '{'
        const obj = v as Record<string, unknown>
        stack.push({obj, keys: Object.keys(obj).sort(), i: 0})
      }
    }
    const top = stack[stack.length - 1]
    if (!top) return out
    if ('items' in top) {
      if (top.i < top.items.length) {
        if (top.i > 0) out += ','
        next = {v: top.items[top.i++]}
      } else {
        out += ']'
        stack.pop()
      }
    } else if (top.i < top.keys.length) {
      const k = top.keys[top.i++]!
      out += `${top.i > 1 ? ',' : ''}${jsonString(k)}:`
      next = {v: top.obj[k]}
    } else {
      out += '}'
      stack.pop()
    }
  }
}

/** Node reports a request aborted mid-body as `Error: aborted` (code ECONNRESET) on a request not yet complete. */
export const isClientAbort = (e: unknown, req: IncomingMessage): boolean =>
  e instanceof ClientAborted || (!req.complete && ((e as NodeJS.ErrnoException)?.code === 'ECONNRESET' || (e as Error)?.message === 'aborted'))

/**
 * A request's body, at most `max` bytes; undefined when it is larger (declared or sent: what was
 * sent is read and dropped, so the answer can still go out). A client gone mid-body rejects with
 * ClientAborted. The API's JSON bodies and the hosted pages' forms both come this way. A body sent
 * with `Content-Encoding: gzip` is decoded as it arrives, and `max` bounds what it decodes to (a
 * gzip bomb stops at the limit, never held whole); any other encoding is 415 naming it.
 */
export function readBody(req: IncomingMessage, max = MAX_BODY_BYTES): Promise<Buffer | undefined> {
  const encoding = String(req.headers['content-encoding'] ?? '').trim().toLowerCase()
  if (encoding === '' || encoding === 'identity') return collect(req, req, max, Number(req.headers['content-length'] ?? 0))
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    const gunzip = zlib.createGunzip()
    req.pipe(gunzip)
    return collect(req, gunzip, max, undefined)
  }
  return Promise.reject(
    new ApiError(415, 'invalid_request_error', 'media_type_unsupported', `Content-Encoding ${JSON.stringify(String(req.headers['content-encoding']))} is not one the engine decodes: send the body as it is, or gzip it (Content-Encoding: gzip).`),
  )
}

/** The bytes of `source` (the request, or what its body decodes to), at most `max`; `declared`: the request's Content-Length when the bytes are the body's own. */
function collect(req: IncomingMessage, source: NodeJS.ReadableStream, max: number, declared: number | undefined): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (declared !== undefined && declared > max) return resolve(undefined)
    const chunks: Buffer[] = []
    let size = 0
    // a large body of a declared length (a snapshot) is copied into place as it arrives: no copy of it all at the end
    const into = declared !== undefined && Number.isSafeInteger(declared) && declared > MAX_BODY_BYTES ? Buffer.allocUnsafe(declared) : undefined
    const drop = () => {
      source.removeAllListeners('data')
      if (source !== req) {
        req.unpipe(source as unknown as NodeJS.WritableStream)
        ;(source as zlib.Gunzip).destroy()
      }
      req.resume()
    }
    source.on('data', (c: Buffer) => {
      size += c.length
      if (size > max || (into && size > into.length)) {
        drop()
        resolve(undefined)
        return
      }
      if (into) c.copy(into, size - c.length)
      else chunks.push(c)
    })
    source.on('end', () => resolve(into ? into.subarray(0, size) : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))
    req.on('error', (e) => reject(isClientAbort(e, req) ? new ClientAborted() : e))
    if (source !== req)
      source.on('error', (e: Error) => {
        drop()
        reject(new ApiError(400, 'invalid_request_error', 'parameter_invalid', `The request body is not valid gzip (${e.message}); send it as it is, without Content-Encoding, or gzip it whole.`, {param: 'body'}))
      })
    // a connection closed mid-body ends the request without 'end'
    req.on('close', () => {
      if (!req.complete) reject(new ClientAborted())
    })
  })
}

/** Whether a request carries a body (a length over 0, or chunks). */
const hasBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0

/** JSON media types: application/json (any parameters), application/<something>+json. */
const JSON_MEDIA = /^application\/(?:[a-z0-9.!#$&^_-]+\+)?json$/

/**
 * 415 unless a body, if sent, is declared JSON or not declared at all: a text/plain or form body
 * (what a browser may send to any origin without asking) is never read as JSON.
 */
export function checkJsonBody(req: IncomingMessage): void {
  const type = req.headers['content-type']
  if (type === undefined) return
  const media = type.split(';')[0]!.trim().toLowerCase()
  if (media === '' || JSON_MEDIA.test(media) || !hasBody(req)) return
  throw new ApiError(415, 'invalid_request_error', 'media_type_unsupported', `Content-Type ${JSON.stringify(type)} is not JSON: send the body as JSON with Content-Type: application/json.`)
}

export const tooLarge = (max = MAX_BODY_BYTES, message?: (max: number) => string) =>
  new ApiError(413, 'invalid_request_error', 'request_too_large', message?.(max) ?? `Request bodies ${max === MAX_BODY_BYTES ? '' : 'of this operation '}are limited to ${max / 1048576} MiB (${max} bytes).`)

/** Bytes hashed between two turns given back to the event loop (a body of tens of megabytes). */
const HASH_SLICE = 1024 * 1024

/** The request hash of a body kept as bytes (RouteOptions.rawBody): of the bytes themselves, hashed a slice at a time. */
export async function rawRequestHash(method: string, path: string, raw: Buffer): Promise<string> {
  const h = crypto.createHash('sha256').update(`${method} ${path}\n`)
  for (let i = 0; i < raw.length; i += HASH_SLICE) {
    if (i > 0) await new Promise((r) => setImmediate(r))
    h.update(raw.subarray(i, i + HASH_SLICE))
  }
  return h.digest('hex')
}

/** The request against the operation's schemas in the OpenAPI document (inside the unit of a write, so a 400 is recorded for replay). */
export function checkInput(ctx: RequestCtx, route: Route): void {
  ctx.input = requestValidator(route.operationId)({body: ctx.body, query: ctx.query})
}
