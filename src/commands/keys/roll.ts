import {Args, Flags} from '@oclif/core'
import type {ApiKey} from '../../api/types.js'
import {idempotencyKeyFlag} from '../../base/flags.js'
import {replayedWithoutSecret} from './shared/shown-once.js'
import {bareSecondsNotice, parseDuration} from '../../base/parse.js'
import {redactSecret} from '../../api/keys.js'
import {renderKey} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class KeysRoll extends GwCommand<typeof KeysRoll> {
  static override summary = 'Roll an API key: a new key with the same permissions; the old one keeps working until --expires-in.'
  static override operations = ['retrieveCurrentApiKey', 'rollApiKey'] as const
  static override description = `Without an id, rolls the key in use; the new key is then saved in the profile's credential storage. Expiry runs on the wall clock (never the test clock): redeploy what uses the old key before it stops (default 24h, 0 for at once, at most 7d).`
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> key_123 --expires-in 1h',
    {description: 'At once (a leaked key)', command: '<%= config.bin %> <%= command.id %> key_123 --expires-in 0'},
  ]

  static override args = {id: Args.string({description: 'The key (key_...); default: the key in use.'})}
  static override flags = {
    'expires-in': Flags.string({description: 'How long the old key keeps working: 24h (default), 30m, 0 for at once; at most 7d.'}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<ApiKey> {
    return keysRoll(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw keys roll` takes: its flags and arguments by name (run() passes them as parsed). */
export interface KeysRollOptions {
  'expires-in'?: string
  'idempotency-key'?: string
  id?: string
}

export async function keysRoll(ctx: Context, o: KeysRollOptions): Promise<ApiKey> {
  let expiresIn: number | undefined
  if (o['expires-in'] !== undefined) {
    const bare = bareSecondsNotice(o['expires-in'], '--expires-in')
    if (bare) ctx.notice(ctx.errColor.yellow(bare))
    expiresIn = o['expires-in'].trim() === '0' ? 0 : parseDuration(o['expires-in'], '--expires-in')
    if (expiresIn > 7 * 86_400) throw new UsageError(`--expires-in ${o['expires-in']} is longer than 7 days.`, 'The old key works at most 7 days after a roll; e.g. --expires-in 24h.')
  }
  const client = await ctx.client()
  const current = await client.apiKeys.self()
  const id = o.id ?? current.id
  if (o.id !== undefined && !/^key_[0-9A-Za-z]+$/.test(o.id)) throw new UsageError(`"${o.id}" is not a key id.`, 'Key ids start with key_: see gw keys list.')
  const rolled = await client.apiKeys.roll(id, expiresIn === undefined ? {} : {expires_in: expiresIn}, {idempotencyKey: o['idempotency-key']})
  ctx.print(renderKey(rolled, ctx.color))
  if (replayedWithoutSecret(ctx, rolled.secret, `The new key ${rolled.id} (rolled from ${id})`, `Roll it in turn for a working one: gw keys roll ${rolled.id} --expires-in 0${id === current.id ? ' (with the key in use, which still works until its expiry)' : ''}`)) return rolled
  if (rolled.secret) ctx.rememberSecret(rolled.secret)
  const old = await client.apiKeys.get(id).catch(() => undefined)
  const until = old?.expires_at ? `until ${old.expires_at}` : 'for now'
  if (id === current.id && rolled.secret) {
    // the profile in use now carries the new key
    const s = ctx.settings()
    const profile = s.profile.value
    if (ctx.configStore.profile(profile)) {
      const storage = await ctx.credentials.save(profile, rolled.secret)
      ctx.configStore.updateProfile(profile, {key_storage: storage})
      ctx.notice(`Saved the new key ${redactSecret(rolled.secret)} in profile "${profile}". The old key (${current.redacted}) keeps working ${until}.`)
    } else ctx.notice(`The old key (${current.redacted}) keeps working ${until}; the new one is above (it came from the environment, so no profile was changed).`)
  } else ctx.notice(`The old key keeps working ${until}. The new key is shown this once.`)
  return rolled
}
