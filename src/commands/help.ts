import {Args, Command} from '@oclif/core'
import {spaced, suggestCommand} from '../base/did-you-mean.js'
import {ExitCode, UsageError} from '../errors.js'

export default class HelpCommand extends Command {
  static override summary = 'Show help for gw, a topic or a command.'
  static override description = 'The same as --help: `gw help payments` lists the payments commands, `gw help payments create` shows its flags and examples.'
  static override examples = ['<%= config.bin %> help', '<%= config.bin %> help payments', '<%= config.bin %> help payments create']
  static override strict = false
  static override args = {command: Args.string({description: 'A topic or a command, e.g. payments, or payments create.'})}

  async run(): Promise<void> {
    const {argv} = await this.parse(HelpCommand)
    const words = (argv as string[]).filter((w) => !w.startsWith('-'))
    const id = words.join(':')
    if (id && !this.config.findCommand(id) && !this.config.findTopic(id)) {
      const s = suggestCommand(this.config, words)
      const err = new UsageError(
        `No help for "${words.join(' ')}": it is not a ${this.config.bin} command or topic.`,
        s ? `Did you mean \`${this.config.bin} help ${spaced(s.id)}\`?` : `Run \`${this.config.bin} help\` for every command.`,
      )
      process.stderr.write(`Error: ${err.message}\n  ${err.hint}\n`)
      this.exit(ExitCode.UNKNOWN_COMMAND)
    }
    const {Help} = await import('@oclif/core')
    await new Help(this.config, this.config.pjson.oclif.helpOptions ?? {}).showHelp(words)
  }
}
