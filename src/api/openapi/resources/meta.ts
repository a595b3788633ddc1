// What a load balancer and Prometheus ask an instance (at its root, without a key), the
// contract itself, and the body of operations that take none.
import {body, type Family} from '../kit.js'

export const family: Family = {
  requests: () => ({
    Empty: body({}, 'No parameters.'),
  }),
  operations: [
    {id: 'getLiveness', method: 'get', path: '/healthz', tag: 'Operations', summary: 'Liveness: the instance answers', public: true, root: true,
      description: 'Without a key, not rate limited, at the root (not under /v1). 200 while the process runs, its database reachable or not: a balancer restarts an instance that stops answering this.',
      response: {'application/json': {schema: {type: 'object', properties: {status: {type: 'string', const: 'ok'}}, required: ['status'], additionalProperties: false}}}, responseDescription: 'The instance is alive.'},
    {id: 'getReadiness', method: 'get', path: '/readyz', tag: 'Operations', summary: 'Readiness: the instance can serve', public: true, root: true,
      own: {
        '503': {
          description: 'Not ready: the store does not answer, or the instance is stopping.',
          headers: {'Request-Id': {$ref: '#/components/headers/Request-Id'}},
          content: {'application/json': {schema: {type: 'object', properties: {status: {type: 'string', const: 'not_ready'}, reason: {type: 'string'}}, required: ['status', 'reason'], additionalProperties: false}}},
        },
      },
      description: 'Without a key, not rate limited, at the root. 200 when the store answers a read within 2 s and the instance is not stopping; 503 otherwise, with the reason: a balancer sends no traffic to an instance until it is ready.',
      response: {'application/json': {schema: {type: 'object', properties: {status: {type: 'string', const: 'ready'}}, required: ['status'], additionalProperties: false}}}, responseDescription: 'The instance can serve.'},
    {id: 'getMetrics', method: 'get', path: '/metrics', tag: 'Operations', summary: 'Prometheus metrics of the instance', public: true, root: true, errors: [404],
      description: 'Without a key, at the root: the Prometheus text format (requests by operation and status with latency, unit-of-work latency, webhook attempts, backlog per endpoint and its oldest due, due jobs and the oldest lag — the fleet-wide ones from one instance of a fleet at a time —, `gw_store_up`, process metrics under the standard `process_*` and `nodejs_*` names), with no `instance` label (the scraper adds it; `gw_instance_info{instance_id}` names the instance). Serve the port on a private network, or start the instance with `gw serve --metrics-listen HOST:PORT`: the metrics are then served there alone (plain HTTP) and this path is 404.',
      response: {'text/plain': {schema: {type: 'string', description: 'Prometheus exposition format 0.0.4.'}}}, responseDescription: 'The metrics.'},
    {id: 'getOpenApiDocument', method: 'get', path: '/openapi.json', tag: 'Meta', summary: 'This OpenAPI document', public: true,
      description: 'Served without authentication (and not rate limited): the contract is public, and tools fetch it before they hold a key.',
      response: {'application/json': {schema: {type: 'object', description: 'An OpenAPI 3.1 document.', required: ['openapi', 'info', 'paths'], properties: {openapi: {type: 'string', pattern: '^3\\.1\\.'}, info: {type: 'object'}, paths: {type: 'object'}}}}},
      responseDescription: 'The OpenAPI 3.1 document.'},
  ],
}
