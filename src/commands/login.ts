import {Flags} from '@oclif/core'
import {login, type LoginResult} from './shared/login.js'
import {GwCommand} from '../base/command.js'

export default class Login extends GwCommand<typeof Login> {
  static override summary = 'Save an API key and base URL as a profile (the key goes to the OS keychain).'
  static override description = `The key is read from a hidden prompt, or from stdin with --api-key - ; it is checked against the API and stored in the OS keychain (or, where there is none, in a 0600 file, with a notice). A test profile becomes the default; a live one (sk_live_) only when you say so: on a terminal gw asks, elsewhere it stays a named profile unless --default.
--local takes the base URL, CA certificate and test key from the data dir of the engine that \`gw serve\` runs (GW_DATA_DIR, default ~/.gw/engine) and saves them as the profile "local".`

  static override examples = [
    {description: 'Use the local engine started by `gw serve`', command: '<%= config.bin %> <%= command.id %> --local'},
    {description: 'Log in to a gateway; the key is asked for without echo', command: '<%= config.bin %> <%= command.id %> --base-url https://gateway.example/v1'},
    {description: 'Pipe the key from a password manager', command: 'pass show gw/test-key | <%= config.bin %> <%= command.id %> --base-url https://gateway.example/v1 --api-key -'},
    {description: 'A second profile for live mode (not the default unless you say so)', command: '<%= config.bin %> <%= command.id %> --profile live --base-url https://gateway.example/v1'},
    {description: 'Keep the current default while adding a test profile', command: '<%= config.bin %> <%= command.id %> --profile staging --base-url https://staging.example/v1 --no-default'},
  ]

  static override flags = {
    local: Flags.boolean({description: 'Use the local engine (`gw serve`): base URL, CA and key from its data dir.', exclusive: ['base-url']}),
    'data-dir': Flags.string({description: 'Data dir of the local engine (default: GW_DATA_DIR or ~/.gw/engine).', dependsOn: ['local']}),
    'insecure-storage': Flags.boolean({description: 'Store the key in a 0600 file instead of the OS keychain.'}),
    default: Flags.boolean({description: 'Make the profile the default (--no-default: keep the current one). Without either, a test profile becomes the default and a live one only if you confirm on a terminal.', allowNo: true}),
    'skip-key-check': Flags.boolean({description: 'Save without checking the key against the API (--skip-verify is the old name).', aliases: ['skip-verify'], deprecateAliases: true}),
  }

  async run(): Promise<LoginResult> {
    return login(this.ctx, this.flags)
  }
}
