// The body of POST /v1/test_helpers/snapshot read in parts (docs/decisions.md#large-snapshots): a snapshot may be tens of
// megabytes, and one JSON.parse of it (then one walk of the result) held the event loop for
// seconds while every other tenant waited. Its own fields are parsed and checked against the
// operation's schema in the OpenAPI document; its rows are handed to the load a batch at a time
// (json-scan.ts), the event loop given back between batches.
import type {SnapshotPart, SnapshotSource} from '../app/snapshots.js'
import {DomainError, invalid} from '../domain/errors.js'
import {JsonScanError, JsonScanner, type Member} from './json-scan.js'
import {requestValidator} from './openapi-validate.js'
import {MAX_JSON_DEPTH} from './request.js'

/** Bytes of rows parsed and checked at a time: a slice of a few milliseconds. */
const BATCH_BYTES = 64 * 1024
/** Bytes scanned between two turns given back to the event loop. */
const SLICE_BYTES = 512 * 1024

/** A problem with the body's JSON, as the pipeline words it for any body. */
const asBodyError = (e: unknown): unknown => (e instanceof JsonScanError ? invalid('body', e.message) : e)

export async function snapshotSource(raw: Buffer | undefined): Promise<SnapshotSource> {
  if (!raw || raw.length === 0) throw invalid('body', 'The request body must be a snapshot as GET /v1/test_helpers/snapshot gives it (gw snapshots load FILE).')
  const scan = new JsonScanner(raw, {maxDepth: MAX_JSON_DEPTH, sliceBytes: SLICE_BYTES})
  let members: Map<string, Member>
  try {
    if (scan.kindOf(scan.all) !== 'object') throw new JsonScanError('The request body must be a JSON object: a snapshot as GET /v1/test_helpers/snapshot gives it.')
    // (the rows' members are found in the same pass)
    members = await scan.members(scan.all, 1, 'rows')
  } catch (e) {
    throw asBodyError(e)
  }
  const header: Record<string, unknown> = {}
  try {
    for (const [k, r] of members) if (k !== 'rows') header[k] = scan.parse(r)
  } catch (e) {
    throw asBodyError(e)
  }
  const rowsAt = members.get('rows')
  // the snapshot's own fields by the operation's schema (its rows are the load's to check)
  // (rows stand in by their JSON type: only one that is no object is the schema's to refuse)
  const kind = rowsAt && scan.kindOf(rowsAt)
  let rowsValue: unknown
  try {
    rowsValue = kind === 'object' ? {} : kind === 'array' ? [] : rowsAt && scan.parse(rowsAt)
  } catch (e) {
    throw asBodyError(e)
  }
  requestValidator('testLoadSnapshot')({body: rowsAt ? {...header, rows: rowsValue} : header})
  if (!rowsAt) return {header, rows: undefined}
  const sections = rowsAt.members
  if (!sections) return {header, rows: 'not an object'}
  return {
    header,
    rows: {
      members: new Map([...sections].map(([k, r]) => [k, scan.kindOf(r)])),
      async *parts(): AsyncGenerator<SnapshotPart> {
        try {
          for (const [section, r] of sections) {
            if (section === 'settings') yield {section, value: scan.parse(r)}
            else if (scan.kindOf(r) === 'array') for await (const batch of scan.items(r, 3, BATCH_BYTES)) yield {section, ...batch} as SnapshotPart
          }
        } catch (e) {
          if (e instanceof DomainError) throw e
          throw asBodyError(e)
        }
      },
    },
  }
}
