// `gw console` in a real terminal: tmux on its own socket runs the built CLI (a snapshot of bin/
// and dist/), keys go in with send-keys and the screen comes back with capture-pane. One engine
// in this process for the file. What only a real terminal shows: q, Ctrl-C, SIGTERM and a crash
// leave the terminal as they found it (the normal screen, the cursor, the tty's modes); and the
// support agent's journey: a payment found by an email typed in mixed case, part of it refunded,
// a dispute answered with a pasted multi-line text, and the ruling seen after a clock advance.
// The views' own behaviour (the frame at 80×24, its keys, the lists, the evidence form, Events,
// Webhooks) is tested in process: src/console/views/*.test.tsx.
// What it costs: a console's start is 1.5-2 CPU-s (node, oclif, Ink), outside this process's
// accounting (tmux runs it). Each test about a start or a stop (q, Ctrl-C, SIGTERM, a crash, a
// draft kept across a quit, the journey from start to q) starts its own; what happens inside
// shares one: keys and what can be copied; the columns at 120, then resized to 80, and a small
// terminal (resized to 60×15). Waits read the screen again only when the pane has written
// (test/support/tmux.ts), not every 100 ms.
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import type {Dispute, Payment} from '../src/api/types.js'
import {GwClient} from '../src/client/index.js'
import {startEngine, type EngineHandle} from '../src/engine/index.js'
import {cliEnv, REPO, runCli, snapshotCli} from './support/cli-snapshot.js'
import {openConsoleTerm, type ConsoleTerm} from './support/console-term.js'
import {tmuxOn} from './support/tmux.js'
import stringWidth from 'string-width'

let ROOT: string
let BIN: string
let home: string
let dataDir: string
let engine: EngineHandle
let api: GwClient

const SOCKET = `gw-console-${process.pid}`
const term = tmuxOn(SOCKET)
const tmux = term.run
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const screen = term.screen
const paneFlag = (name: string) => tmux('display-message', '-p', '-t', 'gw', `#{${name}}`).trim()
/** the console last opened: its waits read the screen again only after the pane wrote (console-term.ts) */
let current: ConsoleTerm | undefined
// generous: on a machine shared by several builds a console can take long to start (nothing it shows is timed)
const waitForScreen = (text: string | RegExp, ms = 45_000) => (current ?? term).waitForScreen(text, ms)
/** waits until `ok()` (which reads the screen) holds, at most `ms`; whether it did */
const until = async (ok: () => boolean, ms = 5000) => (await (current ?? term).waitFor(ok, ms)) ?? false

const keys = (...k: string[]) => tmux('send-keys', '-t', 'gw', ...k)
const type = (text: string) => tmux('send-keys', '-t', 'gw', '-l', text)

/**
 * Runs `gw console ARGS` in a tmux session of the given size. The shell saves the tty's modes
 * before and after (stty -g), and prints EXIT=<code> when the console ends.
 */
function openConsole(size: {x: number; y: number}, args: string[] = [], env: Record<string, string> = {}): ConsoleTerm {
  current = openConsoleTerm(SOCKET, {root: ROOT, home, dataDir, args, size, env, stty: true, banner: 'BEFORE-THE-CONSOLE'})
  return current
}

/** After the console ended: the shell's screen back, the cursor shown, the tty's modes as before. */
async function expectTerminalRestored(code: number) {
  const after = await waitForScreen(/EXIT=\d+/)
  expect(after).toContain(`EXIT=${code}`)
  expect(after).toContain('BEFORE-THE-CONSOLE')
  expect(after).not.toContain('q quit')
  expect(paneFlag('alternate_on')).toBe('0')
  expect(paneFlag('cursor_flag')).toBe('1')
  await waitForFile(join(home, 'stty.after'))
  expect(readFileSync(join(home, 'stty.after'), 'utf8')).toBe(readFileSync(join(home, 'stty.before'), 'utf8'))
}

async function waitForFile(path: string) {
  for (let i = 0; i < 100 && !existsSync(path); i++) await sleep(50)
}

/** From a queue of one dispute: open it, the evidence form, and the value of shipping_address (3rd of its checklist). */
async function openShippingAddress() {
  await waitForScreen(/1 dispute\b/)
  keys('Enter')
  await waitForScreen('[ ] shipping_address')
  keys('e')
  await waitForScreen('Field key')
  keys('3', 'Enter')
  await waitForScreen('Esc cancels (here: back to the key)')
}

