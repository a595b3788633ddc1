import {GwCommand, GwError} from '../base/command.js'

export default class Logout extends GwCommand<typeof Logout> {
  static override summary = "Forget a profile's API key (the keychain entry or the credentials file line)."
  static override description = 'The profile keeps its base URL, so `gw login` can reuse it.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile live']

  async run(): Promise<{profile: string; logged_out: boolean}> {
    const profile = this.settings().profile.value
    const removed = await this.credentials.remove(profile)
    const store = this.configStore
    const had = store.profile(profile)
    if (!removed && !had?.key_storage) {
      throw new GwError(`Profile "${profile}" is not logged in.`, {hint: 'See your profiles with `gw config list`.'})
    }
    if (had) store.updateProfile(profile, {key_storage: undefined})
    this.print(`Logged out of profile "${profile}"; its API key was removed.`)
    return {profile, logged_out: true}
  }
}
