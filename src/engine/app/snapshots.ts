// Snapshots of an account (docs/decisions.md#snapshots): its whole state — objects, events, timeline jobs,
// idempotency records, provider statistics and settings (the test clock among them) — saved as
// one JSON document and loaded back, into the same account or another, in one unit of work. Keys
// and account objects are not part of a snapshot: loading never changes who may call. Nor are
// webhook signing secrets and card numbers, unless asked (docs/decisions.md#secrets-at-rest: core/secrets.ts).
import {invalid} from '../domain/errors.js'
import type {AccountRows} from '../ports/store.js'
import {CLOCK_FROZEN_SETTING, CLOCK_OFFSET_SETTING, clockStateOf} from '../core/clock.js'
import {MAX_ADVANCE_S} from '../../api/clock-steps.js'
import {restoreSecrets, snapshotObject, snapshotSettings} from '../core/secrets.js'
import {newEndpointSecret} from './webhooks.js'
import type {Core} from '../core/core.js'
import {isEngineSetting, RowChecker} from '../core/stored-rows.js'
import type {SnapshotLoad} from '../../api/types.js'
import type {Unit} from '../core/unit.js'

export const SNAPSHOT_FORMAT = 'gw.snapshot'
/** Bumped whenever what a snapshot holds changes shape; older versions are converted or refused by name. */
export const SNAPSHOT_VERSION = 1
/**
 * A loaded snapshot may be this large (request body) unless the operator says otherwise (gw serve
 * --snapshot-max-bytes, docs/decisions.md#large-snapshots): the body is held in memory while it loads.
 */
export const DEFAULT_SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024

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


/** Rows read from the store at a time while a snapshot is saved: a few milliseconds of reading and writing. */
export const SAVED_ROWS = 100

/**
 * The account's state as a snapshot, its JSON text a piece at a time — byte for byte the
 * JSON.stringify of its Snapshot — so a large account's (tens of megabytes) is written out in
 * slices beside other tenants' requests (http/snapshot-out.ts) rather than built, then serialised,
 * in one stretch of seconds. Its own fields first, then its rows, read at one moment a part at a
 * time (AccountStore.exportParts). Without `includeSecrets` it holds no webhook signing secret and
 * no card number but the published test cards' (a snapshot goes into bug reports); with it, both
 * in the clear (core/secrets.ts snapshotObject). Leaving it early (`return()`) ends the reading.
 */
export async function* snapshotJson(core: Core, opts: {includeSecrets?: boolean} = {}): AsyncGenerator<string, void, undefined> {
  const include = opts.includeSecrets === true
  const head: Omit<Snapshot, 'rows'> = {
    object: 'snapshot',
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    account: core.account,
    livemode: core.livemode,
    created_at: new Date().toISOString(),
    engine_time: core.clock.now().toISOString(),
  }
  let text = `${JSON.stringify(head).slice(0, -1)},"rows":{`
  /** the arrays opened so far (each section's, in order, even without rows), and whether the open one has an item */
  let opened = 0
  let items = false
  const openUpTo = (section: (typeof ARRAYS)[number] | 'settings') => {
    const until = section === 'settings' ? ARRAYS.length : ARRAYS.indexOf(section) + 1
    for (; opened < until; opened++) {
      text += `${opened > 0 ? '],' : ''}"${ARRAYS[opened]}":[`
      items = false
    }
  }
  for await (const part of core.store.exportParts(SAVED_ROWS)) {
    if (part.section === 'settings') {
      openUpTo('settings')
      // the engine's own settings (the fleet's, kept with the platform account) are no account's state
      const settings = snapshotSettings(part.value)
      for (const k of Object.keys(settings)) if (isEngineSetting(k)) delete settings[k]
      yield `${text}],"settings":${JSON.stringify(settings)}}}`
      return
    }
    openUpTo(part.section)
    for (const item of part.items) {
      text += `${items ? ',' : ''}${JSON.stringify(part.section === 'objects' ? snapshotObject(item as AccountRows['objects'][number], core.secrets, include) : item)}`
      items = true
    }
    yield text
    text = ''
  }
}