function closeConsole() {
  try {
    tmux('kill-session', '-t', 'gw')
  } catch {
    // closed already
  }
  rmSync(join(home, 'stty.before'), {force: true})
  rmSync(join(home, 'stty.after'), {force: true})
}

let zoePaid: Payment
let dispute: Dispute

const card = {type: 'card' as const, card: {number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123'}}
const pay = (amount: number, reference: string) => api.payments.create({amount, currency: 'EUR', payment_method: 'card', payment_method_data: card, reference})

/** A dispute of its own (€15.00, product not received), for a test that answers it. */
async function aDispute(reference: string): Promise<Dispute> {
  return api.testHelpers.createDispute({payment: (await pay(1500, reference)).id, reason: 'product_not_received'})
}

/** On Disputes: the queue filtered to one dispute by its id, and that dispute opened. */
async function openDispute(id: string, shown: string) {
  keys('/')
  await waitForScreen('Enter filter · Esc cancel')
  type(id)
  keys('Enter')
  // the filter applied (the queue may hold one dispute before it is)
  await waitForScreen(new RegExp(`Filter "${id}"[\\s\\S]*1 dispute\\b`))
  keys('Enter')
  await waitForScreen(shown)
}

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'console.js')) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing: run `npm run build` first (`npm test` does).')
  }
  ROOT = snapshotCli('gw-e2e-console-cli-')
  BIN = join(ROOT, 'bin', 'run.js')
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-console-home-'))
  dataDir = mkdtempSync(join(tmpdir(), 'gw-e2e-console-engine-'))
  engine = await startEngine({dataDir, port: 0, durability: 'normal', log: () => {}})
  api = new GwClient({baseUrl: engine.baseUrl, apiKey: engine.secretKey, ca: engine.caCertPem, maxRetries: 0})
  const login = await runCli(BIN, ['login', '--local'], {cwd: ROOT, env: cliEnv(home, dataDir)})
  expect(login.code).toBe(0)
  // the customer's payments: one disputed, then a newer one the agent refunds part of (the
  // customer's email stored as the shop took it, in lower case)
  const zoeDisputed = await api.payments.create({amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card, customer: {email: 'zoe@lovelace-shop.example', name: 'Zoë Lovelace'}, reference: 'ORDER-1'})
  dispute = await api.testHelpers.createDispute({payment: zoeDisputed.id, reason: 'product_not_received'})
  zoePaid = await api.payments.create({amount: 4000, currency: 'EUR', payment_method: 'card', payment_method_data: card, customer: {email: 'zoe@lovelace-shop.example'}, reference: 'ORDER-2'})
  await api.payments.create({amount: 999, currency: 'EUR', payment_method: 'card', payment_method_data: card, customer: {email: 'someone@else.example'}, reference: 'ORDER-3'})
  expect(zoePaid.status).toBe('succeeded')
  expect(dispute.status).toBe('needs_response')
}, 60_000)

// a test that failed half-way leaves no session for the next
afterEach(() => closeConsole())

afterAll(async () => {
  try {
    tmux('kill-server')
  } catch {
    // no session left
  }
  await engine?.close()
  for (const dir of [home, dataDir, ROOT]) if (dir) rmSync(dir, {recursive: true, force: true})
})

describe('gw console: the terminal, left as it was found', () => {
  it("q restores the terminal: the shell's screen, the cursor, the tty's modes", async () => {
    openConsole({x: 80, y: 24}, ['--view', 'home'])
    await waitForScreen(/Disputes due \(1\)/)
    keys('q')
    await expectTerminalRestored(0)
    closeConsole()
  }, 60_000)

  it('Ctrl-C and SIGTERM leave the terminal as they found it too', async () => {
    openConsole({x: 80, y: 24}, ['--view', 'disputes'])
    await waitForScreen('needing a response')
    keys('C-c')
    await expectTerminalRestored(0)
    closeConsole()

    const opened = openConsole({x: 80, y: 24}, ['--view', 'home'])
    await waitForScreen('Needs attention now')
    // the console's own process: the child of the pane's shell that runs bin/run.js
    const node = opened.pid()
    expect(node).toBeGreaterThan(1)
    process.kill(node, 'SIGTERM')
    await expectTerminalRestored(143)
    closeConsole()
  }, 60_000)

  it('a crash leaves the terminal as it found it too, exits 1 and says what happened', async () => {
    // a view that throws as it renders (Ink lets go, the command restores and reports)
    openConsole({x: 80, y: 24}, ['--view', 'home'], {GW_CONSOLE_TEST_CRASH: '1'})
    await waitForScreen('Needs attention now')
    keys('!')
    await expectTerminalRestored(1)
    const said = screen()
    expect(said).toContain('gw console stopped on an unexpected error in a view: a test crash')
    expect(said).toContain('The terminal is as it was found.')
    closeConsole()

    // an error thrown outside React (a timer's): the process's crash handler restores, then prints it
    openConsole({x: 80, y: 24}, ['--view', 'home'], {GW_CONSOLE_TEST_CRASH: '1'})
    await waitForScreen('Needs attention now')
    keys('@')
    await expectTerminalRestored(1)
    expect(screen()).toContain('gw console stopped on an unexpected error: Error: a test crash')
    closeConsole()
  }, 60_000)
})

