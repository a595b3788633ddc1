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
import {fit, shortTime} from '../format.js'
import type {Column} from './list/columns.js'
import {resourceData} from './list/data.js'
import {newListState, ResourceList, type ListState} from './list/list.js'
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

/** The endpoints' columns: id, the URL (never cut to its scheme and host: it is cut in the middle), health; the last delivery where there is room. */
function endpointColumns(now: Date): Column<EndpointHealth>[] {
  return [
    {title: 'ID', width: (t) => (t >= 100 ? 28 : 22), id: true, cell: (h) => h.endpoint.id},
    {title: 'URL', width: 30, grow: true, id: true, cell: (h) => h.endpoint.url, sort: (h) => h.endpoint.url},
    {title: 'HEALTH', width: (t) => (t >= 100 ? 40 : 26), cell: (h) => healthText(h.endpoint), sort: (h) => healthText(h.endpoint)},
    {title: 'LAST DELIVERY', width: 22, optional: true, cell: (h) => (h.last === null ? 'none yet' : 'error' in h.last ? 'unreadable' : `${lastResult(h.last)} ${shortTime(h.last.created_at, now)}`)},
  ]
}

export function WebhooksView() {
  const {session, theme} = useFrame()
  const res = useResource(useCached('webhooks', () => endpointsResource(session)))
  const st = useCached<ListState>('webhooks:list', newListState)
  const [, rerender] = useState(0)
  // a last delivery's time shows its date once the engine's day is another
  useTickText(() => session.engineNow().toISOString().slice(0, 10))
  const data = resourceData(res, (v) => {
    const words = st.query.trim().toLowerCase().split(/\s+/).filter(Boolean)
    return v.filter((h) => words.every((w) => `${h.endpoint.id} ${h.endpoint.url} ${healthText(h.endpoint)}`.toLowerCase().includes(w)))
  })
  const count = res.value ? ` (${data.rows.length}${st.query ? ` of ${res.value.length}` : ''})` : ''
  return (
    <ResourceList
      state={st}
      data={data}
      columns={endpointColumns(session.engineNow())}
      search={{label: 'Filter', placeholder: 'wh_… · part of the URL · failing · disabled', live: () => rerender((n) => n + 1), describe: (q) => (q ? `Webhook endpoints${count} matching "${q}"` : `Webhook endpoints${count} · / to filter`), apply: () => undefined}}
      open={(h) => ({view: 'webhook', id: h.endpoint.id})}
      idOf={(h) => h.endpoint.id}
      tone={(h) => theme.tone(h.endpoint.disabled ? 'bad' : h.endpoint.status === 'failing' ? 'warn' : 'ok')}
      status=""
      empty={st.query ? `No endpoint matches "${st.query}".` : "No webhook endpoint: gw webhooks create --url https://… --events 'payment.*'"}
    />
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
  const {session, theme, height, width, copy} = useFrame()
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
      if (input === 'c') return copy(id), true
      return false
    },
    [
      ['↑↓', 'scroll'],
      ['R', 'replay since'],
      [d?.endpoint.disabled ? 'E' : 'D', d?.endpoint.disabled ? 'enable' : 'disable'],
      ['c', 'copy id'],
      ['r', 'reload'],
    ],
  )

  const w = {id: width >= 100 ? 36 : 28, type: width >= 100 ? 26 : 20, status: 17, n: 4, at: 10}
  const lastWidth = Math.max(0, width - w.id - w.type - w.status - w.n - w.at)
  return (
    <Box flexDirection="column">
      <Title right={<Age of={res} />}>{`${id}${d ? `  ${healthText(d.endpoint)}` : ''}${busy ? `  · ${busy}…` : ''}`}</Title>
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
