import {Flags} from '@oclif/core'
import {KEY_LEVELS, KEY_RESOURCES} from '../../api/keys.js'
import type {ApiKey} from '../../api/types.js'
import {idempotencyKeyFlag} from '../../base/flags.js'
import {replayedWithoutSecret} from './shared/shown-once.js'
import {renderKey} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'
import {closest} from '../../suggest.js'

export default class KeysCreate extends GwCommand<typeof KeysCreate> {
  static override summary = "Create an API key of the account: a restricted key with some permissions, or a secret or publishable key."
  static override operations = ['createApiKey'] as const
  static override description = `Permissions are resource:read or resource:write (write includes read), comma-separated; *:read gives read on everything. Resources: ${KEY_RESOURCES.join(', ')}.
The key is shown this once. Managing keys needs a secret key.`
  static override examples = [
    {description: 'A key for support staff', command: '<%= config.bin %> <%= command.id %> --name support --permissions disputes:write,payments:read,customers:read,refunds:write,events:read'},
    {description: 'A read-only key for a dashboard', command: '<%= config.bin %> <%= command.id %> --name dashboard --permissions "*:read"'},
    {description: 'Keep only the key', command: '<%= config.bin %> <%= command.id %> --name ci --permissions payments:write --json | jq -r .secret'},
  ]

  static override flags = {
    name: Flags.string({description: 'What the key is for (support, a CI job, a person).'}),
    permissions: Flags.string({description: 'resource:read or resource:write, comma-separated (a restricted key).'}),
    type: Flags.string({description: 'restricted (with --permissions, the default), secret (everything the account may do) or publishable (browsers only).', options: ['restricted', 'secret', 'publishable']}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<ApiKey> {
    return keysCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** --permissions checked before anything is sent: known resources and levels, a near miss named. */
export function parsePermissionsFlag(text: string): string[] {
  const out: string[] = []
  for (const raw of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [resource, level, extra] = raw.split(':')
    if (resource === undefined || level === undefined || extra !== undefined) throw new UsageError(`--permissions "${raw}" is not resource:level.`, `e.g. --permissions payments:read,refunds:write`)
    if (!(KEY_LEVELS as readonly string[]).includes(level)) {
      const near = closest(level, KEY_LEVELS, 1)
      throw new UsageError(`--permissions "${raw}": the level is read or write.`, near.length ? `Did you mean ${resource}:${near[0]}?` : 'e.g. payments:read')
    }
    if (resource !== '*' && !(KEY_RESOURCES as readonly string[]).includes(resource)) {
      const near = closest(resource, KEY_RESOURCES, 1)
      throw new UsageError(`--permissions "${raw}": there is no resource "${resource}".`, near.length ? `Did you mean ${near[0]}:${level}?` : `Resources: ${KEY_RESOURCES.join(', ')}.`)
    }
    out.push(`${resource}:${level}`)
  }
  if (!out.length) throw new UsageError('--permissions is empty.', 'e.g. --permissions payments:read')
  return out
}

/** What `gw keys create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface KeysCreateOptions {
  name?: string
  permissions?: string
  type?: string
  'idempotency-key'?: string
}

export async function keysCreate(ctx: Context, o: KeysCreateOptions): Promise<ApiKey> {
  const type = (o.type ?? 'restricted') as ApiKey['type']
  if (type === 'restricted' && o.permissions === undefined) throw new UsageError('A restricted key needs --permissions.', 'e.g. --permissions payments:read,refunds:write, or --type secret for a key that may do everything.')
  if (type !== 'restricted' && o.permissions !== undefined) throw new UsageError(`A ${type} key has no --permissions of its own.`, 'Leave out --type (a restricted key) to choose its permissions.')
  const body: {type: ApiKey['type']; name?: string; permissions?: string[]} = {type}
  if (o.name) body.name = o.name
  if (o.permissions !== undefined) body.permissions = parsePermissionsFlag(o.permissions)
  const key = await (await ctx.client()).apiKeys.create(body, {idempotencyKey: o['idempotency-key']})
  ctx.print(renderKey(key, ctx.color))
  if (replayedWithoutSecret(ctx, key.secret, `The key ${key.id}`, `Roll it for a working one: gw keys roll ${key.id} --expires-in 0`)) return key
  if (!ctx.json) ctx.notice(ctx.errColor.dim('The key is shown this once: hand it over now (gw keys roll makes a new one if it is lost).'))
  return key
}