// Keys, and what can be told apart and taken away: both about what happens inside one console,
// so they share its start (a console's start-up is 1.5-2 CPU-s).
describe('gw console: keys as a terminal sends them; what can be told apart and taken away', () => {
  it('acts on every key of one read, in order (send-keys -l jj, Down Down, 3 2), and an escape sequence split across reads is one key; shows a webhook URL and a dispute id whole at 120 columns, and c copies the selected id to the clipboard (OSC 52)', async () => {
    const url = 'https://127.0.0.1:45678/hooks'
    const ep = await api.webhookEndpoints.create({url, enabled_events: ['dispute.closed']})
    // a lone ESC waits 1 s for the rest of its key (--escape-time) here: the split Down below is
    // sent 15 ms apart, and tmux forks a sleep between its halves, which a busy machine can stretch
    // past the default 50 ms (then it is Esc and "[B", as it would be for a person on a slow link)
    openConsole({x: 120, y: 40}, ['--view', 'payments', '--escape-time', '1000'])
    // tmux takes OSC 52 from the app into its buffers (the server is the session's: set once it runs)
    tmux('set-option', '-s', 'set-clipboard', 'on')
    await waitForScreen(/3 payments/)
    const inverse = (line: string) => [...line.matchAll(/\u001B\[([0-9;]*)m/g)].some((m) => m[1]!.split(';').includes('7'))
    const selected = () => tmux('capture-pane', '-p', '-e', '-t', 'gw').split('\n').findIndex((l, i) => i > 2 && inverse(l))
    // the rows are painted just after Ink's frame that says "3 payments"
    expect(await until(() => selected() > 2)).toBe(true)
    const first = selected()
    type('jj')
    expect(await until(() => selected() === first + 2)).toBe(true)
    keys('Up', 'Up')
    expect(await until(() => selected() === first)).toBe(true)
    // ESC now, the rest of Down 15 ms later (one tmux command: the server waits between the two
    // writes): Down, not Esc (back to Home) and then "[B"
    tmux('send-keys', '-t', 'gw', '-H', '1b', ';', 'run-shell', 'sleep 0.015', ';', 'send-keys', '-t', 'gw', '-l', '[B')
    expect(await until(() => selected() === first + 1)).toBe(true)
    expect(screen()).toContain('3 payments')
    // 3 then 1 in one read: Disputes, then Home
    type('31')
    await waitForScreen('Needs attention now')

    // Webhooks: the URL whole
    keys('5')
    const hooks = await waitForScreen(ep.id)
    expect(hooks).toContain(url)
    keys('3')
    await waitForScreen(/\d+ disputes?\b/)
    const open = (await api.disputes.list({status: 'needs_response', limit: 100})).data.map((d) => d.id)
    expect(open.length).toBeGreaterThan(0)
    // each whole (the rows are painted just after Ink's frame that counts them)
    for (const id of open) await waitForScreen(id)
    // c: the selected row's id, on tmux's clipboard (set-clipboard on takes OSC 52 from the app)
    keys('2')
    await waitForScreen(/\d+ payments/)
    // the view kept the row selected above (the second): back to the first, the newest
    keys('Up')
    expect(await until(() => selected() === first)).toBe(true)
    const newest = (await api.payments.list({limit: 1})).data[0]!
    keys('c')
    await waitForScreen(`Copied ${newest.id}`)
    expect(tmux('show-buffer')).toBe(newest.id)
    keys('q')
    await expectTerminalRestored(0)
    closeConsole()
    await api.webhookEndpoints.delete(ep.id)
  }, 120_000)
})

describe("gw console: the support agent's journey", () => {
  it('finds the payment by an email typed in mixed case, refunds part of it, answers the dispute with a pasted text, and sees it won', async () => {
    openConsole({x: 120, y: 40}, ['--view', 'home'])
    await waitForScreen('Needs attention now')

    // Payments: the customer said "Zoe@Lovelace-Shop.Example"
    keys('2')
    await waitForScreen('/ to search')
    keys('/')
    await waitForScreen('pay_… · email')
    type('Zoe@Lovelace-Shop.Example')
    keys('Enter')
    // the rows are painted just after Ink's frame that counts them
    const found = await waitForScreen(/ORDER-\d[\s\S]*ORDER-\d[\s\S]*2 payments/)
    expect(found).toContain('ORDER-2')
    expect(found).toContain('ORDER-1')
    expect(found).not.toContain('ORDER-3')

    // the newest first: open it, refund €12.50 of its €40.00
    keys('Enter')
    await waitForScreen(`${zoePaid.id}  succeeded  €40.00 EUR`)
    keys('f')
    await waitForScreen('Refund how much? €40.00 EUR refundable')
    type('12.50')
    keys('Enter')
    await waitForScreen(`This will refund €12.50 EUR of ${zoePaid.id}. Continue? [y/N]`)
    type('y')
    keys('Enter')
    await waitForScreen(/Refund rf_\w+ of €12\.50 EUR created/)
    await waitForScreen(/Refunded +€12\.50 EUR \(partial\)/)
    const refunds = await api.refunds.list({payment: zoePaid.id})
    expect(refunds.data.map((r) => r.amount)).toEqual([1250])

    // Disputes: the queue, the dispute, the evidence form with a pasted address
    keys(':')
    await waitForScreen('Enter go · Esc cancel')
    type('disputes')
    keys('Enter')
    await openShippingAddress()
    tmux('set-buffer', '-b', 'addr', '1 Main St\nSpringfield, IL 62701\nUSA')
    // -p: bracketed, as a terminal pastes into an app that asked for it (the console does)
    tmux('paste-buffer', '-p', '-b', 'addr', '-t', 'gw')
    await waitForScreen('Springfield, IL 62701')
    keys('Enter')
    await waitForScreen('3. [x] shipping_address')
    keys('1', 'Enter')
    await waitForScreen('Esc cancels (here: back to the key)') // the value of tracking_number
    type('1Z999AA10123456784')
    keys('Enter')
    await waitForScreen('1. [x] tracking_number')
    keys('Enter') // on to files
    await waitForScreen('File URL')
    keys('Enter') // on to the review
    const review = await waitForScreen('Submit this evidence?')
    expect(review).toContain('Covers: tracking_number, shipping_address')
    type('y')
    await waitForScreen(`Evidence sent: ${dispute.id} is under_review`)
    await waitForScreen('Under review at the chargeback stage')
    const sent = await api.disputes.get(dispute.id)
    expect(sent.evidence?.fields).toEqual({shipping_address: '1 Main St\nSpringfield, IL 62701\nUSA', tracking_number: '1Z999AA10123456784'})

    // the issuer rules for the merchant, and a day passes on the engine clock: the view follows
    await api.testHelpers.resolveDispute(dispute.id, 'won')
    await api.testHelpers.advanceClock(86_400)
    const won = await waitForScreen('Won: €20.00 EUR returns to the balance.')
    expect(won).toContain(`${dispute.id}  won`)
    await waitForScreen('(+1d)')

    keys('q')
    await expectTerminalRestored(0)
    closeConsole()
  }, 120_000)
})

describe('gw console: an evidence draft outlives Ctrl-C', () => {
  it('Ctrl-C in the form asks as Esc does; a second one quits with the draft kept (0600, under the config dir); reopened, the form offers it', async () => {
    const dp = await aDispute('ORDER-DRAFT')
    const openTheForm = async () => {
      await waitForScreen('needing a response')
      await openDispute(dp.id, 'shipping_address')
      keys('e')
      await waitForScreen('Field key')
    }
    openConsole({x: 120, y: 40}, ['--view', 'disputes'])
    await openTheForm()
    type('3')
    keys('Enter')
    await waitForScreen('Esc cancels (here: back to the key)')
    type('1 Main St')
    keys('Enter')
    await waitForScreen('3. [x] shipping_address')
    // Ctrl-C asks, as Esc does; a second Ctrl-C quits, keeping the draft
    keys('C-c')
    await waitForScreen('Discard the evidence you entered?')
    keys('C-c')
    await expectTerminalRestored(0)
    closeConsole()
    // `gw login --local` saved the profile "local": its drafts are in a folder of their own
    const file = join(home, '.config', 'gw', 'console-drafts', 'local', `${dp.id}.json`)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).fields).toEqual({shipping_address: '1 Main St'})

    // reopened: the form goes on from the draft; discarded (Esc, y), it is gone
    openConsole({x: 120, y: 40}, ['--view', 'disputes'])
    await openTheForm()
    await waitForScreen(/Your draft, kept .*: 1 field \(shipping_address\)/)
    expect(screen()).toContain('3. [x] shipping_address')
    keys('Escape')
    await waitForScreen('Discard the evidence you entered?')
    type('y')
    await waitForScreen('Canceled; no evidence was submitted.')
    expect(existsSync(file)).toBe(false)
    keys('q')
    await expectTerminalRestored(0)
    closeConsole()
  }, 180_000)
})

