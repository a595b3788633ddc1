// The operator's journey in `gw console` (docs/api.md#gw-console), in a real terminal (tmux): two `gw serve
// --store postgres://…` instances on one database of the run's throwaway cluster (one CA for
// both: --tls-dir), traffic to both, the console on the first one's base URL. The Gateway view
// shows both live; one is killed with SIGKILL and is marked down, its figures said to be as
// old as they are, while the console keeps working; then the instance the console talks to is
// restarted: the reconnecting banner, then live again with both views of the fleet.
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {hostname, tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {GwClient} from '../src/client/index.js'
import {freshDatabase} from '../src/engine/test-support/pg.js'
import {startServe, type ServeProcess} from '../src/engine/test-support/serve-process.js'
import {cliEnv, REPO, runCli, snapshotCli} from './support/cli-snapshot.js'
import {openConsoleTerm} from './support/console-term.js'
import {tmuxOn} from './support/tmux.js'

const KEY = 'sk_test_console_operator_0123456789'
const SOCKET = `gw-console-op-${process.pid}`
const term = tmuxOn(SOCKET)
const tmux = term.run
const keys = (...k: string[]) => tmux('send-keys', '-t', 'gw', ...k)
const paneFlag = (name: string) => tmux('display-message', '-p', '-t', 'gw', `#{${name}}`).trim()
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

interface Instance extends ServeProcess {
  name: string
}

let ROOT: string
let BIN: string
let home: string
let tls: string
let storeUrl: string
const dirs: string[] = []
const fleet: Instance[] = []
let traffic: Promise<void> | undefined
let stopTraffic = false

/** `gw serve` on the shared store: on a free port, or on `port` (a restart). */
async function serve(dir: string, port = 0): Promise<Instance> {
  const args = ['--store', storeUrl, '--port', String(port), '--data-dir', dir, '--tls-dir', tls, '--api-key', KEY, '--secrets-key-file', join(tls, 'fleet-secrets.key'), '--rate-limit', '0', '--drain', '0']
  const proc = await startServe(BIN, args, {cwd: ROOT, env: {...cliEnv(home, dir), GW_STORE: '', DATABASE_URL: ''}})
  return {...proc, name: `${hostname()}:${proc.port}`}
}

/**
 * Requests to each live instance, a few a second, until stopped (a killed one's fail: ignored).
 * One client per address, its connections kept alive (a TLS handshake per request cost both sides
 * more than the request); a restarted instance's is connected again by the client.
 */
function sendTraffic(): Promise<void> {
  const ca = readFileSync(join(tls, 'ca.crt'), 'utf8')
  const clients = new Map<string, GwClient>()
  return (async () => {
    while (!stopTraffic) {
      await Promise.all(
        fleet.map(async (i) => {
          let c = clients.get(i.baseUrl)
          if (!c) clients.set(i.baseUrl, (c = new GwClient({baseUrl: i.baseUrl, apiKey: KEY, ca, maxRetries: 0})))
          try {
            await c.payments.list({limit: 1})
          } catch {
            // down, or restarting
          }
        }),
      )
      await new Promise((r) => setTimeout(r, 150))
    }
    for (const c of clients.values()) await c.close()
  })()
}

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'console.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).')
  ROOT = snapshotCli('gw-e2e-console-op-cli-')
  BIN = join(ROOT, 'bin', 'run.js')
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-console-op-home-'))
  tls = mkdtempSync(join(tmpdir(), 'gw-e2e-console-op-tls-'))
  storeUrl = await freshDatabase('console_op')
  dirs.push(mkdtempSync(join(tmpdir(), 'gw-e2e-console-op-a-')), mkdtempSync(join(tmpdir(), 'gw-e2e-console-op-b-')))
  // the first makes the schema, the CA and the secrets key; the second finds them
  fleet.push(await serve(dirs[0]!))
  fleet.push(await serve(dirs[1]!))
  // the console's profile: the first instance's base URL, CA and key
  const login = await runCli(BIN, ['login', '--local', '--data-dir', dirs[0]!], {cwd: ROOT, env: cliEnv(home, dirs[0]!)})
  expect(login.code, login.stderr).toBe(0)
  traffic = sendTraffic()
}, 60_000)

afterAll(async () => {
  stopTraffic = true
  await traffic
  try {
    tmux('kill-server')
  } catch {
    // no session left
  }
  for (const i of fleet) await i.stop('SIGKILL')
  for (const d of [home, tls, ROOT, ...dirs]) if (d) rmSync(d, {recursive: true, force: true})
})

describe("gw console: the operator's journey", () => {
  it('shows both PostgreSQL instances live, one killed marked down with its figures aging, and recovers when its own instance restarts', async () => {
    // the shell saves the tty's modes before and after (stty -g) and prints EXIT=<code> at the end
    // (its waits read the screen again only once the pane has written: test/support/tmux.ts)
    const term = openConsoleTerm(SOCKET, {root: ROOT, home, args: ['--view', 'gateway'], size: {x: 100, y: 30}, stty: true})
    const [a, b] = fleet as [Instance, Instance]
    const row = (i: Instance, state: string) => new RegExp(`${esc(i.name)}(?: \\*)? +${state}`)

    // both instances, seen in the one request log of the fleet, each ready at its own address
    await term.waitForScreen(row(a, 'up +ready'))
    const both = await term.waitForScreen(row(b, 'up +ready'))
    expect(both).toMatch(/Instances \(2\)/)
    expect(both).toContain('/readyz ready')
    expect(both).toMatch(/Providers \(\d+\)/)
    expect(both).toContain('Webhook backlog')

    // SIGKILL one: marked down, its figures those of its last minute seen, with their age
    await b.stop('SIGKILL')
    const down = await term.waitForScreen(row(b, 'down +refused'))
    expect(down).toMatch(/figures as of (?:just now|\d+s ago), when last seen · nothing listens at/)
    expect(down).toMatch(row(a, 'up +ready'))
    expect(down).toContain('● live')
    // the figures age on screen
    await term.waitForScreen(/figures as of (?:[5-9]|\d\d)s ago/)

    // the instance the console talks to restarts (SIGTERM, same port): the banner, then live again
    await a.stop('SIGTERM')
    await term.waitForScreen(/Reconnecting to 127\.0\.0\.1:\d+/)
    fleet[0] = await serve(dirs[0]!, a.port)
    await term.waitForScreen(/● live/, 30_000)
    const back = await term.waitForScreen(new RegExp(`${row(a, 'up +ready').source}[^\\n]*just now`), 30_000)
    expect(back).not.toContain('Reconnecting to')
    expect(back).toMatch(row(b, 'down'))

    keys('q')
    const after = await term.waitForScreen(/EXIT=\d+/)
    expect(after).toContain('EXIT=0')
    expect(paneFlag('alternate_on')).toBe('0')
    expect(readFileSync(join(home, 'stty.after'), 'utf8')).toBe(readFileSync(join(home, 'stty.before'), 'utf8'))
  }, 120_000)
})
