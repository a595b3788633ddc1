// Webhooks: the endpoints with their health (enabled, failing since, disabled and why, the last
// delivery's result and latency), and an endpoint's view: its details as `gw webhooks get` shows
// them and its latest deliveries as `gw webhooks deliveries` does ([chaos] marks included), with
// replay since a time (R) and enable/disable (E/D), each confirmed as the CLI confirms.
import {Box} from 'ink'
import {useState} from 'react'
import type {WebhookDelivery, WebhookEndpoint} from '../../api/types.js'
import {painter} from '../../output/color.js'
import {Text} from '../../ui/text.js'
import {endpointReason, endpointStatus, renderEndpoint} from '../../commands/webhooks/shared/display.js'
import {replayEndpoint, setEndpointDisabled} from '../actions.js'
import {Age, Lines, useAction, moveKey, Problem, Row, Title, useCached, useFrame, useKeys, useResource, useRoute, useTickText} from '../frame.js'
import {fit, fitId, scrollWindow, shortTime} from '../format.js'
import {Resource, type ConsoleSession} from '../session.js'
import {lastResult} from './events.js'

export interface EndpointHealth {
  endpoint: WebhookEndpoint
  /** its newest delivery, or why it could not be read */
  last: WebhookDelivery | null | {error: string}
}

export function endpointsResource(session: ConsoleSession): Resource<EndpointHealth[]> {
  const c = session.client
  return new Resource(
    session,
    async () => {
      const endpoints: WebhookEndpoint[] = []
      for await (const w of c.webhookEndpoints.iterate({limit: 100}, 1000)) endpoints.push(w)
      return Promise.all(
        endpoints.map(async (endpoint) => {
          const r = await session.call(async () => (await c.webhookEndpoints.deliveries(endpoint.id, {limit: 1})).data[0] ?? null)
          if (!r.ok && r.offline) throw r.error
          return {endpoint, last: r.ok ? r.value : {error: r.message}}
        }),
      )
    },
    {refreshMs: 3000},
  )
}

/** The health column: enabled, failing since …, disabled (failing deliveries / on request). */
export function healthText(w: WebhookEndpoint): string {
  const why = endpointReason(w)
  return why ? `${endpointStatus(w)}: ${why}` : endpointStatus(w)
}

