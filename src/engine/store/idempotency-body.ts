// An idempotency record's body kept as a reference to the event that carries the same bytes: a
// created object's response is usually the `data.object` of the last event its request emitted,
// committed in the same change set (docs/decisions.md#storage-per-payment). Both adapters store
// the event's id in place of the body when the bytes are equal, and give the body back on read.
import type {ChangeSet} from '../ports/store.js'

const DATA_OBJECT = '"data":{"object":'
/**
 * The bytes of an event's data.object: an event's JSON is `{"id":...,"request_id":...,"data":{"object":<object>}}`;
 * the members before `data` cannot hold that sequence unescaped, so its first occurrence is the envelope's.
 * (PostgreSQL's `gw_data_object`, in its migration 6, is the same cut in SQL.)
 */
export function dataObjectOf(eventJson: string): string {
  return eventJson.slice(eventJson.indexOf(DATA_OBJECT) + DATA_OBJECT.length, -2)
}

/** The event of `cs` whose data.object is exactly its idempotency record's body, if the record names one: what the store keeps instead of the body. */
export function bodyReference(cs: ChangeSet): string | null {
  const r = cs.idempotency
  if (r?.body_of_event === undefined) return null
  return cs.events?.some((e) => e.id === r.body_of_event && dataObjectOf(e.json) === r.body) ? r.body_of_event : null
}
