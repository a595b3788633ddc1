// Snapshots of an account (issue 27): its whole state — objects, events, timeline jobs,
// idempotency records, provider statistics and settings (the test clock among them) — saved as
// one JSON document and loaded back, into the same account or another, in one unit of work. Keys
// and account objects are not part of a snapshot: loading never changes who may call. Nor are
// webhook signing secrets and card numbers, unless asked (issue 33: app/secrets.ts).
import {invalid} from '../domain/errors.js'
import {KINDS, PLATFORM_ACCOUNT, type AccountRows, type Kind} from '../ports/store.js'
import {restoreSecrets, secretsSettings, snapshotSecrets} from './secrets.js'
import {newEndpointSecret} from './webhooks.js'
import type {Core} from './core.js'
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


/**
 * The account's state as a snapshot. Without `includeSecrets` it holds no webhook signing secret
 * and no card number but the published test cards' (a snapshot goes into bug reports); with it,
 * both in the clear (app/secrets.ts snapshotSecrets).
 */
export async function saveSnapshot(core: Core, opts: {includeSecrets?: boolean} = {}): Promise<Snapshot> {
  const rows = snapshotSecrets(await core.store.exportRows(), core.secrets, opts.includeSecrets === true)
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

export async function loadSnapshot(u: Unit, body: Record<string, unknown>): Promise<SnapshotLoad> {
  if (body.format !== SNAPSHOT_FORMAT) throw invalid('format', `This is not a gw snapshot (format must be '${SNAPSHOT_FORMAT}'); save one with gw snapshots save FILE.`)
  if (body.version !== SNAPSHOT_VERSION)
    throw invalid(
      'version',
      typeof body.version === 'number' && body.version > SNAPSHOT_VERSION
        ? `This snapshot is version ${body.version}, made by a newer gw; this engine reads version ${SNAPSHOT_VERSION}. Upgrade gw to load it.`
        : `Snapshot version ${String(body.version)} is not one this engine reads (version ${SNAPSHOT_VERSION}).`,
    )
  if (body.livemode === true) throw invalid('livemode', 'Snapshots are of test mode data only.')
  const rows = checkRows(body.rows)
  // signing secrets sealed with this engine's key, a new one where the snapshot has none
  const keep = u.core.account === PLATFORM_ACCOUNT ? await secretsSettings(u.core.store) : {}
  const renewed = restoreSecrets(rows, u.core.secrets, newEndpointSecret, keep)
  u.restore(rows)
  const offset = Number(rows.settings['clock_offset_ms'] ?? '0')
  return {
    object: 'snapshot_load',
    from_account: String(body.account),
    objects: rows.objects.length,
    events: rows.events.length,
    jobs: rows.jobs.length,
    idempotency_keys: rows.idempotency.length,
    new_webhook_secrets: renewed,
    engine_time: new Date(Date.now() + offset).toISOString(),
  }
}

/** The rows' shape, checked before anything is written: a bad snapshot is a 400 naming the place, never a half-loaded account. */
function checkRows(raw: unknown): AccountRows {
  const r = raw as Partial<AccountRows> | null
  if (!r || typeof r !== 'object') throw invalid('rows', 'A snapshot has rows: objects, events, jobs, idempotency, stats and settings.')
  for (const k of ['objects', 'events', 'jobs', 'idempotency', 'stats'] as const) if (!Array.isArray(r[k])) throw invalid(`rows.${k}`, `rows.${k} must be an array.`)
  if (!r.settings || typeof r.settings !== 'object' || Array.isArray(r.settings)) throw invalid('rows.settings', 'rows.settings must be an object of strings.')
  r.objects!.forEach((o, i) => {
    if (!o || typeof o !== 'object' || !(o.kind in KINDS) || typeof o.obj?.id !== 'string' || typeof o.obj?.created_at !== 'string' || !Number.isInteger(o.version))
      throw invalid(`rows.objects[${i}]`, `rows.objects[${i}] must be {kind, obj: {id, created_at, ...}, version} with a known kind (${Object.keys(KINDS).join(', ')}).`)
    if ((o.kind as Kind) === 'api_key' || o.kind === 'account') throw invalid(`rows.objects[${i}]`, 'Snapshots hold no keys or accounts.')
  })
  r.events!.forEach((e, i) => {
    if (!e || typeof e.id !== 'string' || typeof e.type !== 'string' || typeof e.json !== 'string' || typeof e.created_at !== 'string')
      throw invalid(`rows.events[${i}]`, `rows.events[${i}] must be {id, type, created_at, json, ...}.`)
  })
  r.jobs!.forEach((j, i) => {
    if (!j || typeof j.id !== 'string' || typeof j.kind !== 'string' || typeof j.due_at !== 'string') throw invalid(`rows.jobs[${i}]`, `rows.jobs[${i}] must be {id, kind, ref, due_at, data}.`)
  })
  for (const [k, v] of Object.entries(r.settings!)) if (typeof v !== 'string') throw invalid(`rows.settings.${k}`, `rows.settings.${k} must be a string.`)
  return r as AccountRows
}