/** The snapshot's own fields (all but its rows), checked before its rows are read: what it is and which version. */
function checkHeader(body: Record<string, unknown>): void {
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

/** A part of a snapshot's rows as a load reads them: a batch of one array's items, or the settings. */
export type SnapshotPart = {section: 'objects' | 'events' | 'jobs' | 'idempotency' | 'stats'; first: number; items: unknown[]} | {section: 'settings'; value: unknown}

/**
 * A snapshot as a load reads it (the HTTP layer makes one of the request body, docs/decisions.md#large-snapshots): its own
 * fields, then its rows — which members `rows` has, and their contents a batch at a time.
 */
export interface SnapshotSource {
  header: Record<string, unknown>
  rows:
    | undefined
    | 'not an object'
    | {
        /** the members of `rows`, in order, and what each is */
        members: ReadonlyMap<string, 'object' | 'array' | 'other'>
        /** the arrays' items in batches and the settings, in the document's order */
        parts(): AsyncIterable<SnapshotPart>
      }
}

/** The sections of a snapshot's rows. */
export const ROW_SECTIONS = ['objects', 'events', 'jobs', 'idempotency', 'stats', 'settings'] as const
const ARRAYS = ['objects', 'events', 'jobs', 'idempotency', 'stats'] as const

/**
 * Replaces the account's rows with a snapshot's, all or nothing. Each row is checked as the API
 * would check it (stored-rows.ts) and the first problem is a 400 naming its place; the rows are
 * written a batch at a time as they are checked, to rows staged aside (StagedRows), and the
 * unit's commit puts them in place of the account's at once — a refused snapshot's staged rows
 * are deleted, and nothing of the account changed. The event loop is given back between batches:
 * other tenants are served while a large snapshot loads.
 */
export async function loadSnapshot(u: Unit, source: SnapshotSource): Promise<SnapshotLoad> {
  checkHeader(source.header)
  const rows = source.rows
  if (rows === undefined || rows === 'not an object') throw invalid('rows', `A snapshot has rows: ${ROW_SECTIONS.join(', ')}.`)
  for (const k of rows.members.keys()) if (!(ROW_SECTIONS as readonly string[]).includes(k)) throw invalid(`rows.${k.slice(0, 60)}`, `rows.${k.slice(0, 60)} is not part of a snapshot's rows (${ROW_SECTIONS.join(', ')}).`)
  for (const k of ARRAYS) if (rows.members.get(k) !== 'array') throw invalid(`rows.${k}`, `rows.${k} must be an array.`)
  if (!rows.members.has('settings')) throw invalid('rows.settings', 'rows.settings must be an object of settings (key: string value).')
  const check = new RowChecker(u.core.destinations)
  const staged = u.core.store.stageRows()
  const counts = {objects: 0, events: 0, jobs: 0, idempotency: 0, stats: 0}
  let settings: Record<string, string> = {}
  let renewed = 0
  // checked rows go to the store in writes of STAGED_ROWS, one write in flight while the next rows are checked
  let gathered: Partial<AccountRows> = {}
  let size = 0
  let writing: Promise<void> = Promise.resolve()
  const write = async (all = false) => {
    if (size < STAGED_ROWS && !all) return
    const part = gathered
    ;[gathered, size] = [{}, 0]
    await writing
    writing = staged.add(part)
  }
  try {
    for await (const part of rows.parts()) {
      await check.prepare(part.section, part.section === 'settings' ? [] : part.items)
      if (part.section === 'settings') {
        check.settings(part.value, 'rows.settings')
        settings = part.value as Record<string, string>
        checkClockMove(settings, u.core.clock.now().getTime())
        gathered.settings = settings
        continue
      }
      const one = CHECK[part.section]
      for (let i = 0; i < part.items.length; i++) one(check, part.items[i], `rows.${part.section}[${part.first + i}]`)
      // signing secrets sealed with this engine's key (a new one where the snapshot has none), stored answers scrubbed
      if (part.section === 'objects' || part.section === 'idempotency')
        renewed += restoreSecrets({objects: [], events: [], jobs: [], idempotency: [], stats: [], settings: {}, [part.section]: part.items} as AccountRows, u.core.secrets, newEndpointSecret, {})
      ;((gathered[part.section] ??= []) as unknown[]).push(...part.items)
      size += part.items.length
      counts[part.section] += part.items.length
      await write()
    }
    await write(true)
    await writing
  } catch (e) {
    await writing.catch(() => {})
    await staged.discard().catch(() => {}) // (the store deletes them later if it cannot now)
    throw e
  }
  u.restoreStaged(staged, settings)
  const clock = clockStateOf(settings)
  return {
    object: 'snapshot_load',
    from_account: String(source.header.account),
    objects: counts.objects,
    events: counts.events,
    jobs: counts.jobs,
    idempotency_keys: counts.idempotency,
    new_webhook_secrets: renewed,
    engine_time: new Date(clock.frozenAtMs ?? Date.now() + clock.offsetMs).toISOString(),
  }
}

/**
 * A load moves the account's clock to the snapshot's: back any distance (a restore puts the
 * account back as it was, its clock with it), forward at most as far as POST
 * /v1/test_helpers/clock may set it (MAX_ADVANCE_S) — the jobs that fall due then run as after a
 * set, and one request is a bounded stretch (docs/api.md#clock-jumps). Further is 400 naming the
 * setting that puts the clock there.
 */
function checkClockMove(settings: Record<string, string>, current: number): void {
  const state = clockStateOf(settings)
  const to = state.frozenAtMs ?? Date.now() + state.offsetMs
  const limit = current + MAX_ADVANCE_S * 1000
  if (to <= limit) return
  const key = `rows.settings.${state.frozenAtMs !== undefined ? CLOCK_FROZEN_SETTING : CLOCK_OFFSET_SETTING}`
  const iso = (ms: number) => new Date(ms).toISOString()
  const days = MAX_ADVANCE_S / 86_400
  throw invalid(
    key,
    `${key} puts the account's clock at ${iso(to)}, more than ${days} days after its engine time now (${iso(current)}): a load moves the clock as far as POST /v1/test_helpers/clock may, at most ${days} days forward (any distance back). Move the account's clock to ${iso(to - MAX_ADVANCE_S * 1000)} or later first (gw clock set --now ${iso(to)} takes the steps), then load the snapshot.`,
  )
}

/** Rows written to the store at once while a snapshot loads: a short write of its own, between others' commits. */
const STAGED_ROWS = 500

/** Each array's check of one row. */
const CHECK: Record<(typeof ARRAYS)[number], (c: RowChecker, row: unknown, at: string) => void> = {
  objects: (c, r, at) => c.object(r, at),
  events: (c, r, at) => c.event(r, at),
  jobs: (c, r, at) => c.job(r, at),
  idempotency: (c, r, at) => c.idempotency(r, at),
  stats: (c, r, at) => c.stat(r, at),
}
