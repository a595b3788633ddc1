// The renderer a command writes through: results on stdout (silent under --json, which prints
// the returned result instead), notices on stderr, colour only on a terminal, tables that fit
// the terminal's width, NDJSON lines for streams. Secrets it has been told about are never
// written out whole; control characters in human output are shown, never sent (terminal.ts):
// --json and NDJSON are written exactly.
import {scrub} from '../config/redact.js'
import {colorEnabled, painter, type Painter} from './color.js'
import type {Columns} from './table.js'
import {terminalSafe} from './terminal.js'

/** The streams a command talks to: process.stdout/stderr/stdin in the CLI, buffers in tests. */
export interface IO {
  stdout: NodeJS.WritableStream & {isTTY?: boolean; columns?: number}
  stderr: NodeJS.WritableStream & {isTTY?: boolean; columns?: number; rows?: number}
  stdin: NodeJS.ReadableStream & {isTTY?: boolean}
}

export class Renderer {
  /** NDJSON lines (or a stream of results) went to stdout: the final JSON result is not printed */
  streamed = false
  private secrets: string[] = []

  constructor(
    readonly io: IO,
    readonly opts: {json: boolean; verbose?: boolean; env?: NodeJS.ProcessEnv},
  ) {}

  get json(): boolean {
    return this.opts.json
  }

  /** Painter for stdout: colour only on a TTY and without NO_COLOR. */
  get color(): Painter {
    return painter(colorEnabled(this.io.stdout, this.opts.env))
  }

  get errColor(): Painter {
    return painter(colorEnabled(this.io.stderr, this.opts.env))
  }

  /** The terminal's width for tables; undefined in a pipe (nothing to fit). */
  get width(): number | undefined {
    const s = this.io.stdout
    return s.isTTY && s.columns && s.columns > 0 ? s.columns : undefined
  }

  /** Human output on stdout, control characters shown; silent under --json. */
  print(text = ''): void {
    if (!this.opts.json) this.io.stdout.write(terminalSafe(text, {colors: this.color.enabled}) + '\n')
  }

  /** A notice on stderr (shown in every mode; stdout stays clean), control characters shown. */
  notice(text: string): void {
    this.io.stderr.write(this.human(text) + '\n')
  }

  verbose(line: string): void {
    if (this.opts.verbose) this.io.stderr.write(this.human(this.errColor.dim(line)) + '\n')
  }

  /** Text for stderr as a person reads it: secrets redacted, control characters shown (errors, prompts). */
  human(text: string): string {
    return terminalSafe(this.scrub(text), {colors: this.errColor.enabled})
  }

  /** One JSON value per line on stdout (streams, `--all` into a pipe). */
  ndjson(value: unknown): void {
    this.streamed = true
    this.io.stdout.write((typeof value === 'string' ? value : JSON.stringify(value)) + '\n')
  }

  /** The command's result under --json, unless it was streamed already. */
  result(value: unknown): void {
    if (this.streamed) return
    this.io.stdout.write(JSON.stringify(value, null, 2) + '\n')
  }

  async table<T>(items: T[], cols: Columns<T>): Promise<string> {
    const {renderTable} = await import('./table.js')
    return renderTable(items, cols, this.color, {width: this.width})
  }

  /** Keys and secrets this command has seen; never written out whole. */
  remember(secret: string | undefined): void {
    if (secret && !this.secrets.includes(secret)) this.secrets.push(secret)
  }

  scrub(text: string): string {
    let out = text
    for (const s of this.secrets) out = scrub(out, s)
    return out
  }
}
