import {INTERNAL_KINDS} from '../ports/store.js'
import type {
  ChangeSet,
  Put,
  ClaimedJob,
  Filter,
  FieldOf,
  IdempotencyClaim,
  IdempotencyRecord,
  StagedRows,
  Job,
  Kind,
  ListPage,
  ListQuery,
  StatIncrement,
  StoredEvent,
  StoredObject,
  StoreTx,
  Versioned,
} from '../ports/store.js'
import type {Core} from './core.js'
import {apiJson} from './internal.js'
import {outboxFor} from './webhook-outbox.js'
import {iso} from '../domain/time.js'
import {jsonString} from '../domain/json.js'

/**
 * One unit of work, as use cases see it: reads (through the store's transaction, under the
 * locks taken), and the writes it collects — objects, events, jobs, provider statistics,
 * settings and, for an API request, the idempotency record — which become one ChangeSet. The
 * webhook outbox (one delivery per subscribed endpoint and event) is added when it is built,
 * so an event never lands without its deliveries.
 */
export class Unit {
  private puts = new Map<string, {kind: Kind; obj: StoredObject; expectVersion?: number}>()
  private deletes: {kind: Kind; id: string}[] = []
  private events: StoredEvent[] = []
  private addJobs: Job[] = []
  private removeJobs: {kind: string; ref: string}[] = []
  private completeJobs: ClaimedJob[] = []
  private statsList: StatIncrement[] = []
  private settingsMap: Record<string, string> = {}
  private idem: IdempotencyRecord | undefined
  private purged: string | undefined
  private staged: {rows: StagedRows; settings: Record<string, string>} | undefined
  private others = new Map<string, {puts: Put[]; addJobs: Job[]; settings: Record<string, string>}>()
  /** each object's public JSON, made once and reused for its events, its row and the response */
  private readonly json = new WeakMap<object, string>()
  /** the lock keys taken */
  private readonly held = new Set<string>()

  constructor(
    readonly core: Core,
    private readonly tx: StoreTx,
    /** the API request that caused this unit, or null (customer, network, rail, clock) */
    private requestIdOf: string | null,
    /** the engine clock when the unit started */
    readonly now: Date,
  ) {}

  /** the API request that caused this unit's events, or null */
  get requestId(): string | null {
    return this.requestIdOf
  }

  /**
   * This unit stands in for someone other than the API caller: a test helper doing what the
   * customer (3-D Secure, hosted page), the operator (risk review) or the network (disputes) would.
   * Its events carry request_id null, as the real trigger's do (docs/api.md#event-types, docs/decisions.md#test-helpers).
   */
  standIn(): void {
    this.requestIdOf = null
  }

  get livemode(): boolean {
    return this.core.livemode
  }

  // ---------------------------------------------------------------- reads

