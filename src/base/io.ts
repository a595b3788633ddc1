// Terminal input: stdin, hidden prompts, typed confirmations, and opening a browser.
import {spawn} from 'node:child_process'
import {createInterface} from 'node:readline/promises'
import {AbortedError, UsageError} from '../errors.js'

let stdinText: Promise<string> | undefined

/** All of stdin, read once (a second call gets the same text). */
export function readStdin(input: NodeJS.ReadableStream = process.stdin): Promise<string> {
  stdinText ??= (async () => {
    const chunks: Buffer[] = []
    for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
    return Buffer.concat(chunks).toString('utf8')
  })()
  return stdinText
}

/** Reads a line from the terminal without echoing it (for API keys). */
export async function promptHidden(question: string, input = process.stdin, output: NodeJS.WritableStream = process.stderr): Promise<string> {
  if (!input.isTTY) throw new UsageError('Cannot prompt: stdin is not a terminal.', 'Pipe the key in with `--api-key -` instead.')
  output.write(question)
  input.setRawMode(true)
  input.resume()
  input.setEncoding('utf8')
  return new Promise<string>((resolve, reject) => {
    let value = ''
    const finish = () => {
      input.setRawMode(false)
      input.pause()
      input.removeListener('data', onData)
      output.write('\n')
    }
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          finish()
          resolve(value)
          return
        }
        if (ch === '\u0003' || (ch === '\u0004' && !value)) {
          finish()
          reject(new AbortedError('Canceled.'))
          return
        }
        if (ch === '\u007F' || ch === '\b') value = value.slice(0, -1)
        else if (ch >= ' ') value += ch
      }
    }
    input.on('data', onData)
  })
}

/** Reads one visible line from the terminal. */
export async function promptLine(question: string, input = process.stdin, output: NodeJS.WritableStream = process.stderr): Promise<string> {
  const rl = createInterface({input, output, terminal: Boolean(input.isTTY)})
  try {
    return await rl.question(question)
  } finally {
    rl.close()
  }
}

/** How long an opener may run before it counts as started: xdg-open and open exit at once, a browser named in $BROWSER keeps running. */
const OPENER_GRACE_MS = 2000

/**
 * Opens a URL in the browser: $BROWSER first, then the platform's opener. True only when it
 * worked: the opener exited 0, or is still running after a moment (a browser itself); false when
 * none started or it failed (xdg-open exits 3 on a machine without a browser).
 */
export async function openUrl(url: string, env: NodeJS.ProcessEnv = process.env, graceMs = OPENER_GRACE_MS): Promise<boolean> {
  let cmd: string
  let args: string[]
  if (env.BROWSER) {
    const parts = env.BROWSER.split(' ').filter(Boolean)
    cmd = parts[0]
    args = parts.slice(1)
    if (args.some((a) => a.includes('%s'))) args = args.map((a) => a.replace('%s', url))
    else args.push(url)
  } else if (process.platform === 'darwin') {
    cmd = 'open'
    args = [url]
  } else if (process.platform === 'win32') {
    cmd = 'cmd'
    args = ['/c', 'start', '""', url]
  } else {
    cmd = 'xdg-open'
    args = [url]
  }
  return new Promise<boolean>((resolve) => {
    try {
      const child = spawn(cmd, args, {detached: true, stdio: 'ignore'})
      const timer = setTimeout(() => {
        child.unref()
        resolve(true)
      }, graceMs)
      timer.unref()
      child.once('error', () => {
        clearTimeout(timer)
        resolve(false)
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        resolve(code === 0)
      })
    } catch {
      resolve(false)
    }
  })
}
