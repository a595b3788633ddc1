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
import {disputeStatus} from '../../commands/disputes/shared/status.js'
import {attachedFacts, notActionableReason} from '../../commands/disputes/shared/disputes.js'
import {EvidenceForm} from '../../commands/disputes/shared/evidence-form.js'
import {acceptDispute, submitEvidence} from '../actions.js'
import {Age, useAction, Lines, moveKey, Problem, Title, useCached, useFrame, useKeys, useResource, useRoute, useTickText} from '../frame.js'
import {money} from '../format.js'
import type {Column} from './list/columns.js'
import {resourceData} from './list/data.js'
import {newListState, ResourceList, type ListState} from './list/list.js'
import {disputeQueue} from '../models/queue.js'
import {ageText, Resource, type ConsoleSession} from '../session.js'
import {draftSummary, type EvidenceDraft, type SavedDraft} from '../drafts.js'

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

interface QueueState extends ListState {
  all: boolean
}

/** 80 columns: id, time left, amount, reason, stage; the payment where there is room. */
function queueColumns(now: Date): Column<Dispute>[] {
  return [
    // a dispute's id whole where there is room (28 cells): an agent tells them apart and copies them
    {title: 'ID', width: (total) => (total >= 100 ? 28 : 18), id: true, cell: (d) => d.id},
    // a closed dispute's status as the CLI says it: `lost (deadline missed)`
    {title: 'TIME LEFT', width: (total) => (total >= 100 ? 24 : 14), cell: (d) => (d.status === 'needs_response' ? timeLeft(d, now) : disputeStatus(d, plain)), sort: (d) => d.evidence_due_by ?? ''},
    {title: 'AMOUNT', width: 13, align: 'right', cell: (d) => money(d.amount, d.currency), sort: (d) => d.amount},
    {title: 'REASON', width: 8, grow: true, cell: (d) => d.reason, sort: (d) => d.reason},
    {title: 'STAGE', width: 16, optional: true, cell: (d) => d.stage},
    {title: 'PAYMENT', width: (total) => (total >= 110 ? Math.min(30, total - 80) : 0), optional: true, cell: (d) => d.payment},
  ]
}

