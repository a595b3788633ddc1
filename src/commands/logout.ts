import {GwCommand, type Context} from '../base/command.js'
import {GwError} from '../errors.js'

export default class Logout extends GwCommand<typeof Logout> {
  static override summary = "Forget a profile's API key (the keychain entry or the credentials file line)."
  static override description = 'The profile keeps its base URL, so `gw login` can reuse it.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile live']

  async run(): Promise<{profile: string; logged_out: boolean}> {
    return logout(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw logout` takes: its flags and arguments by name (run() passes them as parsed). */
export interface LogoutOptions {

}

export async function logout(ctx: Context, o: LogoutOptions): Promise<{profile: string; logged_out: boolean}> {
  const profile = ctx.settings().profile.value
  const removed = await ctx.credentials.remove(profile)
  const store = ctx.configStore
  const had = store.profile(profile)
  if (!removed && !had?.key_storage) {
    throw new GwError(`Profile "${profile}" is not logged in.`, {hint: 'See your profiles with `gw config list`.'})
  }
  if (had) store.updateProfile(profile, {key_storage: undefined})
  ctx.print(`Logged out of profile "${profile}"; its API key was removed.`)
  return {profile, logged_out: true}
}
