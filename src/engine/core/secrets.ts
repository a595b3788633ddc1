// Secrets at rest (docs/decisions.md#secrets-at-rest). API keys are kept as hashes and shown once; webhook signing secrets,
// which the engine must keep able to sign with, are sealed with the engine's secrets key (a file
// outside the database: adapters/secret-box.ts); so are the card numbers customers type, of which
// only what the behaviour needs rests readable (keptCard). Here: the fleet agreeing on that key,
// sealing what was stored before sealing existed, and what a snapshot holds of secrets and card
// numbers (docs/api.md#secrets-at-rest).
import {PLATFORM_ACCOUNT, type AccountRows, type Store, type StoredObject} from '../ports/store.js'
import {SecretBox} from '../adapters/secret-box.js'
import {isPublishedTestCard, maskCardNumber, scrubShownOnce} from '../domain/secrets.js'
import type {Instrument} from '../domain/payment.js'
import type {EndpointRecord} from './webhook-types.js'

/** The fleet setting (platform account) holding the secrets key's check value: every instance on one database must hold the same key. */
export const KEY_CHECK_SETTING = 'fleet.secrets_key_check'
/** Set (platform account) once every signing secret stored in the clear before sealing existed has been sealed. */
export const SEALED_SETTING = 'fleet.secrets_sealed'
/** Set (platform account) once every card number stored whole before cards were sealed has been sealed. */
export const CARDS_SEALED_SETTING = 'fleet.cards_sealed'
/** The database's, not an account's: never in a snapshot, and a snapshot loaded into the platform account leaves them as they are. */
const SECRETS_SETTINGS = [KEY_CHECK_SETTING, SEALED_SETTING, CARDS_SEALED_SETTING] as const

export class SecretsKeyError extends Error {}

/** Where the secrets key comes from: a file, and whether the operator named it (--secrets-key-file) or it is the data dir's. */
export interface SecretsKeySource {
  path: string
  /** named by --secrets-key-file (messages name the flag) */
  given: boolean
  /** reads the file: undefined when there is none */
  read(): Buffer | undefined
  /** makes the file (32 random bytes, 0600) unless it is there; its key */
  create(): Buffer
}

/**
 * The engine's secrets key, agreed with the data it serves. The first start on a database
 * records the key's check value (and seals what was stored in the clear before); every later
 * start, on any instance, must bring the same key, or is refused naming the flag and the fix —
 * an instance with another key could not sign a single delivery. A database that has a check
 * value is never given a new key silently.
 */
export async function agreeSecretsKey(store: Store, source: SecretsKeySource, log: (line: string) => void): Promise<SecretBox> {
  const platform = store.account(PLATFORM_ACCOUNT)
  const where = source.given ? `--secrets-key-file ${source.path}` : `${source.path} (the data dir's secrets key)`
  let stored = await platform.getSetting(KEY_CHECK_SETTING)
  let key: Buffer | undefined
  try {
    key = source.read() ?? (stored === undefined ? source.create() : undefined)
  } catch (e) {
    throw new SecretsKeyError(`${where}: ${(e as Error).message}.`)
  }
  if (!key)
    throw new SecretsKeyError(
      `${source.path} does not exist, and this database's webhook signing secrets are sealed with a secrets key: copy the secrets.key of the data dir this database was used with (or the fleet's --secrets-key-file) to ${source.path}, or start with --secrets-key-file pointing at it.`,
    )
  const box = new SecretBox(key)
  if (stored === undefined) {
    // first start with sealing: record the check (of instances of a fleet starting at once, one wins)
    stored = await platform.transact(async (tx) => {
      await tx.lock(KEY_CHECK_SETTING)
      const now = await platform.getSetting(KEY_CHECK_SETTING)
      if (now === undefined) tx.commit({settings: {[KEY_CHECK_SETTING]: box.check}})
      return now ?? box.check
    })
  }
  if (stored !== box.check)
    throw new SecretsKeyError(
      `${where} is not the secrets key this database's webhook signing secrets are sealed with: every instance on one database must use the same key. Start with --secrets-key-file pointing at a copy of the key the first instance used (its data dir's secrets.key, or its --secrets-key-file); a key lost for good cannot be replaced without losing every endpoint's secret.`,
    )
  // then, with the agreed key, what was stored in the clear before (again after a start that stopped half-way)
  if ((await platform.getSetting(SEALED_SETTING)) === undefined) {
    const sealed = await sealStoredSecrets(store, box)
    if (sealed > 0) log(`secrets: sealed the signing secrets of ${sealed} webhook endpoint(s) stored in the clear, with the secrets key ${source.path}`)
    await platform.commit({settings: {[SEALED_SETTING]: new Date().toISOString()}})
  }
  if ((await platform.getSetting(CARDS_SEALED_SETTING)) === undefined) {
    const sealed = await sealStoredCards(store, box)
    if (sealed > 0) log(`secrets: sealed ${sealed} card number(s) of payments and payment methods stored whole, with the secrets key ${source.path}`)
    await platform.commit({settings: {[CARDS_SEALED_SETTING]: new Date().toISOString()}})
  }
  return box
}