export function DisputesView() {
  const {session, theme} = useFrame()
  const st = useCached<QueueState>('disputes', () => ({...newListState(), all: false}))
  const res = useResource(useCached(`disputes:${st.all ? 'all' : 'open'}`, () => queueResource(session, st.all)))
  const [, rerender] = useState(0)
  const data = resourceData(res, (v) => disputeQueue(v.disputes, {all: st.all, filter: st.query}))
  const rows = data.rows
  // the time left of each row, and whether it is under a day: a redraw when one reads differently
  useTickText(() => {
    const t = session.engineNow()
    return rows.map((d) => `${timeLeft(d, t)}${d.evidence_due_by && Date.parse(d.evidence_due_by) - t.getTime() < 86_400_000 ? '!' : ''}`).join(',')
  })
  const now = session.engineNow()
  const tone = (d: Dispute) => {
    const soon = d.evidence_due_by ? Date.parse(d.evidence_due_by) - now.getTime() < 86_400_000 : false
    return timeLeft(d, now).startsWith('overdue') ? theme.tone('bad') : d.status === 'needs_response' && soon ? theme.tone('warn') : d.status === 'needs_response' ? undefined : theme.status(d.status)
  }
  const scope = st.all ? 'every dispute: those needing a response first, by due date' : 'needing a response, soonest due first'
  return (
    <ResourceList
      state={st}
      data={data}
      columns={queueColumns(now)}
      search={{label: 'Filter', placeholder: 'dp_… · pay_… · reason · status · stage', live: () => rerender((n) => n + 1), describe: (q) => (q ? `"${q}" · ${scope}` : scope), apply: () => undefined}}
      open={(d) => ({view: 'dispute', id: d.id})}
      idOf={(d) => d.id}
      tone={tone}
      status={res.value ? `${rows.length} ${rows.length === 1 ? 'dispute' : 'disputes'}${res.value.capped ? ` (the first ${QUEUE_MAX.toLocaleString('en-US')} read)` : ''}` : ''}
      empty={st.query ? `No dispute matches "${st.query}".` : st.all ? 'No disputes.' : 'No dispute needs a response. (a: all disputes)'}
      keys={{
        handle(input) {
          if (input !== 'a') return false
          st.all = !st.all
          st.sel = 0
          rerender((n) => n + 1)
          return true
        },
        footer: [['a', st.all ? 'only needing a response' : 'all disputes']],
      }}
    />
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

/** Keeps what the form holds as the dispute's draft; a draft that cannot be written is said once. */
function keepDraft(session: ConsoleSession, id: string, d: EvidenceDraft): void {
  try {
    session.drafts.save(id, d)
  } catch (error) {
    session.flash(`Your draft could not be kept on disk (${(error as Error).message}): it lives while the console runs.`, 'warn')
  }
}

/** Sends the evidence; sent, its draft goes; not sent, the draft stays and the message says so. */
async function sendEvidence(session: ConsoleSession, dp: Dispute, ev: EvidenceParams): Promise<string> {
  try {
    return await submitEvidence(session, dp, ev, () => session.drafts.remove(dp.id))
  } catch (error) {
    throw new Error(`${(error as Error).message} Your evidence is kept as a draft: press e to review it and send it again.`)
  }
}

/** Why the review cannot send now: the banner says the engine cannot be reached. */
function offlineHold(session: ConsoleSession): string | undefined {
  if (session.connection.state === 'reconnecting') return 'The engine cannot be reached (see the banner): nothing was sent. Your evidence is kept as a draft; press y again once the banner is gone.'
  if (session.outage) return 'The engine answers but cannot serve now (see the banner): nothing was sent. Your evidence is kept as a draft; press y again once the banner is gone.'
  return undefined
}

/** The form's notice when a draft is taken up again. */
function draftNotice(d: SavedDraft, now: number): string {
  return `Your draft, kept ${ageText(d.saved_at, now)}: ${draftSummary(d)}. It goes on from here (Esc, then y, discards it).`
}

export function DisputeView() {
  const {session, theme, height, width, open, setCapture, setForm, quit, copy} = useFrame()
  const id = useRoute().id!
  const res = useResource(useCached(`dispute:${id}`, () => disputeResource(session, id)))
  const [top, setTop] = useState(0)
  const [form, setFormState] = useState<{draft: SavedDraft | undefined} | null>(null)
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
      if (input === 'c') return copy(id), true
      if (!dp) return false
      if (input === 'p') return open({view: 'payment', id: dp.payment}), true
      if (input === 'e') {
        const why = notActionableReason(dp)
        if (why) return session.flash(why, 'warn'), true
        if (!session.may('disputes:write')) return session.flash('This key may not answer disputes: it needs disputes:write.', 'warn'), true
        answer.current = null
        setFormState({draft: session.drafts.load(dp.id)})
        setCapture(true)
        setForm(true)
        return true
      }
      if (input === 'A') return void act('accepting', () => acceptDispute(session, dp)), true
      return false
    },
    form
      ? [['Esc', 'leave the form (it asks first)']]
      : [
          ['↑↓', 'scroll'],
          // answer and accept only while it needs a response (a won dispute has nothing to accept)
          ...(dp && !notActionableReason(dp) ? [['e', 'answer (evidence)'] as const, ['A', 'accept'] as const] : []),
          ['p', 'payment'],
          ['c', 'copy id'],
          ['r', 'reload'],
        ],
  )

  if (form && dp) {
    const draft = form.draft
    return (
      <EvidenceForm
        dispute={dp}
        now={now}
        facts={res.value?.facts}
        height={height}
        width={width}
        initial={draft}
        notice={draft ? draftNotice(draft, session.now()) : undefined}
        onChange={(d) => keepDraft(session, dp.id, d)}
        onDiscard={() => session.drafts.remove(dp.id)}
        holdSubmit={() => offlineHold(session)}
        onInterrupt={quit}
        onDone={(result) => (answer.current = result)}
        onLeave={() => {
          setFormState(null)
          setCapture(false)
          setForm(false)
          const result = answer.current
          answer.current = null
          if (result) void act('submitting evidence', () => sendEvidence(session, dp, result))
          else session.flash(`Canceled; no evidence was submitted.${session.drafts.load(dp.id) ? ' What you entered is kept as a draft (e goes on from it).' : ''}`, 'warn')
        }}
      />
    )
  }

  return (
    <Box flexDirection="column">
      <Title right={<Age of={res} />}>{dp ? `${dp.id}  ${dp.status}  ${money(dp.amount, dp.currency)}  ${dp.reason}` : id}</Title>
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
