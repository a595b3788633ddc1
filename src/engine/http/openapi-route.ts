// GET /v1/openapi.json: the contract, served before authentication (docs/api.md). The document
// is built on the first request, so engine start-up does not pay for it.
import type {ServerResponse} from 'node:http'
import {JSON_CONTENT_TYPE} from './answer.js'

let body: string | undefined

export const OPENAPI_PATH = '/v1/openapi.json'

export async function serveOpenApi(res: ServerResponse, requestId: string): Promise<void> {
  body ??= JSON.stringify((await import('../../api/openapi/document.js')).openapiDocument())
  if (res.headersSent || res.destroyed) return
  res.writeHead(200, {
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Request-Id': requestId,
    'Cache-Control': 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
  })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}
