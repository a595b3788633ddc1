// The HTTP side of webhook attempts (delivery-worker.ts): the agents they go out through — one that verifies the
// receiver's certificate against the default trusted roots, and one for test mode's loopback
// receivers, which may have a self-signed certificate (docs/decisions.md#webhook-endpoints) — and
// what the delivery log keeps of a receiver's answer.
import type {LookupFunction} from 'node:net'
import {createSecureContext} from 'node:tls'
import {Agent} from 'undici'
import {DELIVERY_TIMEOUT_MS} from '../domain/webhooks.js'

export interface WebhookAgents {
  /** verifies every receiver's certificate */
  agent: Agent
  /** test mode only, loopback hosts only: a local receiver with a self-signed certificate works */
  loopbackAgent: Agent
}

/**
 * Both agents connect through `lookup` (the destination policy's guarded resolver) and share one
 * TLS context: given none, each tls.connect builds its own from its options (~0.3 ms of CPU a
 * connection), and a burst of retries to many endpoints opens hundreds of connections (docs/decisions.md#background-work-under-load).
 * A context holds the trusted roots and protocol settings only; the certificate and host name are
 * still checked on every connection. `timeoutMs` bounds the connect, the headers and the body
 * (the attempt's own timer bounds it all: delivery-worker.ts).
 */
export function webhookAgents(lookup: LookupFunction, timeoutMs = DELIVERY_TIMEOUT_MS): WebhookAgents {
  const opts = {headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 4000}
  const secureContext = createSecureContext()
  return {
    agent: new Agent({...opts, connect: {timeout: timeoutMs, lookup, secureContext}}),
    loopbackAgent: new Agent({...opts, connect: {timeout: timeoutMs, rejectUnauthorized: false, lookup, secureContext}}),
  }
}

const EXCERPT_CHARS = 500
const EXCERPT_BYTES = 4096

/** The first characters of a receiver's answer, for the delivery log (null when its body fails: the status stands). */
export async function responseExcerpt(body: AsyncIterable<unknown> & {destroy(): unknown}): Promise<string | null> {
  try {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of body) {
      chunks.push(chunk as Buffer)
      size += (chunk as Buffer).length
      if (size >= EXCERPT_BYTES) break
    }
    return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').slice(0, EXCERPT_CHARS)
  } catch {
    body.destroy()
    return null
  }
}
