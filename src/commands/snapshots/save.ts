import {Args, Flags} from '@oclif/core'
import {chmod, writeFile} from 'node:fs/promises'
import type {Snapshot} from '../../api/types.js'
import {GwCommand, type Context} from '../../base/command.js'

export interface SnapshotSaved {
  file: string
  account: string
  engine_time: string
  objects: number
  events: number
  bytes: number
  /** the file holds the webhook signing secrets and card numbers (--include-secrets) */
  secrets_included: boolean
}

export default class SnapshotsSave extends GwCommand<typeof SnapshotsSave> {
  static override summary = "Test helper: save the account's whole state to a file."
  static override operations = ['testSaveSnapshot'] as const
  static override description =
    `Objects, events, timeline jobs, idempotency records, provider statistics and settings (the test clock among them), read at one moment; not its keys. Load it with gw snapshots load: a test suite starts from a known world, and a bug report carries the state that shows the bug.
Webhook signing secrets and card numbers are left out (endpoints get a new secret when loaded; card numbers are masked but for the published test cards, so saved cards behave as before) unless --include-secrets: then the file holds working signing secrets and whole card numbers, so keep it like a key. The file is written readable by you only (0600).`
  static override aliases = ['snapshot:save']
  static override examples = [
    {description: 'Save the state your tests start from', command: '<%= config.bin %> <%= command.id %> fixtures/world.json'},
    {description: 'To stdout', command: '<%= config.bin %> <%= command.id %> - > world.json'},
    {description: 'With the signing secrets, to move an account to another engine whose receivers keep their secrets (sensitive)', command: '<%= config.bin %> <%= command.id %> world.json --include-secrets'},
  ]

  static override flags = {
    'include-secrets': Flags.boolean({description: "Also save the webhook endpoints' signing secrets and whole card numbers (sensitive: the file then holds working secrets). Needs a secret key.", env: 'GW_INCLUDE_SECRETS'}),
  }

  static override args = {
    file: Args.string({description: 'Where to write the snapshot (JSON); - for stdout.', required: true}),
  }

  async run(): Promise<SnapshotSaved> {
    return snapshotsSave(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw snapshots save` takes: its flags and arguments by name (run() passes them as parsed). */
export interface SnapshotsSaveOptions {
  'include-secrets'?: boolean
  file: string
}

export async function snapshotsSave(ctx: Context, o: SnapshotsSaveOptions): Promise<SnapshotSaved> {
  const includeSecrets = o['include-secrets'] === true
  const snap: Snapshot = await (await ctx.client()).testHelpers.saveSnapshot({includeSecrets})
  const text = JSON.stringify(snap)
  const saved = {file: o.file, account: snap.account, engine_time: snap.engine_time, objects: snap.rows.objects.length, events: snap.rows.events.length, bytes: Buffer.byteLength(text), secrets_included: includeSecrets}
  const sensitive = () => includeSecrets && ctx.notice(ctx.errColor.yellow(`! ${o.file === '-' ? 'This snapshot' : o.file} holds working webhook signing secrets and whole card numbers: keep it like a key, and out of bug reports.`))
  if (o.file === '-') {
    ctx.io.stdout.write(text + '\n')
    sensitive()
    return saved
  }
  // readable by its owner only, a file that was there before included (a mode given to writeFile holds for a file it creates)
  await writeFile(o.file, text + '\n', {mode: 0o600})
  await chmod(o.file, 0o600)
  ctx.print(`Saved ${snap.account} (${saved.objects} objects, ${saved.events} events, clock ${snap.engine_time}) to ${o.file}.`)
  sensitive()
  return saved
}