  get<T extends StoredObject>(kind: Kind, id: string): Promise<Versioned<T> | undefined> {
    return this.tx.get<T>(kind, id)
  }
  list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>): Promise<ListPage<T>> {
    return this.tx.list<T, K>(kind, q)
  }
  all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[]): Promise<T[]> {
    return this.tx.all<T, K>(kind, filters)
  }
  sum<K extends Kind>(kind: K, q: {field: FieldOf<K>; groupBy: FieldOf<K>; filters?: Filter<K>[]}) {
    return this.tx.sum(kind, q)
  }
  /** Serialises this unit with every other on the key (an object id) until it commits; a key it holds already is not taken twice. */
  lock(key: string): Promise<void> {
    if (this.held.has(key)) return Promise.resolve()
    this.held.add(key)
    return this.tx.lock(key)
  }
  /** See StoreTx.claimIdempotency; `defer` lets the store check for a live record when the unit commits. */
  claimIdempotency(scope: string, key: string, opts?: {defer?: boolean}): Promise<IdempotencyClaim> {
    return this.tx.claimIdempotency(scope, key, iso(this.now), opts)
  }

  // ---------------------------------------------------------------- writes

  /** Records the object's state; the last put of an id wins, with the version first read. */
  put<T extends StoredObject>(kind: Kind, obj: T, expectVersion?: number): void {
    const prev = this.puts.get(obj.id)
    this.puts.set(obj.id, {kind, obj, expectVersion: prev ? prev.expectVersion : expectVersion})
  }

  delete(kind: Kind, id: string): void {
    this.deletes.push({kind, id})
  }

  /**
   * The object's public JSON (without `_x`), made once per object and kept: an object given to
   * emit, put or a response is not changed afterwards (state changes make new objects), and is
   * frozen here so that a change would throw instead of going unseen.
   */
  publicJson(obj: object): string {
    let s = this.json.get(obj)
    if (s === undefined) {
      s = apiJson(obj)
      this.json.set(obj, s)
      Object.freeze(obj)
    }
    return s
  }

  /** Emits an event with a snapshot of the object as it is now (its public part), caused by this unit's request unless said otherwise. */
  emit(type: string, obj: object, at: Date = this.now, requestId: string | null = this.requestIdOf): StoredEvent {
    const id = this.core.ids.next('evt')
    const created_at = iso(at)
    // the bytes JSON.stringify({id, object, type, created_at, livemode, request_id, data: {object}}) gives, with the object's JSON made once
    const json = `{"id":${jsonString(id)},"object":"event","type":${jsonString(type)},"created_at":"${created_at}","livemode":${this.livemode},"request_id":${requestId === null ? 'null' : jsonString(requestId)},"data":{"object":${this.publicJson(obj)}}}`
    const o = obj as {id?: unknown; object?: unknown; payment?: unknown}
    const object_id = typeof o.id === 'string' ? o.id : null
    const e: StoredEvent = {id, type, created_at, json, object_id, payment: o.object === 'payment' ? object_id : typeof o.payment === 'string' ? o.payment : null}
    this.events.push(e)
    return e
  }

  schedule(kind: string, ref: string, due: Date, data?: Record<string, unknown>): void {
    this.addJobs.push({id: this.core.ids.next('job'), kind, ref, due_at: iso(due), ...(data ? {data} : {})})
  }

  unschedule(kind: string, ref: string): void {
    this.removeJobs.push({kind, ref})
  }

  /** The claimed job this unit applies: removed in the same commit. */
  complete(job: ClaimedJob): void {
    this.completeJobs.push(job)
  }

  stat(s: StatIncrement): void {
    this.statsList.push(s)
  }

  setting(key: string, value: string): void {
    this.settingsMap[key] = value
  }

  idempotency(record: IdempotencyRecord): void {
    this.idem = record
  }

  /**
   * Writes in another account, committed with this unit (the platform account creating an
   * account: the new account's keys, first jobs and settings). Objects only, no events.
   */
  also(account: string): {put(kind: Kind, obj: StoredObject): void; schedule(kind: string, ref: string, due: Date): void; setting(key: string, value: string): void} {
    let o = this.others.get(account)
    if (!o) this.others.set(account, (o = {puts: [], addJobs: [], settings: {}}))
    const parts = o
    return {
      put: (kind, obj) => void parts.puts.push({kind, obj, json: INTERNAL_KINDS.has(kind) ? undefined : this.publicJson(obj)}),
      schedule: (kind, ref, due) => void parts.addJobs.push({id: this.core.ids.next('job'), kind, ref, due_at: iso(due)}),
      setting: (key, value) => void (parts.settings[key] = value),
    }
  }

  /** Replaces this account's rows (but its keys and account objects) with rows staged ahead (a snapshot loaded in parts), whose settings these are, before the rest of the commit. */
  restoreStaged(rows: StagedRows, settings: Record<string, string>): void {
    this.staged = {rows, settings}
  }

  /** the staged rows this unit puts in place of the account's, and their settings */
  get stagedRestore(): {rows: StagedRows; settings: Record<string, string>} | undefined {
    return this.staged
  }

  /** Deletes every row of another account with this unit's commit (deleting an account). */
  purge(account: string): void {
    this.purged = account
  }

  /** Drops every collected change but the idempotency record (a request that failed with a 4xx). */
  discard(): void {
    this.puts.clear()
    this.deletes = []
    this.events = []
    this.addJobs = []
    this.removeJobs = []
    this.statsList = []
    this.settingsMap = {}
    this.purged = undefined
    void this.staged?.rows.discard().catch(() => {})
    this.staged = undefined
    this.others.clear()
  }

  get stats(): readonly StatIncrement[] {
    return this.statsList
  }

  get settings(): Readonly<Record<string, string>> {
    return this.settingsMap
  }

  get jobsAdded(): readonly Job[] {
    return this.addJobs
  }

  /** the ids of the webhook deliveries the commit wrote (its events' outbox), once committed */
  deliveriesWritten: string[] = []

  get eventsEmitted(): readonly StoredEvent[] {
    return this.events
  }

  /** The ChangeSet, outbox included; undefined when there is nothing to write. */
  async changeSet(): Promise<ChangeSet | undefined> {
    const deliveries = this.events.length ? await outboxFor(this.core, this.events, this.now) : []
    this.deliveriesWritten = deliveries.map((d) => d.id)
    const cs: ChangeSet = {}
    const puts: Put[] = [...this.puts.values()].map((p) => ({kind: p.kind, obj: p.obj, json: INTERNAL_KINDS.has(p.kind) ? undefined : this.publicJson(p.obj), expectVersion: p.expectVersion}))
    for (const d of deliveries) puts.push({kind: 'delivery', obj: d, json: this.publicJson(d), expectVersion: undefined})
    if (puts.length) cs.puts = puts
    if (this.deletes.length) cs.deletes = this.deletes
    if (this.events.length) cs.events = this.events
    if (this.addJobs.length) cs.addJobs = this.addJobs
    if (this.removeJobs.length) cs.removeJobs = this.removeJobs
    if (this.completeJobs.length) cs.completeJobs = this.completeJobs
    if (this.statsList.length) cs.stats = this.statsList
    if (Object.keys(this.settingsMap).length) cs.settings = this.settingsMap
    if (this.idem) cs.idempotency = this.idem
    if (this.purged !== undefined) cs.purgeAccount = this.purged
    if (this.staged) cs.restoreStaged = this.staged.rows
    if (this.others.size) cs.also = [...this.others].map(([account, o]) => ({account, changes: {puts: o.puts, ...(o.addJobs.length ? {addJobs: o.addJobs} : {}), ...(Object.keys(o.settings).length ? {settings: o.settings} : {})}}))
    return Object.keys(cs).length ? cs : undefined
  }
}
