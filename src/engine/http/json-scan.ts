// A JSON document too large to parse at once without holding the event loop (a snapshot of tens
// of megabytes, docs/decisions.md#large-snapshots): its outline read from the raw bytes — where each member of an object
// starts and ends, where each item of an array does — and the small parts parsed by JSON.parse
// one batch at a time, the event loop given back between slices. Nothing recurses: a body of a
// million `[` is refused at the depth limit, as the pipeline refuses it for ordinary bodies.
// Every byte outside the parsed parts is checked here (the punctuation between members and
// items), every byte inside them by JSON.parse: a body this accepts is one JSON.parse accepts.

/** A body that is not the JSON it should be; `message` says where. */
export class JsonScanError extends Error {}

export interface Range {
  start: number
  end: number
}

/** A member's value: its range, and for an object read in the same pass, its own members. */
export interface Member extends Range {
  members?: Map<string, Member>
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

const immediate = () => new Promise<void>((r) => setImmediate(r))

export class JsonScanner {
  /** bytes read since the event loop was last given back */
  private since = 0

  constructor(
    readonly buf: Buffer,
    private readonly opts: {
      /** how deeply arrays and objects may nest, the root counting as 1 */
      maxDepth: number
      /** bytes read between two turns given back to the event loop */
      sliceBytes: number
    },
  ) {}

  /** The whole document. */
  get all(): Range {
    return {start: 0, end: this.buf.length}
  }

  private fail(at: number, what: string): never {
    const got = at >= this.buf.length ? 'the end of the body' : `'${String.fromCharCode(this.buf[at]!)}'`
    throw new JsonScanError(`The request body is not valid JSON: ${what} expected at byte ${at}, found ${got}.`)
  }

  private space(i: number, end: number): number {
    while (i < end && isSpace(this.buf[i]!)) i++
    return i
  }

  /** Gives the event loop back once enough was read since it last was. */
  private async read(bytes: number): Promise<void> {
    this.since += bytes
    if (this.since >= this.opts.sliceBytes) {
      this.since = 0
      await immediate()
    }
  }

  /** The end of the string whose opening quote is at `i`. */
  private stringEnd(i: number, end: number): number {
    for (let j = i + 1; ; ) {
      const q = this.buf.indexOf(QUOTE, j)
      if (q < 0 || q >= end) this.fail(end, 'the end of a string')
      let slashes = 0
      for (let k = q - 1; k > i && this.buf[k] === BACKSLASH; k--) slashes++
      if (slashes % 2 === 0) return q + 1
      j = q + 1
    }
  }

  /** The end of the value starting at `i` (inside containers `depth` deep), its nesting checked. */
  private async valueEnd(i: number, end: number, depth: number): Promise<number> {
    const c = this.buf[i]
    if (c === QUOTE) return this.stringEnd(i, end)
    if (c !== 0x7b && c !== 0x5b) {
      // a number, true, false or null: up to the next delimiter (JSON.parse judges it)
      let j = i
      while (j < end) {
        const d = this.buf[j]!
        if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) break
        j++
      }
      if (j === i) this.fail(i, 'a value')
      return j
    }
    let level = 0
    let from = i
    for (let j = i; j < end; ) {
      const d = this.buf[j]!
      if (d === QUOTE) {
        j = this.stringEnd(j, end)
        continue
      }
      if (d === 0x7b || d === 0x5b) {
        if (depth + ++level > this.opts.maxDepth) throw new JsonScanError(`The request body nests arrays and objects more than ${this.opts.maxDepth} levels deep; flatten it (no request needs more than a few levels).`)
      } else if (d === 0x7d || d === 0x5d) {
        if (--level === 0) return j + 1
      }
      j++
      if (j - from >= this.opts.sliceBytes) {
        await this.read(j - from)
        from = j
      }
    }
    return this.fail(end, `the end of the ${c === 0x7b ? 'object' : 'array'} that starts at byte ${i}`)
  }

  /** The value of a range, parsed. */
  parse(r: Range): unknown {
    try {
      return JSON.parse(this.buf.toString('utf8', r.start, r.end))
    } catch (e) {
      throw new JsonScanError(`The request body is not valid JSON (${(e as Error).message}, in bytes ${r.start} to ${r.end}).`)
    }
  }

