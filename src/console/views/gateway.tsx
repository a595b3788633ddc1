// Gateway (operators): each instance seen in the request log with its last minute (req/s,
// p50/p99, 5xx), its readiness and when it was last seen; the base URL's readiness; providers'
// health and authorization rate; this account's webhook backlog; chaos rules active. Live: the
// monitor batches the stream's entries (a redraw at most every 100 ms) and a second's tick ages
// what is shown; each line is a memoized row, so only lines whose text changed are redrawn.
import {Box} from 'ink'
import {useState} from 'react'
import type {ChaosRule, Provider} from '../../api/types.js'
import {Age, moveKey, Row, Title, useCached, useEmitter, useFrame, useKeys, useResource, useTickText} from '../frame.js'
import {fit} from '../format.js'
import {GatewayMonitor} from '../gateway-monitor.js'
import {gatewayLines} from '../models/gateway.js'
import {Resource} from '../session.js'
import type {Part} from '../models/attention.js'

const asPart = <T,>(r: Resource<T>): Part<T> | undefined =>
  r.value !== undefined ? {ok: true, value: r.value} : r.error ? {ok: false, message: r.error, permission: r.permission} : undefined

export function GatewayView() {
  const {session, theme, height, width} = useFrame()
  const monitor = useCached('gateway:monitor', () => new GatewayMonitor(session))
  useEmitter(monitor)
  useEmitter(session)
  const providers = useResource(useCached('gateway:providers', () => new Resource<Provider[]>(session, async () => (await session.client.providers.list({limit: 100})).data, {refreshMs: 5000})))
  const chaos = useResource(
    useCached('gateway:chaos', () => new Resource<ChaosRule[]>(session, async () => (session.mode === 'live' ? [] : (await session.client.chaos.list()).data), {refreshMs: 5000})),
  )
  const [top, setTop] = useState(0)
  const linesNow = () =>
    gatewayLines({
      now: session.now(),
      since: monitor.window.since,
      host: session.host,
      base: monitor.base,
      instances: monitor.rows(),
      stream: monitor.stream,
      providers: asPart(providers),
      backlog: monitor.backlog,
      chaos: session.mode === 'live' ? undefined : asPart(chaos),
      self: monitor.self,
      outage: session.outage,
    })
  // its ages and rates over the last minute: a redraw when one reads differently
  useTickText(() => linesNow().map((l) => l.text).join('\n'))
  const lines = linesNow()
  const listHeight = Math.max(1, height - 1)
  const first = Math.min(top, Math.max(0, lines.length - listHeight))

  useKeys(
    (input, key) => {
      // the view is a report: the keys scroll it
      const next = moveKey(input, key, first, Math.max(1, lines.length - listHeight + 1), Math.max(1, Math.floor(listHeight / 2)))
      if (next !== undefined) return void setTop(next), true
      if (input === 'r') {
        void providers.refresh()
        void chaos.refresh()
        void monitor.probeAll()
        void monitor.readMetrics()
        return true
      }
      return false
    },
    [
      ['↑↓', 'scroll'],
      ['r', 'refresh'],
    ],
  )

  return (
    <Box flexDirection="column">
      <Title right={<Age of={providers} />}>Gateway</Title>
      {lines.slice(first, first + listHeight).map((l, i) => (
        <Row key={first + i} text={fit(l.text, width)} selected={false} color={l.heading ? undefined : l.tone ? theme.tone(l.tone) : undefined} dim={l.tone === 'muted'} bold={l.heading} />
      ))}
    </Box>
  )
}
