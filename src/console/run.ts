// `gw console`'s work: a full-screen view needs a terminal (stdin and stdout), outside CI and
// without --json; then the session (the API client every command uses, the key, the clock),
// the alternate screen, and the Ink app — both loaded only now, so no other command pays for them.
import type {Context} from '../base/context.js'
import {keepOptimizing} from '../client/runtime.js'
import {configDir} from '../config/paths.js'
import {GwError, UsageError} from '../errors.js'
import {canRenderInk} from '../ui/gate.js'
import type {ViewName} from './keymap.js'
import {matchView} from './keymap.js'
import {lastView, rememberView} from './remember.js'

export interface ConsoleOptions {
  /** the view to open first (home, payments, disputes, events, webhooks, gateway) */
  view?: string
  /** milliseconds a lone ESC waits for the rest of a key's sequence (--escape-time) */
  escapeTime?: number
}

export async function openConsole(ctx: Context, opts: ConsoleOptions): Promise<void> {
  const {stdin, stdout, stderr} = ctx.io
  let view: ViewName | undefined
  if (opts.view !== undefined) {
    view = matchView(opts.view)
    if (!view) throw new UsageError(`--view "${opts.view}" is not a view of the console.`, 'One of home, payments, disputes, events, webhooks, gateway.')
  }
  if (!(stdin as NodeJS.ReadStream).isTTY || !canRenderInk({json: ctx.json, stream: stdout, env: ctx.env})) {
    throw new UsageError(
      'gw console is a full-screen view: it needs a terminal for its input and output (not a pipe, not CI, not --json).',
      'For scripts, the commands it is made of print JSON: gw payments list --json, gw disputes due --json, gw events tail, gw logs tail.',
    )
  }
  // React in production mode (its development build, the default without NODE_ENV, spent a third
  // of the console's CPU per key press in a profile: dev-only checks and console.createTask);
  // set before React is first loaded, below
  process.env.NODE_ENV ??= 'production'
  const profile = ctx.settings().profile.value
  const root = configDir(ctx.env)
  // without --view: where this profile's console was left last time
  view ??= lastView(root, profile)
  const client = await ctx.client()
  const key = (await ctx.apiKey()).value ?? ''
  keepOptimizing()
  const [{ConsoleSession}, {makeTheme}, {enterScreen}] = await Promise.all([import('./session.js'), import('./theme.js'), import('./screen.js')])
  const session = new ConsoleSession({client, apiKey: key, profile, configDir: root})
  const theme = makeTheme(ctx.env, stdout)
  const out = stdout as NodeJS.WriteStream
  const input = stdin as NodeJS.ReadStream
  const screen = enterScreen({stdout: out, stdin: input, stderr: stderr as NodeJS.WriteStream})
  try {
    const [{mountConsole, tabOf}] = await Promise.all([import('./app.js'), session.start()])
    const onRoute = (stack: {view: string}[]) => rememberView(root, profile, tabOf(stack[stack.length - 1] as Parameters<typeof tabOf>[0]))
    const app = await mountConsole({session, theme, initial: view && view !== 'home' ? [{view: 'home'}, {view}] : undefined, onRoute, escapeMs: opts.escapeTime, stdout: out, stdin: input, stderr: stderr as NodeJS.WriteStream})
    screen.onInterrupt = () => app.unmount()
    await app.done.catch((e: unknown) => {
      // a view threw as it rendered: Ink let go; the terminal is restored below, then this is said
      throw new GwError(`gw console stopped on an unexpected error in a view: ${(e as Error)?.message ?? String(e)}`, {
        hint: 'The terminal is as it was found. This is a bug in gw console: please report it with what you did just before.',
      })
    })
  } finally {
    session.close()
    screen.restore()
  }
}