// Columns and a small terminal: what one console draws at 120 columns, resized to 80, and to 60×15
// (the frame is drawn again for each size, as when a user resizes the window): one start.
describe('gw console: columns by display width; a small terminal', () => {
  it('lines up every row with its heading whatever the reference holds: CJK, an emoji, accents, ß (at 120 and 80 columns); at 60×15 keeps how to get help and quit in the footer, and draws the evidence form line by line, the prompt on its own', async () => {
    for (const reference of ['注文番号-12345-🎁', 'ORDER-注文-ß-300111', 'e\u0301te\u0301-Ñúñez']) await pay(700, reference)
    const dp = await aDispute('ORDER-60x15')
    openConsole({x: 120, y: 30}, ['--view', 'payments'])
    for (const x of [120, 80]) {
      if (x !== 120) tmux('resize-window', '-t', 'gw', '-x', String(x), '-y', '30')
      // a whole frame: the heading and the three rows (a capture can fall in the middle of a redraw)
      const rowsOf = (lines: string[]) => lines.filter((l) => /\d\d:\d\d:\d\d/.test(l) && /^pay_/.test(l))
      let lines = (await waitForScreen('ORDER-注文')).split('\n')
      await until(() => {
        lines = screen().split('\n')
        return rowsOf(lines).length >= 3 && lines.some((l) => l.includes('REFERENCE')) && lines.every((l) => stringWidth(l) <= x)
      }, 10_000)
      const head = lines.find((l) => l.includes('REFERENCE'))!
      // the cell where CREATED starts, and where each row's time does (string-width: an
      // independent measure, East Asian wide and emoji 2 cells, combining marks none)
      const at = stringWidth(head.slice(0, head.indexOf('CREATED')))
      const rows = rowsOf(lines)
      expect(rows.length, lines.join('\n')).toBeGreaterThanOrEqual(3)
      for (const row of rows) expect(stringWidth(row.slice(0, row.search(/\d\d:\d\d:\d\d/))), row).toBe(at)
      for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(x)
    }

    // 60×15: the frame drawn again for it (the footer last)
    tmux('resize-window', '-t', 'gw', '-x', '60', '-y', '15')
    const footer = / · \? keys · q quit *$/
    let list = ''
    await until(() => {
      list = screen()
      const rows = list.replace(/\n$/, '').split('\n')
      return /\d+ payments/.test(list) && rows.length <= 15 && footer.test(rows.filter((r) => r.trim()).at(-1) ?? '')
    }, 10_000)
    const rows = list.replace(/\n$/, '').split('\n')
    expect(rows.filter((r) => r.trim()).at(-1)).toMatch(footer)
    for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(60)

    keys('3')
    await waitForScreen('needing a response')
    await openDispute(dp.id, 'Evidence due')
    keys('e')
    // the form, and the footer it sets (a frame later)
    const form = await waitForScreen(/^Field key \(1-3[\s\S]*Esc leave the form/m)
    const lines = form.replace(/\n$/, '').split('\n')
    expect(lines.length).toBeLessThanOrEqual(15)
    // each line whole: the title, the checklist, the prompt; nothing drawn over another
    expect(lines.some((l) => l.startsWith(`Dispute ${dp.id}`))).toBe(true)
    expect(lines.some((l) => l.includes('[ ] shipping_address'))).toBe(true)
    expect(lines.filter((l) => l.includes('Esc cancels') && l.includes('or a key'))).toEqual([])
    expect(lines.filter((l) => l.trim()).at(-1)).toContain('Esc leave the form')
    keys('Escape')
    await waitForScreen('Canceled; no evidence was submitted.')
    keys('q')
    await expectTerminalRestored(0)
    closeConsole()
  }, 180_000)
})
