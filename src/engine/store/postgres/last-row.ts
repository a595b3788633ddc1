// A simple-protocol query (several statements in one round trip) answered by the raw text of the
// last row it returns, for the hottest statement of the adapter: a unit's idempotency claim, one
// per request. node-postgres's own Query builds a result per statement, a parser per column and
// an object per row (half the driver's JavaScript of a claim in the engine's profile); this
// submittable (node-postgres's interface for custom queries, as pg-cursor uses) keeps the fields
// of the last row as the server sent them and settles once the server is ready again.
import type pg from 'pg'

/** The wire messages node-postgres hands a submittable (what this one reads of them). */
interface Connection {
  query(text: string): void
}

export class LastRow {
  /** the fields of the last row, as text (NULL: null), or undefined when no statement returned a row */
  readonly done: Promise<(string | null)[] | undefined>
  private settle!: (row: (string | null)[] | undefined) => void
  private fail!: (e: unknown) => void
  private row: (string | null)[] | undefined = undefined

  constructor(readonly text: string) {
    this.done = new Promise((resolve, reject) => {
      this.settle = resolve
      this.fail = reject
    })
  }

  submit(connection: Connection): void {
    connection.query(this.text)
  }

  handleRowDescription(): void {}

  handleDataRow(msg: {fields: (string | null)[]}): void {
    this.row = msg.fields
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(): void {}

  handleCopyData(): void {}

  /** an error of the server (its ready message follows, for no query) or of the connection */
  handleError(e: unknown): void {
    this.fail(e)
  }

  handleReadyForQuery(): void {
    this.settle(this.row)
  }
}

/** Sends `text` on `c` and resolves with its last row's fields (LastRow). */
export function lastRow(c: pg.ClientBase, text: string): Promise<(string | null)[] | undefined> {
  const q = new LastRow(text)
  ;(c as unknown as {query(q: LastRow): unknown}).query(q)
  return q.done
}