  /** Items of an array, with what separates them, as one array. */
  private parseItems(r: Range): unknown[] {
    try {
      return JSON.parse(`[${this.buf.toString('utf8', r.start, r.end)}]`) as unknown[]
    } catch (e) {
      throw new JsonScanError(`The request body is not valid JSON (${(e as Error).message}, in bytes ${r.start} to ${r.end}).`)
    }
  }

  /** Whether the value in the range is an object, an array or something else. */
  kindOf(r: Range): 'object' | 'array' | 'other' {
    const c = this.buf[this.space(r.start, r.end)]
    return c === 0x7b ? 'object' : c === 0x5b ? 'array' : 'other'
  }

  /**
   * The members of the object in the range (nested `depth` deep, the root being 1), each
   * value's range; the last of a name given twice wins, as with JSON.parse. Nothing but white
   * space may follow the object in the range. The members of a member's object value are read
   * in the same pass when `within` names it (the snapshot's rows: one pass less over them).
   */
  async members(r: Range, depth: number, within?: string): Promise<Map<string, Member>> {
    const {members, end} = await this.object(this.space(r.start, r.end), r.end, depth, within)
    return this.after(end, r, members)
  }

  /** What is left of the range after `i` must be white space. */
  private after<T>(i: number, r: Range, out: T): T {
    const rest = this.space(i, r.end)
    if (rest !== r.end) this.fail(rest, 'nothing more')
    return out
  }

  private async object(at: number, limit: number, depth: number, within: string | undefined): Promise<{members: Map<string, Member>; end: number}> {
    const out = new Map<string, Member>()
    let i = at
    if (this.buf[i] !== 0x7b) this.fail(i, "'{'")
    i = this.space(i + 1, limit)
    if (this.buf[i] === 0x7d) return {members: out, end: i + 1}
    for (;;) {
      if (this.buf[i] !== QUOTE) this.fail(i, 'a member name')
      const keyEnd = this.stringEnd(i, limit)
      const key = this.parse({start: i, end: keyEnd}) as string
      i = this.space(keyEnd, limit)
      if (this.buf[i] !== 0x3a) this.fail(i, "':'")
      const start = this.space(i + 1, limit)
      let member: Member
      if (key === within && this.buf[start] === 0x7b && depth + 1 <= this.opts.maxDepth) {
        const inner = await this.object(start, limit, depth + 1, undefined)
        member = {start, end: inner.end, members: inner.members}
      } else member = {start, end: await this.valueEnd(start, limit, depth)}
      out.delete(key)
      out.set(key, member)
      i = this.space(member.end, limit)
      if (this.buf[i] === 0x2c) {
        i = this.space(i + 1, limit)
        continue
      }
      if (this.buf[i] === 0x7d) return {members: out, end: i + 1}
      this.fail(i, "',' or '}'")
    }
  }

  /**
   * The items of the array in the range (nested `depth` deep), parsed a batch of about
   * `batchBytes` at a time (one JSON.parse per batch), the event loop given back between batches.
   */
  async *items(r: Range, depth: number, batchBytes: number): AsyncGenerator<{first: number; items: unknown[]}> {
    let i = this.space(r.start, r.end)
    if (this.buf[i] !== 0x5b) this.fail(i, "'['")
    i = this.space(i + 1, r.end)
    if (this.buf[i] === 0x5d) return void this.after(i + 1, r, undefined)
    let first = 0
    let count = 0
    let batchStart = i
    for (;;) {
      const end = await this.valueEnd(i, r.end, depth)
      count++
      i = this.space(end, r.end)
      const last = this.buf[i] === 0x5d
      if (!last && this.buf[i] !== 0x2c) this.fail(i, "',' or ']'")
      if (last || end - batchStart >= batchBytes) {
        const items = this.parseItems({start: batchStart, end})
        yield {first, items}
        first = count
        await immediate()
        this.since = 0
        if (last) return void this.after(i + 1, r, undefined)
        batchStart = this.space(i + 1, r.end)
      }
      i = this.space(i + 1, r.end)
    }
  }
}
