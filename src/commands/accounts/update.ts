import {Flags} from '@oclif/core'
import type {Account} from '../../api/types.js'
import {idArg, idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {parseMetadata} from '../../base/parse.js'
import {renderAccount} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class AccountsUpdate extends GwCommand<typeof AccountsUpdate> {
  static override summary = "Rename an account or add to its metadata."
  static override operations = ['updateAccount'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> acct_123 --name "team payments"', '<%= config.bin %> <%= command.id %> acct_123 --metadata owner=alice']
  static override args = {id: idArg('acct_', 'account', 'List them with: gw accounts list')}
  static override flags = {
    name: Flags.string({description: 'The new name.'}),
    metadata: metadataFlag,
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Account> {
    return accountsUpdate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw accounts update` takes: its flags and arguments by name (run() passes them as parsed). */
export interface AccountsUpdateOptions {
  name?: string
  metadata?: string[]
  'idempotency-key'?: string
  id: string
}

export async function accountsUpdate(ctx: Context, o: AccountsUpdateOptions): Promise<Account> {
  const body: {name?: string; metadata?: Record<string, string>} = {}
  if (o.name !== undefined) body.name = o.name
  const metadata = parseMetadata(o.metadata)
  if (metadata) body.metadata = metadata
  if (Object.keys(body).length === 0) throw new UsageError('Nothing to update.', 'Pass --name or --metadata key=value.')
  const account = await (await ctx.client()).accounts.update(o.id, body, {idempotencyKey: o['idempotency-key']})
  ctx.print(renderAccount(account, ctx.color))
  return account
}
