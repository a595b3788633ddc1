// Disputes: the queue by due date (every page of it read, so the soonest due is first even when
// it was opened long ago), and a dispute's view: the CLI's own detail with the reason's evidence
// checklist, the evidence form `gw disputes evidence` opens (a paste keeps every line; a review
// before anything is sent), accept, and the outcome once the ruling comes (read again every few
// seconds: a clock advance or a ruling shows without a key).
import {Box} from 'ink'
import {useRef, useState} from 'react'
import type {Dispute} from '../../api/types.js'
import type {EvidenceParams} from '../../client/params.js'
import {painter} from '../../output/color.js'
import {Text} from '../../ui/text.js'
import {renderDispute, timeLeft, type AttachedFacts} from '../../commands/disputes/shared/display.js'
import {attachedFacts, notActionableReason} from '../../commands/disputes/shared/disputes.js'
import {EvidenceForm} from '../../commands/disputes/shared/evidence-form.js'
import {acceptDispute, submitEvidence} from '../actions.js'
import {Age, LineInput, useAction, useTextField, Lines, moveKey, Problem, Row, Title, useCached, useFrame, useKeys, useResource, useRoute, useTickText} from '../frame.js'
import {fit, fitId, money, scrollWindow} from '../format.js'
import {disputeQueue} from '../models/queue.js'
import {Resource, type ConsoleSession} from '../session.js'

/** Most disputes read for the queue (the API pages them 100 at a time). */
const QUEUE_MAX = 5000

function queueResource(session: ConsoleSession, all: boolean): Resource<{disputes: Dispute[]; capped: boolean}> {
  return new Resource(
    session,
    async () => {
      const disputes: Dispute[] = []
      for await (const d of session.client.disputes.iterate({...(all ? {} : {status: 'needs_response' as const}), limit: 100}, QUEUE_MAX)) disputes.push(d)
      return {disputes, capped: disputes.length >= QUEUE_MAX}
    },
    {refreshMs: 5000},
  )
}

interface QueueState {
  all: boolean
  filter: string
  sel: number
  top: number
}

export function DisputesView() {
  const {session, theme, height, width, open} = useFrame()
  const st = useCached<QueueState>('disputes', () => ({all: false, filter: '', sel: 0, top: 0}))
  const res = useResource(useCached(`disputes:${st.all ? 'all' : 'open'}`, () => queueResource(session, st.all)))
  const [, rerender] = useState(0)
  const field = useTextField()
  const editing = field.editing
  const rows = res.value ? disputeQueue(res.value.disputes, {all: st.all, filter: st.filter}) : []
  // the time left of each row, and whether it is under a day: a redraw when one reads differently
  useTickText(() => {
    const t = session.engineNow()
    return rows.map((d) => `${timeLeft(d, t)}${d.evidence_due_by && Date.parse(d.evidence_due_by) - t.getTime() < 86_400_000 ? '!' : ''}`).join(',')
  })
  const now = session.engineNow()
  const listHeight = Math.max(1, height - 4)
  const sel = Math.min(st.sel, Math.max(0, rows.length - 1))
  const first = scrollWindow(rows.length, sel, listHeight, st.top)
  st.top = first
  const update = (f: () => void) => {
    f()
    rerender((n) => n + 1)
  }

  useKeys(
    (input, key) => {
      if (field.keys(input, key)) return true
      if (input === 'a') return update(() => ((st.all = !st.all), (st.sel = 0))), true
      const next = moveKey(input, key, sel, rows.length, listHeight)
      if (next !== undefined) return update(() => (st.sel = next)), true
      if (key.return && rows[sel]) return open({view: 'dispute', id: rows[sel]!.id}), true
      if (input === 'r') return void res.refresh(), true
      return false
    },
    editing
      ? [
          ['Enter', 'filter'],
          ['Esc', 'cancel'],
        ]
      : [
          ['↑↓', 'move'],
          ['Enter', 'open'],
          ['/', 'filter'],
          ['a', st.all ? 'only needing a response' : 'all disputes'],
          ['r', 'reload'],
        ],
  )

  // 80 columns: id, time left, amount, reason, stage; the payment where there is room
  const w = {id: 18, left: 14, amount: 13, stage: 16}
  const payWidth = width >= 110 ? Math.min(30, width - 80) : 0
  const reasonWidth = Math.max(8, width - w.id - w.left - w.amount - w.stage - payWidth)
  const head = `${fit('ID', w.id)}${fit('TIME LEFT', w.left)}${fit('AMOUNT', w.amount)}${fit('REASON', reasonWidth)}${fit('STAGE', w.stage)}${fit('PAYMENT', payWidth)}`
  const scope = st.all ? 'every dispute: those needing a response first, by due date' : 'needing a response, soonest due first'
  return (
    <Box flexDirection="column">
      <Box>
        <Box flexShrink={0}>
          <Text bold>{'Filter '}</Text>
        </Box>
        {editing ? (
          <LineInput
            initial={st.filter}
            placeholder="dp_… · pay_… · reason · status · stage"
            onSubmit={(v) => {
              field.stop()
              update(() => ((st.filter = v), (st.sel = 0)))
            }}
          />
        ) : (
          <Box justifyContent="space-between" flexGrow={1}>
            <Box flexShrink={1}>
              <Text dimColor wrap="truncate">{st.filter ? `"${st.filter}" · ${scope}` : scope}</Text>
            </Box>
            <Age at={res.at} loading={res.loading} error={res.error} />
          </Box>
        )}
      </Box>
      <Text bold wrap="truncate">
        {head}
      </Text>
      {res.permission || (res.error && !res.value) ? <Problem message={res.error ?? ''} permission={res.permission} /> : null}
      {res.value && rows.length === 0 ? <Text dimColor>{st.filter ? `No dispute matches "${st.filter}".` : st.all ? 'No disputes.' : 'No dispute needs a response. (a: all disputes)'}</Text> : null}
      {rows.slice(first, first + listHeight).map((d, i) => {
        const left = timeLeft(d, now)
        const soon = d.evidence_due_by ? Date.parse(d.evidence_due_by) - now.getTime() < 86_400_000 : false
        const tone = left.startsWith('overdue') ? theme.tone('bad') : d.status === 'needs_response' && soon ? theme.tone('warn') : d.status === 'needs_response' ? undefined : theme.status(d.status)
        const text = `${fitId(d.id, w.id - 1)} ${fit(d.status === 'needs_response' ? left : d.status, w.left)}${fit(money(d.amount, d.currency), w.amount - 1, 'right')} ${fit(d.reason, reasonWidth)}${fit(d.stage, w.stage)}${fit(d.payment, payWidth)}`
        return <Row key={d.id} text={text} selected={first + i === sel} color={first + i === sel ? undefined : tone} />
      })}
      <Text dimColor wrap="truncate">
        {res.value ? `${rows.length} ${rows.length === 1 ? 'dispute' : 'disputes'}${res.value.capped ? ` (the first ${QUEUE_MAX.toLocaleString('en-US')} read)` : ''}` : ''}
      </Text>
    </Box>
  )
}

