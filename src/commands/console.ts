import {Flags} from '@oclif/core'
import {GwCommand} from '../base/command.js'
import {keysHelp} from '../console/keymap.js'
import {openConsole} from '../console/run.js'
import {ESC_WAIT_MS} from '../ui/key-reader.js'

export default class Console extends GwCommand<typeof Console> {
  static override summary = 'A full-screen terminal view: what needs attention, payments, disputes, the live events, the webhook endpoints and the gateway.'
  static override description = `One screen for a support agent working a queue and an operator watching the gateway, with the profile's key (--profile picks the account): Home lists what needs attention now; Payments searches and acts (refund, capture, cancel, confirmed as the commands confirm); Disputes answers the queue by due date with the evidence form. Events follows the live stream (filter, pause, an event's payload and deliveries, resend); Webhooks shows each endpoint's health and latest deliveries (replay since a time, enable, disable); Gateway shows each instance seen in the request log (req/s, p50/p99, 5xx over the last minute, readiness, last seen), providers, the webhook backlog and chaos rules, live. Actions always ask, whatever --yes says. Under a restricted key a view it may not read names the permission it needs. Every key typed counts, however fast; a paste is text; evidence being written is kept as a draft (under the config dir) until it is sent; the last view is remembered per profile. It needs a terminal; the terminal is left as it was found on q, Ctrl-C, SIGTERM and a crash. NO_COLOR turns colours off; GW_CONSOLE_THEME=light (or COLORFGBG) suits a light background.

${keysHelp()}`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Open on the disputes queue', command: '<%= config.bin %> <%= command.id %> --view disputes'},
    {description: 'As the support profile (a restricted key)', command: '<%= config.bin %> <%= command.id %> --profile support'},
    {description: 'Over a slow SSH link: wait longer for the rest of an arrow key', command: '<%= config.bin %> <%= command.id %> --escape-time 300'},
  ]

  static override flags = {
    view: Flags.string({description: "The view to open first: home, payments, disputes, events, webhooks or gateway (default: the one this profile's console was left on)."}),
    'escape-time': Flags.integer({
      description: `How long, in milliseconds, a lone ESC waits for the rest of a key's sequence before it is the Esc key (default ${ESC_WAIT_MS}, as vim's ttimeoutlen and tmux's escape-time). Raise it over a slow link (SSH far away) where arrow keys arrive as Esc and letters.`,
      min: 1,
      max: 5000,
    }),
  }

  async run(): Promise<void> {
    return openConsole(this.ctx, {view: this.flags.view, escapeTime: this.flags['escape-time']})
  }
}
