// Snapshots of an account (issue 27): its whole state — objects, events, timeline jobs,
// idempotency records, provider statistics and settings (the test clock among them) — saved as
// one JSON document and loaded back, into the same account or another, in one unit of work. Keys
// and account objects are not part of a snapshot: loading never changes who may call.
import {invalid} from '../domain/errors.js'
import type {AccountRows} from '../ports/store.js'
import {clockStateOf} from './clock.js'
import type {Core} from './core.js'
import {isEngineSetting, RowChecker} from './stored-rows.js'
import type {SnapshotLoad} from '../../api/types.js'
import type {Unit} from './unit.js'

export const SNAPSHOT_FORMAT = 'gw.snapshot'
/** Bumped whenever what a snapshot holds changes shape; older versions are converted or refused by name. */
export const SNAPSHOT_VERSION = 1
/** A loaded snapshot may be this large (request body). */
export const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024

export interface Snapshot {
  object: 'snapshot'
  format: typeof SNAPSHOT_FORMAT
  version: number
  /** the account it was saved from */
  account: string
  livemode: boolean
  /** wall-clock time of the save */
  created_at: string
  /** the account's engine clock at the save (the clock is restored with the settings) */
  engine_time: string
  rows: AccountRows
}


export async function saveSnapshot(core: Core): Promise<Snapshot> {
  const rows = await core.store.exportRows()
  // the engine's own settings (the fleet's, kept with the platform account) are no account's state
  for (const k of Object.keys(rows.settings)) if (isEngineSetting(k)) delete rows.settings[k]
  return {
    object: 'snapshot',
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    account: core.account,
    livemode: core.livemode,
    created_at: new Date().toISOString(),
    engine_time: core.clock.now().toISOString(),
    rows,
  }
}

/** The snapshot's own fields (all but its rows), checked before its rows are read: what it is and which version. */
export function checkHeader(body: Record<string, unknown>): void {
  if (body.format !== SNAPSHOT_FORMAT) throw invalid('format', `This is not a gw snapshot (format must be '${SNAPSHOT_FORMAT}'); save one with gw snapshots save FILE.`)
  if (body.version !== SNAPSHOT_VERSION)
    throw invalid(
      'version',
      typeof body.version === 'number' && body.version > SNAPSHOT_VERSION
        ? `This snapshot is version ${body.version}, made by a newer gw; this engine reads version ${SNAPSHOT_VERSION}. Upgrade gw to load it.`
        : `Snapshot version ${String(body.version)} is not one this engine reads (version ${SNAPSHOT_VERSION}).`,
    )
  if (body.livemode === true) throw invalid('livemode', 'Snapshots are of test mode data only.')
  if (body.account !== undefined && (typeof body.account !== 'string' || !/^acct_[0-9A-Za-z]+$/.test(body.account))) throw invalid('account', 'account must be the id (acct_...) of the account the snapshot was saved from.')
}

export async function loadSnapshot(u: Unit, body: Record<string, unknown>): Promise<SnapshotLoad> {
  checkHeader(body)
  const rows = checkRows(body.rows, new RowChecker(u.core.destinations))
  u.restore(rows)
  return loaded(String(body.account), rows)
}

/** What a load answers. */
function loaded(from: string, rows: AccountRows): SnapshotLoad {
  const clock = clockStateOf(rows.settings)
  return {
    object: 'snapshot_load',
    from_account: from,
    objects: rows.objects.length,
    events: rows.events.length,
    jobs: rows.jobs.length,
    idempotency_keys: rows.idempotency.length,
    engine_time: new Date(clock.frozenAtMs ?? Date.now() + clock.offsetMs).toISOString(),
  }
}

/** The sections of a snapshot's rows, in the order they are read. */
export const ROW_SECTIONS = ['objects', 'events', 'jobs', 'idempotency', 'stats', 'settings'] as const

/**
 * The rows, checked before anything is written (stored-rows.ts: every row as the API would check
 * it): a bad snapshot is a 400 naming the first bad place, never a half-loaded account.
 */
function checkRows(raw: unknown, check: RowChecker): AccountRows {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('rows', 'A snapshot has rows: objects, events, jobs, idempotency, stats and settings.')
  const r = raw as Record<string, unknown>
  for (const k of Object.keys(r)) if (!(ROW_SECTIONS as readonly string[]).includes(k)) throw invalid(`rows.${k}`, `rows.${k} is not part of a snapshot's rows (${ROW_SECTIONS.join(', ')}).`)
  for (const k of ROW_SECTIONS.slice(0, 5)) if (!Array.isArray(r[k])) throw invalid(`rows.${k}`, `rows.${k} must be an array.`)
  ;(r.objects as unknown[]).forEach((o, i) => check.object(o, `rows.objects[${i}]`))
  ;(r.events as unknown[]).forEach((e, i) => check.event(e, `rows.events[${i}]`))
  ;(r.jobs as unknown[]).forEach((j, i) => check.job(j, `rows.jobs[${i}]`))
  ;(r.idempotency as unknown[]).forEach((x, i) => check.idempotency(x, `rows.idempotency[${i}]`))
  ;(r.stats as unknown[]).forEach((x, i) => check.stat(x, `rows.stats[${i}]`))
  check.settings(r.settings, 'rows.settings')
  return r as unknown as AccountRows
}