// ----- one dispute

interface DisputeDetail {
  dispute: Dispute
  facts: AttachedFacts | undefined
}

function disputeResource(session: ConsoleSession, id: string): Resource<DisputeDetail> {
  return new Resource(
    session,
    async () => {
      const dispute = await session.client.disputes.get(id)
      return {dispute, facts: await attachedFacts(session.client, dispute)}
    },
    {refreshMs: 3000},
  )
}

const plain = painter(false)

/** What the outcome means for the money, once the dispute is closed. */
export function outcomeLine(dp: Dispute): string | undefined {
  const amount = money(dp.amount, dp.currency)
  if (dp.status === 'won') return `Won: ${amount} returns to the balance.`
  if (dp.status === 'lost') return `Lost${dp.closed_by === 'deadline' ? ' (the deadline passed unanswered)' : ''}: the debit of ${amount} stands.`
  if (dp.status === 'accepted') return `Accepted: the debit of ${amount} stands.`
  if (dp.status === 'under_review') return `Under review at the ${dp.stage} stage: the issuer rules next; this view follows it.`
  return undefined
}

export function DisputeView() {
  const {session, theme, height, width, open, setCapture} = useFrame()
  const id = useRoute().id!
  const res = useResource(useCached(`dispute:${id}`, () => disputeResource(session, id)))
  const [top, setTop] = useState(0)
  const [form, setForm] = useState(false)
  /** what the form gave (it calls onDone, then onLeave once its last frame is drawn) */
  const answer = useRef<EvidenceParams | null>(null)
  const dp = res.value?.dispute
  // the dispute's text reads the engine clock (time left, overdue): a redraw when it reads differently
  useTickText(() => (dp ? renderDispute(dp, session.engineNow(), plain, res.value?.facts) : ''))
  const now = session.engineNow()
  const lines = dp ? renderDispute(dp, now, plain, res.value?.facts).split('\n') : []
  const page = Math.max(1, height - 3)
  const outcome = dp ? outcomeLine(dp) : undefined

  const {busy, act} = useAction(res)

  useKeys(
    (input, key) => {
      if (form || busy) return true
      const next = moveKey(input, key, top, Math.max(1, lines.length - page + 1), page)
      if (next !== undefined) return setTop(next), true
      if (input === 'r') return void res.refresh(), true
      if (!dp) return false
      if (input === 'p') return open({view: 'payment', id: dp.payment}), true
      if (input === 'e') {
        const why = notActionableReason(dp)
        if (why) return session.flash(why, 'warn'), true
        if (!session.may('disputes:write')) return session.flash('This key may not answer disputes: it needs disputes:write.', 'warn'), true
        answer.current = null
        setForm(true)
        setCapture(true)
        return true
      }
      if (input === 'A') return void act('accepting', () => acceptDispute(session, dp)), true
      return false
    },
    form
      ? [['Esc', 'leave the form (it asks first)']]
      : [
          ['↑↓', 'scroll'],
          ['e', 'answer (evidence)'],
          ['A', 'accept'],
          ['p', 'payment'],
          ['r', 'reload'],
        ],
  )

  if (form && dp) {
    return (
      <EvidenceForm
        dispute={dp}
        now={now}
        facts={res.value?.facts}
        height={height}
        width={width}
        onDone={(result) => (answer.current = result)}
        onLeave={() => {
          setForm(false)
          setCapture(false)
          const result = answer.current
          answer.current = null
          if (result) void act('submitting evidence', () => submitEvidence(session, dp, result))
          else session.flash('Canceled; no evidence was submitted.', 'warn')
        }}
      />
    )
  }

  return (
    <Box flexDirection="column">
      <Title right={<Age at={res.at} loading={res.loading} error={res.error} />}>{dp ? `${dp.id}  ${dp.status}  ${money(dp.amount, dp.currency)}  ${dp.reason}` : id}</Title>
      {busy ? <Text color={theme.tone('info')}>{`${busy}…`}</Text> : null}
      {outcome ? (
        <Text bold color={theme.status(dp!.status)} wrap="truncate">
          {outcome}
        </Text>
      ) : null}
      {res.permission || (res.error && !dp) ? <Problem message={res.error ?? ''} permission={res.permission} /> : null}
      <Lines lines={lines} top={top} height={page - (outcome ? 1 : 0)} />
    </Box>
  )
}