// ---------------------------------------------------------------- card numbers

/**
 * A card as the engine keeps it: a published test card whole (public, and its digits carry its
 * behaviour); any other with its number masked as a receipt shows it (first six, last four, a
 * middle that keeps the Luhn check: the same brand, length and behaviour, domain/secrets.ts
 * maskCardNumber) and the whole number sealed with the secrets key; either with a fingerprint
 * (a keyed HMAC of the whole number). What was kept already is returned as it is.
 */
export function keptCard(box: SecretBox, card: Instrument): Instrument {
  if (card.fingerprint !== undefined) return card
  if (isPublishedTestCard(card.number)) return {...card, fingerprint: testCardFingerprint(box, card.number)}
  return {...card, number: maskCardNumber(card.number), sealed_number: box.seal(card.number), fingerprint: box.fingerprint(card.number)}
}

/** The published test cards' fingerprints by key: a few dozen public numbers that most payments of a test engine use (an HMAC each time cost about 60 µs under this machine's load: ~3 % of a payment's CPU). */
const TEST_CARD_FINGERPRINTS = new WeakMap<SecretBox, Map<string, string>>()

function testCardFingerprint(box: SecretBox, number: string): string {
  let known = TEST_CARD_FINGERPRINTS.get(box)
  if (!known) TEST_CARD_FINGERPRINTS.set(box, (known = new Map()))
  let f = known.get(number)
  if (f === undefined) known.set(number, (f = box.fingerprint(number)))
  return f
}

type WithCard = StoredObject & {_x?: {instrument?: Instrument}}
const CARD_KINDS = ['payment', 'payment_method'] as const

/** Seals every card number of every account still stored whole (before cards were sealed), a batch of objects per unit; how many changed. */
export async function sealStoredCards(store: Store, box: SecretBox): Promise<number> {
  const accounts = await allAccounts(store)
  const whole = (o: WithCard) => o._x?.instrument !== undefined && o._x.instrument.fingerprint === undefined
  let changed = 0
  for (const account of accounts) {
    const view = store.account(account)
    for (const kind of CARD_KINDS) {
      const ids = (await view.all<WithCard>(kind)).filter(whole).map((o) => o.id)
      for (let i = 0; i < ids.length; i += 200) {
        changed += await view.transact(async (tx) => {
          const puts = []
          for (const id of ids.slice(i, i + 200)) {
            await tx.lock(id)
            const got = await tx.get<WithCard>(kind, id)
            if (!got || !whole(got.obj)) continue
            puts.push({kind, obj: {...got.obj, _x: {...got.obj._x, instrument: keptCard(box, got.obj._x!.instrument!)}} as StoredObject, expectVersion: got.version})
          }
          if (puts.length) tx.commit({puts})
          return puts.length
        })
      }
    }
  }
  return changed
}

/** Every account of the store, the platform account first. */
async function allAccounts(store: Store): Promise<string[]> {
  return [PLATFORM_ACCOUNT, ...(await store.account(PLATFORM_ACCOUNT).all<StoredObject>('account')).map((a) => a.id).filter((id) => id !== PLATFORM_ACCOUNT)]
}

/** Seals every webhook signing secret still stored in the clear (written before sealing existed), in every account; how many endpoints changed. */
export async function sealStoredSecrets(store: Store, box: SecretBox): Promise<number> {
  const accounts = await allAccounts(store)
  let changed = 0
  for (const account of accounts) {
    const view = store.account(account)
    const plain = (await view.all<EndpointRecord>('webhook_endpoint')).filter((ep) => needsSeal(ep))
    if (plain.length === 0) continue
    changed += await view.transact(async (tx) => {
      const puts = []
      for (const {id} of plain) {
        await tx.lock(id)
        const got = await tx.get<EndpointRecord>('webhook_endpoint', id)
        if (!got || !needsSeal(got.obj)) continue
        puts.push({kind: 'webhook_endpoint' as const, obj: sealEndpoint(got.obj, box), expectVersion: got.version})
      }
      if (puts.length) tx.commit({puts})
      return puts.length
    })
  }
  return changed
}

const needsSeal = (ep: EndpointRecord): boolean => (typeof ep._x.secret === 'string' && !SecretBox.isSealed(ep._x.secret)) || (typeof ep._x.previous_secret === 'string' && !SecretBox.isSealed(ep._x.previous_secret))

function sealEndpoint(ep: EndpointRecord, box: SecretBox): EndpointRecord {
  const x = {...ep._x, secret: box.sealed(ep._x.secret)}
  if (typeof x.previous_secret === 'string') x.previous_secret = box.sealed(x.previous_secret)
  return {...ep, _x: x}
}

