import {Args} from '@oclif/core'
import {readFile} from 'node:fs/promises'
import type {SnapshotLoad} from '../../api/types.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class SnapshotsLoad extends GwCommand<typeof SnapshotsLoad> {
  static override summary = "Test helper: replace the account's whole state with a saved snapshot."
  static override operations = ['testLoadSnapshot'] as const
  static override description =
    "Every object, event, job, idempotency record, statistic and setting of the account the key belongs to is replaced by the snapshot's, in one transaction, and its clock set to the snapshot's; its keys stay. Into the account it was saved from, or another (a fresh account per test run)."
  static override aliases = ['snapshot:load']
  static override examples = [
    {description: 'Start a test run from a known world', command: '<%= config.bin %> <%= command.id %> fixtures/world.json'},
    {description: 'From stdin', command: 'cat world.json | <%= config.bin %> <%= command.id %> -'},
  ]

  static override args = {
    file: Args.string({description: 'The snapshot (JSON, as gw snapshots save wrote it); - for stdin.', required: true}),
  }

  async run(): Promise<SnapshotLoad> {
    return snapshotsLoad(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw snapshots load` takes: its flags and arguments by name (run() passes them as parsed). */
export interface SnapshotsLoadOptions {
  file: string
}

export async function snapshotsLoad(ctx: Context, o: SnapshotsLoadOptions): Promise<SnapshotLoad> {
  let text: string
  try {
    text = o.file === '-' ? await readStdin() : await readFile(o.file, 'utf8')
  } catch (e) {
    throw new UsageError(`Cannot read ${o.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`, 'Give the file gw snapshots save wrote.')
  }
  let snapshot: unknown
  try {
    snapshot = JSON.parse(text)
  } catch (e) {
    throw new UsageError(`${o.file} is not JSON (${(e as Error).message}).`, 'Give the file gw snapshots save wrote.')
  }
  const loaded = await (await ctx.client()).testHelpers.loadSnapshot(snapshot)
  ctx.print(`Loaded ${loaded.objects} objects, ${loaded.events} events and ${loaded.jobs} pending jobs (saved from ${loaded.from_account}); the clock is at ${loaded.engine_time}.`)
  if (loaded.new_webhook_secrets > 0)
    ctx.notice(
      `${loaded.new_webhook_secrets} webhook endpoint(s) came without their signing secret (saved without --include-secrets) and got a new one: gw webhooks rotate-secret ID --expires-in 0 shows a secret to give your receiver (gw webhooks list names them).`,
    )
  return loaded
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of process.stdin) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
