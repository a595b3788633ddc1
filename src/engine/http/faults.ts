// The faults an active chaos rule injects into a request (pipeline.ts injectChaos): an error a
// real gateway answers now and then, or an answer lost on the way.
import type {IncomingMessage, ServerResponse} from 'node:http'
import {ApiError} from './errors.js'
import {retryAdvice} from './answer.js'

/** An injected 500, 503 or 429: what a real gateway answers now and then (Retry-After on 503 and 429). */
export function injectedError(fault: '500' | '503' | '429' | string, req: IncomingMessage): ApiError {
  if (fault === '503') return new ApiError(503, 'api_error', 'service_unavailable', `The service is briefly unavailable. ${retryAdvice(req, 1)}`, {headers: {'Retry-After': '1'}})
  if (fault === '429') return new ApiError(429, 'rate_limit_error', 'rate_limit_exceeded', `Too many requests. ${retryAdvice(req, 1)}`, {headers: {'Retry-After': '1'}})
  return new ApiError(500, 'api_error', 'internal_error', `An internal error occurred. ${retryAdvice(req)}`)
}

/**
 * The request's work goes on and commits, but its answer never leaves: whatever the pipeline
 * writes destroys the connection instead, as a proxy timing out or a network cut would.
 */
export function loseResponse(res: ServerResponse): void {
  const cut = () => {
    res.socket?.destroy()
    return res
  }
  res.writeHead = cut as unknown as ServerResponse['writeHead']
  res.end = cut as unknown as ServerResponse['end']
  res.write = (() => (cut(), false)) as unknown as ServerResponse['write']
}