// ---------------------------------------------------------------- snapshots

/** A stored secret in the clear; null for one this key cannot open (it was changed in the database): the snapshot then loads it as one without a secret. */
function openOrNull(box: SecretBox, v: string): string | null {
  if (!SecretBox.isSealed(v)) return v
  try {
    return box.open(v)
  } catch {
    return null
  }
}

/**
 * What a snapshot holds of an object's secrets. Without `include`: no webhook signing secret
 * (null: the endpoint gets a new one when loaded) and card numbers masked but for the published
 * test cards (domain/secrets.ts maskCardNumber). With it: the signing secrets in the clear — the
 * snapshot must load into another engine, with another secrets key — and card numbers whole.
 */
export function snapshotObject(o: AccountRows['objects'][number], box: SecretBox, include: boolean): AccountRows['objects'][number] {
  if (o.kind === 'webhook_endpoint') {
    const ep = o.obj as EndpointRecord
    const open = (v: string | null | undefined) => (typeof v === 'string' && include ? openOrNull(box, v) : null)
    return {...o, obj: {...ep, _x: {...ep._x, secret: open(ep._x.secret), previous_secret: open(ep._x.previous_secret)}} as StoredObject}
  }
  if (o.kind === 'payment' || o.kind === 'payment_method') {
    const x = (o.obj as WithCard)._x
    const card = x?.instrument
    if (card && typeof card.number === 'string') return {...o, obj: {...o.obj, _x: {...x, instrument: snapshotCard(card, box, include)}} as StoredObject}
  }
  return o
}

/** The settings a snapshot holds: never the fleet's secrets key check (it belongs to the database, not the account). */
export function snapshotSettings(settings: Readonly<Record<string, string>>): Record<string, string> {
  const out = {...settings}
  for (const k of SECRETS_SETTINGS) delete out[k]
  return out
}

/**
 * A card as a snapshot holds it: without `include` masked (kept so already, or a number stored
 * whole before cards were sealed masked now), with it whole (opened: another engine loads it
 * with another key); never the sealed number or the fingerprint, which only this key reads.
 */
function snapshotCard(card: Instrument, box: SecretBox, include: boolean): Instrument {
  const {sealed_number: sealed, fingerprint: _, ...rest} = card
  if (include) return {...rest, number: (sealed !== undefined && openOrNull(box, sealed)) || card.number}
  return sealed !== undefined ? rest : {...rest, number: maskCardNumber(card.number)}
}

/**
 * A snapshot's secrets as this engine keeps them, before it is loaded: each signing secret
 * sealed with this engine's key; an endpoint saved without one (or with a value this key
 * cannot open) gets a new one; stored answers scrubbed of secrets shown once (snapshots saved
 * before they were kept redacted); the database's secrets settings left as the account has them
 * (`keep`: the platform account's). Returns how many endpoints got a new secret.
 */
export function restoreSecrets(rows: AccountRows, box: SecretBox, newSecret: () => string, keep: Readonly<Record<string, string | undefined>>): number {
  let renewed = 0
  const seal = (v: unknown): string | null => {
    if (typeof v !== 'string' || v === '') return null
    if (!SecretBox.isSealed(v)) return box.seal(v)
    try {
      box.open(v)
      return v
    } catch {
      return null
    }
  }
  for (const o of rows.objects) {
    if (o.kind === 'payment' || o.kind === 'payment_method') {
      // each card kept as this engine keeps cards: masked and sealed with its key (a sealed number it cannot open is dropped)
      const x = (o.obj as WithCard)._x
      const card = x?.instrument
      if (card && typeof card.number === 'string') {
        const {sealed_number: sealed, fingerprint: _, ...rest} = card
        if (sealed === undefined || openOrNull(box, sealed) === null) x!.instrument = keptCard(box, rest)
      }
      continue
    }
    if (o.kind !== 'webhook_endpoint') continue
    const ep = o.obj as EndpointRecord
    const x = (ep._x && typeof ep._x === 'object' && !Array.isArray(ep._x) ? ep._x : {}) as Partial<EndpointRecord['_x']>
    let secret = seal(x.secret)
    if (secret === null) {
      secret = box.seal(newSecret())
      renewed++
    }
    const previous = seal(x.previous_secret)
    ep._x = {streak_started_at: null, last_failure_at: null, ...x, secret, previous_secret: previous}
    // without its previous secret, a rotation's overlap is over
    if (previous === null && ep.previous_secret_expires_at) ep.previous_secret_expires_at = null
  }
  for (const r of rows.idempotency) if (typeof r.body === 'string') r.body = scrubShownOnce(r.body)
  for (const k of SECRETS_SETTINGS) {
    delete rows.settings[k]
    if (keep[k] !== undefined) rows.settings[k] = keep[k]
  }
  return renewed
}
