// Home: what needs attention now, each line one Enter away from what it is about.
import {Box} from 'ink'
import {useState} from 'react'
import {Text} from '../../ui/text.js'
import {clockAheadNotice} from '../../commands/disputes/shared/disputes.js'
import {Age, moveKey, Row, Title, useCached, useFrame, useKeys, useResource, useTickText} from '../frame.js'
import {fit, scrollWindow} from '../format.js'
import {attentionLines, type AttentionData, type Part} from '../models/attention.js'
import {Resource, type ConsoleSession, type Outcome} from '../session.js'

/** An outcome as a section's part; an unreachable engine fails the whole read (the last one stays shown). */
export function part<T>(o: Outcome<T>): Part<T> {
  if (o.ok) return o
  if (o.offline) throw o.error
  return {ok: false, message: o.message, permission: o.permission}
}

export function attentionResource(session: ConsoleSession): Resource<AttentionData> {
  const c = session.client
  return new Resource(
    session,
    async () => {
      const [disputes, endpoints, providers, chaos, review] = await Promise.all([
        session.call(async () => {
          const all = []
          for await (const d of c.disputes.iterate({status: 'needs_response', limit: 100}, 1000)) all.push(d)
          return all
        }),
        session.call(async () => (await c.webhookEndpoints.list({limit: 100})).data),
        session.call(async () => (await c.providers.list({limit: 100})).data),
        session.mode === 'live' ? Promise.resolve({ok: true as const, value: []}) : session.call(async () => (await c.chaos.list()).data),
        session.call(async () => (await c.payments.list({status: 'processing', limit: 100})).data),
      ])
      return {disputes: part(disputes), endpoints: part(endpoints), providers: part(providers), chaos: part(chaos), review: part(review)}
    },
    {refreshMs: 5000},
  )
}

function homeNotice(session: ConsoleSession): string | undefined {
  return session.clock.source === 'wall' && session.clock.note ? `Times left use the wall clock: ${session.clock.note}.` : clockAheadNotice(session.engineNow(), new Date(session.now()))
}

export function HomeView() {
  const {session, theme, height, width, open} = useFrame()
  const res = useResource(useCached('home', () => attentionResource(session)))
  // times left ("due in 2h"): a redraw when one reads differently
  useTickText(() => (res.value ? attentionLines(res.value, session.engineNow()).map((l) => l.text).join('\n') : '') + homeNotice(session))
  const [sel, setSel] = useState(0)
  const [top, setTop] = useState(0)
  const now = session.engineNow()
  const lines = res.value ? attentionLines(res.value, now) : []
  const openable = lines.map((l, i) => (l.route ? i : -1)).filter((i) => i >= 0)
  const at = openable[Math.min(sel, openable.length - 1)] ?? -1
  const notice = homeNotice(session)
  const listHeight = Math.max(1, height - 2 - (notice ? 1 : 0))
  const first = scrollWindow(lines.length, Math.max(0, at), listHeight, top)
  if (first !== top) setTop(first)

  useKeys(
    (input, key) => {
      const next = moveKey(input, key, sel, openable.length, Math.max(1, Math.floor(listHeight / 2)))
      if (next !== undefined) return void setSel(next), true
      if (key.return && at >= 0) return void open(lines[at]!.route!), true
      if (input === 'r') return void res.refresh(), true
      return false
    },
    [
      ['↑↓', 'move'],
      ['Enter', 'open'],
      ['r', 'refresh'],
    ],
  )

  return (
    <Box flexDirection="column">
      <Title right={<Age of={res} />}>Needs attention now</Title>
      {notice ? (
        <Text color={theme.tone('warn')} wrap="truncate">
          {notice}
        </Text>
      ) : null}
      {res.error && !res.value ? <Text color={theme.tone('bad')}>{res.error}</Text> : null}
      {lines.slice(first, first + listHeight).map((l, i) => (
        <Row key={first + i} text={fit(l.text, width)} selected={first + i === at} color={l.heading ? undefined : l.tone ? theme.tone(l.tone) : undefined} dim={l.tone === 'muted'} bold={l.heading} />
      ))}
    </Box>
  )
}