export function WebhooksView() {
  const {session, theme, height, width, open} = useFrame()
  const res = useResource(useCached('webhooks', () => endpointsResource(session)))
  // a last delivery's time shows its date once the engine's day is another
  useTickText(() => session.engineNow().toISOString().slice(0, 10))
  const [sel, setSel] = useState(0)
  const [top, setTop] = useState(0)
  const rows = res.value ?? []
  const listHeight = Math.max(1, height - 3)
  const at = Math.min(sel, Math.max(0, rows.length - 1))
  const first = scrollWindow(rows.length, at, listHeight, top)
  if (first !== top) setTop(first)
  const now = session.engineNow()

  useKeys(
    (input, key) => {
      const next = moveKey(input, key, at, rows.length, listHeight)
      if (next !== undefined) return setSel(next), true
      if (key.return && rows[at]) return open({view: 'webhook', id: rows[at]!.endpoint.id}), true
      if (input === 'r') return void res.refresh(), true
      return false
    },
    [
      ['↑↓', 'move'],
      ['Enter', 'open'],
      ['r', 'refresh'],
    ],
  )

  const w = {id: width >= 100 ? 30 : 22, health: width >= 100 ? 46 : 30, last: width >= 100 ? 24 : 20}
  const urlWidth = Math.max(0, width - w.id - w.health - w.last)
  return (
    <Box flexDirection="column">
      <Title right={<Age at={res.at} loading={res.loading} error={res.error} />}>{`Webhook endpoints${res.value ? ` (${rows.length})` : ''}`}</Title>
      <Text bold wrap="truncate">{`${fit('ID', w.id)}${fit('HEALTH', w.health)}${fit('LAST DELIVERY', w.last)}${fit('URL', urlWidth)}`}</Text>
      {res.permission || (res.error && !res.value) ? <Problem message={res.error ?? ''} permission={res.permission} /> : null}
      {res.value && rows.length === 0 ? <Text dimColor>No webhook endpoint: gw webhooks create --url https://… --events 'payment.*'</Text> : null}
      {rows.slice(first, first + listHeight).map((h, i) => {
        const e = h.endpoint
        const last = h.last === null ? 'none yet' : 'error' in h.last ? 'unreadable' : `${lastResult(h.last)} ${shortTime(h.last.created_at, now)}`
        const tone = e.disabled ? 'bad' : e.status === 'failing' ? 'warn' : 'ok'
        return <Row key={e.id} text={`${fitId(e.id, w.id - 1)} ${fit(healthText(e), w.health)}${fit(last, w.last)}${fit(e.url, urlWidth)}`} selected={first + i === at} color={theme.tone(tone)} />
      })}
    </Box>
  )
}

// ----- one endpoint

interface EndpointDetail {
  endpoint: WebhookEndpoint
  deliveries: WebhookDelivery[]
}

export function endpointResource(session: ConsoleSession, id: string): Resource<EndpointDetail> {
  const c = session.client
  return new Resource(
    session,
    async () => {
      const [endpoint, page] = await Promise.all([c.webhookEndpoints.get(id), c.webhookEndpoints.deliveries(id, {limit: 50})])
      return {endpoint, deliveries: page.data}
    },
    {refreshMs: 2000},
  )
}

const plain = painter(false)

export function WebhookView() {
  const {session, theme, height, width} = useFrame()
  const id = useRoute().id!
  const res = useResource(useCached(`webhook:${id}`, () => endpointResource(session, id)))
  const [top, setTop] = useState(0)
  const d = res.value
  const details = d ? renderEndpoint(d.endpoint, plain).split('\n') : []
  const deliveries = d?.deliveries ?? []
  const listHeight = Math.max(1, height - 2 - Math.min(details.length, 8))
  const now = session.engineNow()

  const {busy, act} = useAction(res)

  useKeys(
    (input, key) => {
      if (busy) return true
      const next = moveKey(input, key, top, Math.max(1, deliveries.length - listHeight + 2), listHeight)
      if (next !== undefined) return setTop(next), true
      if (input === 'r') return void res.refresh(), true
      if (!d) return false
      if (input === 'R') return void act('replay', () => replayEndpoint(session, d.endpoint)), true
      if (input === 'E') return void act('enable', () => setEndpointDisabled(session, d.endpoint, false)), true
      if (input === 'D') return void act('disable', () => setEndpointDisabled(session, d.endpoint, true)), true
      return false
    },
    [
      ['↑↓', 'scroll'],
      ['R', 'replay since'],
      [d?.endpoint.disabled ? 'E' : 'D', d?.endpoint.disabled ? 'enable' : 'disable'],
      ['r', 'reload'],
    ],
  )

  const w = {id: width >= 100 ? 36 : 28, type: width >= 100 ? 26 : 20, status: 17, n: 4, at: 10}
  const lastWidth = Math.max(0, width - w.id - w.type - w.status - w.n - w.at)
  return (
    <Box flexDirection="column">
      <Title right={<Age at={res.at} loading={res.loading} error={res.error} />}>{`${id}${d ? `  ${healthText(d.endpoint)}` : ''}${busy ? `  · ${busy}…` : ''}`}</Title>
      {res.permission || (res.error && !d) ? <Problem message={res.error ?? ''} permission={res.permission} /> : null}
      <Lines lines={details.slice(1)} top={0} height={Math.min(details.length, 8) - 1} />
      {d ? (
        <Box flexDirection="column">
          <Text bold wrap="truncate">{`${fit(`DELIVERIES (latest ${deliveries.length})`, w.id)}${fit('TYPE', w.type)}${fit('STATUS', w.status)}${fit('#', w.n)}${fit('LAST RESULT', lastWidth)}${fit('CREATED', w.at)}`}</Text>
          {deliveries.length === 0 ? <Text dimColor>No delivery yet.</Text> : null}
          {deliveries.slice(top, top + listHeight - 1).map((x) => (
            <Row
              key={x.id}
              text={`${fit(`${x.id}${x.chaos ? ' [chaos]' : ''}`, w.id)}${fit(x.event_type, w.type)}${fit(x.status, w.status)}${fit(String(x.attempts.length), w.n)}${fit(lastResult(x), lastWidth)}${fit(shortTime(x.created_at, now), w.at)}`}
              selected={false}
              color={theme.status(x.status === 'undeliverable' ? 'failed' : x.status)}
            />
          ))}
        </Box>
      ) : null}
    </Box>
  )
}
