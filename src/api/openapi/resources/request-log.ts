// The engine's recent API requests, for operators (gw logs tail).
import {idOf, livemode, nullable, obj, q, str, dateTime, type Family} from '../kit.js'

const requestLogFilters = [
  q('status', {type: 'string', pattern: '^([1-5](xx|[0-9]{2}))(,[1-5](xx|[0-9]{2}))*$', 'x-hint': 'an HTTP status or class such as 404, 4xx, or 4xx,5xx', examples: ['4xx', '404', '4xx,5xx']}, 'Only these statuses: a status, a class (4xx), or a comma list.'),
  q('method', {type: 'string', pattern: '^(GET|POST|DELETE)(,(GET|POST|DELETE))*$', 'x-hint': 'GET, POST or DELETE (comma list allowed)', examples: ['POST']}, 'Only these methods.'),
  q('path', {type: 'string', pattern: '^/', 'x-hint': 'a path prefix such as /payments', examples: ['/payments']}, 'Only paths starting with this prefix (with or without /v1).'),
]
export const family: Family = {
  responses: () => ({
    RequestLog: obj(
      {
        id: str({pattern: '^req_[0-9A-Za-z]+$', description: "The request's id (its Request-Id); also the cursor."}),
        object: {type: 'string', const: 'request_log'},
        method: {type: 'string', enum: ['GET', 'POST', 'DELETE', 'HEAD', 'PUT', 'PATCH', 'OPTIONS']},
        path: str({pattern: '^/v1', description: 'The path as requested, without the query string.'}),
        status: {type: 'integer', minimum: 100, maximum: 599},
        latency_ms: {type: 'integer', minimum: 0},
        idempotent_replayed: {type: 'boolean', description: 'A POST answered from the stored response of its Idempotency-Key.'},
        instance: str({description: 'The engine instance that answered (host:port): a fleet behind a load balancer keeps one log.'}),
        api_key: nullable(idOf('key', 'The key that made the request; null when authentication failed.')),
        livemode,
        created_at: dateTime(),
        chaos: str({description: 'A fault the account\'s chaos rules injected into this request: the rule id and the fault (`chaos_… response_lost`).'}),
      },
      {description: 'One API request the engine answered (the request log behind `gw logs tail`).', optional: ['chaos']},
    ),
  }),
  lists: ['RequestLog'],
  operations: [
    {id: 'listRequestLogs', perm: 'request_logs:read', method: 'get', path: '/request_logs', tag: 'Request log', summary: "List the engine's recent API requests", list: true, query: requestLogFilters,
      description: 'The last 1,000 API requests the engine answered (in memory), newest first; requests to the request log itself are not logged.', response: 'RequestLogList', responseDescription: 'A page of requests, newest first.'},
    {id: 'streamRequestLogs', perm: 'request_logs:read', method: 'get', path: '/request_logs/stream', tag: 'Request log', summary: 'Stream API requests (Server-Sent Events)', query: requestLogFilters,
      description: 'New entries of the request log as Server-Sent Events (`id:` = the request id, `event: request_log`, `data:` = the entry JSON), a heartbeat comment every 15 s. Counts towards the streams an account may hold (GET /events/stream says how many): 429 beyond.',
      response: {'text/event-stream': {schema: {type: 'string', description: 'An SSE stream: `id: req_...`, `event: request_log`, `data: <RequestLog JSON>`.'}}}, responseDescription: 'The request stream; stays open.'},
  ],
}
