import {Args} from '@oclif/core'
import {writeFile} from 'node:fs/promises'
import type {Snapshot} from '../../api/types.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export interface SnapshotSaved {
  file: string
  account: string
  engine_time: string
  objects: number
  events: number
  bytes: number
}

export default class SnapshotsSave extends GwCommand<typeof SnapshotsSave> {
  static override summary = "Test helper: save the account's whole state to a file."
  static override description =
    'Objects, events, timeline jobs, idempotency records, provider statistics and settings (the test clock among them), read at one moment; not its keys. Load it with gw snapshots load: a test suite starts from a known world, and a bug report carries the state that shows the bug.'
  static override aliases = ['snapshot:save']
  static override examples = [
    {description: 'Save the state your tests start from', command: '<%= config.bin %> <%= command.id %> fixtures/world.json'},
    {description: 'To stdout', command: '<%= config.bin %> <%= command.id %> - > world.json'},
  ]

  static override args = {
    file: Args.string({description: 'Where to write the snapshot (JSON); - for stdout.', required: true}),
  }

  async run(): Promise<SnapshotSaved> {
    return snapshotsSave(this.ctx, this.flags, this.args)
  }
}

export async function snapshotsSave(ctx: Context, _flags: GwFlags<typeof SnapshotsSave>, args: GwArgs<typeof SnapshotsSave>): Promise<SnapshotSaved> {
  const snap: Snapshot = await (await ctx.client()).testHelpers.saveSnapshot()
  const text = JSON.stringify(snap)
  const saved = {file: args.file, account: snap.account, engine_time: snap.engine_time, objects: snap.rows.objects.length, events: snap.rows.events.length, bytes: Buffer.byteLength(text)}
  if (args.file === '-') {
    ctx.io.stdout.write(text + '\n')
    return saved
  }
  await writeFile(args.file, text + '\n')
  ctx.print(`Saved ${snap.account} (${saved.objects} objects, ${saved.events} events, clock ${snap.engine_time}) to ${args.file}.`)
  return saved
}
