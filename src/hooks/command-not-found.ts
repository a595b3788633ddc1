// `gw paymnets list`: not a command. Says so, suggests the nearest command or topic (a typo in
// the topic or in the verb), and exits 127. On a terminal it asks "Did you mean …? (Y/n)" once
// and runs the suggestion; the suggestion is always a real command, so this never loops.
import type {Hook} from '@oclif/core'
import {spaced, suggestCommand} from '../base/did-you-mean.js'

const hook: Hook.CommandNotFound = async function (opts) {
  const {config} = opts
  const typed = opts.id.split(':').filter(Boolean)
  const bin = config.bin
  const s = suggestCommand(config, typed)
  const red = (t: string) => (process.stderr.isTTY && !process.env.NO_COLOR ? `\u001B[31m${t}\u001B[39m` : t)
  process.stderr.write(`${red('Error:')} ${spaced(opts.id)} is not a ${bin} command.\n`)
  if (s?.kind === 'command' && process.stdin.isTTY && process.stderr.isTTY) {
    const rest = [...typed.slice(s.words), ...(opts.argv ?? [])]
    const {createInterface} = await import('node:readline/promises')
    const rl = createInterface({input: process.stdin, output: process.stderr})
    let answer: string | null
    try {
      answer = await rl.question(`Did you mean ${spaced(s.id)}? (Y/n) `)
    } catch {
      answer = null
    } finally {
      rl.close()
    }
    if (answer !== null && /^(y|yes)?$/i.test(answer.trim())) return config.runCommand(s.id, rest)
  } else if (s?.kind === 'command') {
    process.stderr.write(`  Did you mean \`${bin} ${spaced(s.id)}\`?\n`)
  } else if (s?.kind === 'topic') {
    process.stderr.write(`  Did you mean \`${bin} ${spaced(s.id)}\`? \`${bin} help ${spaced(s.id)}\` lists its commands.\n`)
  }
  process.stderr.write(`  Run \`${bin} help\` for every command.\n`)
  this.exit(127)
}

export default hook
