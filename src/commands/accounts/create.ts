import {Flags} from '@oclif/core'
import type {Account} from '../../api/types.js'
import {idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {replayedWithoutSecret} from '../keys/shared/shown-once.js'
import {parseMetadata} from '../../base/parse.js'
import {validProfileName} from '../../config/store.js'
import {redactSecret} from '../../api/keys.js'
import {renderAccount} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class AccountsCreate extends GwCommand<typeof AccountsCreate> {
  static override summary = 'Create an account: a gateway of its own (objects, events, webhooks, keys, test clock) sharing the engine.'
  static override operations = ['createAccount'] as const
  static override description = `Needs a key of the engine's own account (the one \`gw login --local\` saves). Prints the account with its secret and publishable keys: they are shown this once.
--login NAME saves a CLI profile for the new account (the base URL and CA of the profile in use, the new secret key), so \`gw --profile NAME ...\` or GW_PROFILE=NAME acts as it.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --name ci-job-42',
    {description: 'A profile for the new account', command: '<%= config.bin %> <%= command.id %> --name alice --login alice'},
    {description: 'In CI: a fresh account per job, its key for the job', command: 'export GW_API_KEY=$(<%= config.bin %> <%= command.id %> --name "job-$CI_JOB_ID" --json | jq -r .secret_key)'},
  ]

  static override flags = {
    name: Flags.string({description: 'A name for people (a person, a CI job, a test file).'}),
    metadata: metadataFlag,
    login: Flags.string({description: 'Save a CLI profile of this name for the new account (its secret key in the credential store).'}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Account> {
    return accountsCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw accounts create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface AccountsCreateOptions {
  name?: string
  metadata?: string[]
  login?: string
  'idempotency-key'?: string
}

export async function accountsCreate(ctx: Context, o: AccountsCreateOptions): Promise<Account> {
  if (o.login !== undefined && !validProfileName(o.login)) throw new UsageError(`--login "${o.login}" is not a valid profile name.`, 'Use letters, digits, dot, dash and underscore, e.g. --login alice.')
  const body: {name?: string; metadata?: Record<string, string>} = {}
  if (o.name) body.name = o.name
  const metadata = parseMetadata(o.metadata)
  if (metadata) body.metadata = metadata
  const client = await ctx.client()
  const account = await client.accounts.create(body, {idempotencyKey: o['idempotency-key']})
  ctx.print(renderAccount(account, ctx.color))
  if (
    replayedWithoutSecret(
      ctx,
      account.secret_key,
      `The account ${account.id}`,
      `Its keys can be rolled only with a key of that account (gw keys roll, and no such key was saved${o.login === undefined ? '' : `; profile "${o.login}" was not saved`}): delete it (gw accounts delete ${account.id}) and create another with a new --idempotency-key.`,
    )
  )
    return account
  if (account.secret_key) ctx.rememberSecret(account.secret_key)
  if (!ctx.json) ctx.notice(ctx.errColor.dim('The keys are shown this once: keep them (gw keys roll makes a new one if one is lost).'))
  if (o.login !== undefined && account.secret_key) {
    const s = ctx.settings()
    const storage = await ctx.credentials.save(o.login, account.secret_key)
    ctx.configStore.updateProfile(o.login, {base_url: client.baseUrl, ca_file: s.caFile.value, key_storage: storage})
    ctx.notice(`Saved profile "${o.login}" for ${account.id} (key ${redactSecret(account.secret_key)}). Use it with --profile ${o.login} or GW_PROFILE=${o.login}.`)
  }
  return account
}
