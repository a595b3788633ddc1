// Evidence drafts: what an agent entered in a dispute's evidence form, kept until it is sent.
// One file per dispute under the config dir (console-drafts/<profile>/<dispute>.json, the
// folder 0700, the file 0600: evidence is a customer's data), written as it changes (a crash,
// a Ctrl-C or a failed submission loses nothing), offered again when the form is opened, and
// removed once the evidence is sent or the agent discards it. No Ink.
import {mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {EvidenceDraft} from '../commands/disputes/shared/evidence-form.js'

export type {EvidenceDraft}

export interface SavedDraft extends EvidenceDraft {
  dispute: string
  /** wall ms it was last written */
  saved_at: number
}

/** A draft with nothing in it (no field, file or text being typed) is no draft. */
export function isEmptyDraft(d: EvidenceDraft): boolean {
  return Object.keys(d.fields).length === 0 && d.files.length === 0 && !d.typing?.text
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_')

export class DraftStore {
  private readonly dir: string

  /** `root` is the config dir ($XDG_CONFIG_HOME/gw); undefined keeps nothing (a draft then lives while the console runs). */
  constructor(
    root: string | undefined,
    profile: string,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = root ? join(root, 'console-drafts', safeName(profile)) : ''
    this.memory = new Map()
  }

  private readonly memory: Map<string, SavedDraft>

  private file(dispute: string): string {
    return join(this.dir, `${safeName(dispute)}.json`)
  }

  load(dispute: string): SavedDraft | undefined {
    if (!this.dir) return this.memory.get(dispute)
    try {
      const d = JSON.parse(readFileSync(this.file(dispute), 'utf8')) as SavedDraft
      if (d.dispute !== dispute || typeof d.fields !== 'object' || !Array.isArray(d.files)) return undefined
      return d
    } catch {
      return undefined
    }
  }

  /** Writes the draft (an empty one removes it). A draft that cannot be written is said by the error thrown. */
  save(dispute: string, draft: EvidenceDraft): void {
    if (isEmptyDraft(draft)) return this.remove(dispute)
    const saved: SavedDraft = {dispute, fields: draft.fields, files: draft.files, ...(draft.typing?.text ? {typing: draft.typing} : {}), saved_at: this.now()}
    if (!this.dir) {
      this.memory.set(dispute, saved)
      return
    }
    mkdirSync(this.dir, {recursive: true, mode: 0o700})
    const file = this.file(dispute)
    const tmp = `${file}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify(saved) + '\n', {mode: 0o600})
    renameSync(tmp, file)
  }

  remove(dispute: string): void {
    this.memory.delete(dispute)
    if (this.dir) rmSync(this.file(dispute), {force: true})
  }
}

/** A draft in words: "2 fields (tracking_number, shipping_address), 1 file". */
export function draftSummary(d: EvidenceDraft): string {
  const keys = Object.keys(d.fields)
  const parts = [
    keys.length ? `${keys.length} ${keys.length === 1 ? 'field' : 'fields'} (${keys.join(', ')})` : '',
    d.files.length ? `${d.files.length} ${d.files.length === 1 ? 'file' : 'files'}` : '',
    d.typing?.text ? `a value being typed for ${d.typing.key}` : '',
  ].filter(Boolean)
  return parts.join(', ') || 'nothing'
}
