// End-to-end: refunds, disputes, balance and settlement through the CLI against an engine running
// in this process; the commands run in this process too (src/base/test-support/cli-in-process.ts). The
// evidence form runs the built CLI (a snapshot of bin/ and dist/, so a concurrent rebuild cannot
// pull files from under it) in a real pseudo-terminal (tmux), driven by send-keys and read back
// with capture-pane, and so does the check of what a lookup loads.
import {execFileSync, spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {Balance, Dispute, ListEnvelope, Payment, Payout, Refund, SettlementReport} from '../src/api/types.js'
import {startEngine, type EngineHandle} from '../src/engine/index.js'
import {runInProcess, uninstallInProcess} from '../src/base/test-support/cli-in-process.js'
import {snapshotCli} from './support/cli-snapshot.js'
import {tmuxOn} from './support/tmux.js'

const REPO = resolve(import.meta.dirname, '..')
let ROOT: string
let BIN: string

interface Run {
  code: number
  stdout: string
  stderr: string
}

let engine: EngineHandle
let dataDir: string
let home: string
const outputs: string[] = []

function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_') && k !== 'NO_COLOR') env[k] = v
  return {...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_DATA_DIR: dataDir, GW_NO_KEYRING: '1', ...extra}
}

/** `gw ARGS` in this process (src/base/test-support/cli-in-process.ts); with `preload`, the built CLI in a process of its own */
async function gw(args: string[], opts: {env?: Record<string, string>; stdin?: string; preload?: string} = {}): Promise<Run> {
  const run = opts.preload ? await gwSpawned(args, opts) : await runInProcess(args, {env: cliEnv(opts.env), stdin: opts.stdin})
  outputs.push(run.stdout, run.stderr)
  return run
}

function gwSpawned(args: string[], opts: {env?: Record<string, string>; stdin?: string; preload?: string}): Promise<Run> {
  const nodeArgs = opts.preload ? ['--import', opts.preload, BIN, ...args] : [BIN, ...args]
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, nodeArgs, {cwd: ROOT, env: cliEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({code: code ?? -1, stdout, stderr}))
    child.stdin.end(opts.stdin ?? '')
  })
}

async function gwJson<T>(args: string[], opts?: Parameters<typeof gw>[1]): Promise<T> {
  const run = await gw([...args, '--json'], opts)
  if (run.code !== 0) throw new Error(`gw ${args.join(' ')} exited ${run.code}: ${run.stderr}`)
  return JSON.parse(run.stdout) as T
}

const available = (b: Balance, currency = 'EUR') => b.available.find((a) => a.currency === currency)?.amount ?? 0

async function cardPayment(amount: number): Promise<Payment> {
  const p = await gwJson<Payment>(['payments', 'create', '--amount', String(amount), '--currency', 'EUR', '--method', 'card', '--card', '4242424242424242'])
  expect(p.status).toBe('succeeded')
  return p
}

// ----- a pseudo-terminal: tmux on its own socket -----

const SOCKET = `gw-e2e-${process.pid}`
const term = tmuxOn(SOCKET, {history: 200})
const tmux = term.run
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const screen = term.screen
const waitForScreen = term.waitForScreen

/** Types text (literally), then waits for the form to draw it. */
async function typeText(text: string) {
  tmux('send-keys', '-t', 'gw', '-l', text)
  await sleep(300)
}

async function press(key: string) {
  tmux('send-keys', '-t', 'gw', key)
  await sleep(300)
}

/** Runs `gw ARGS` in a 160x50 tmux session; the shell prints EXIT=<code> when it ends. */
function inTerminal(args: string[]) {
  const script = join(home, `tty-${Date.now()}.sh`)
  const exports = Object.entries({HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_NO_KEYRING: '1'})
    .map(([k, v]) => `export ${k}='${v}'`)
    .join('\n')
  writeFileSync(
    script,
    [
      // the render gate stays shut in CI; this terminal is real
      'unset CI CONTINUOUS_INTEGRATION GITHUB_ACTIONS BUILDKITE GITLAB_CI NO_COLOR',
      ...Object.keys(process.env).filter((k) => k.startsWith('GW_')).map((k) => `unset ${k}`),
      exports,
      `cd '${ROOT}'`,
      `'${process.execPath}' '${BIN}' ${args.map((a) => `'${a}'`).join(' ')}`,
      'echo "EXIT=$?"',
      'sleep 600',
    ].join('\n'),
  )
  tmux('new-session', '-d', '-s', 'gw', '-x', '160', '-y', '50', `sh '${script}'`)
}

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'disputes', 'evidence.js')) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing: run `npm run build` first (`npm test` does).')
  }
  ROOT = snapshotCli('gw-e2e-disputes-cli-')
  BIN = join(ROOT, 'bin', 'run.js')
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-disputes-home-'))
  dataDir = mkdtempSync(join(tmpdir(), 'gw-e2e-disputes-engine-'))
  engine = await startEngine({dataDir, port: 0, durability: 'normal', log: () => {}})
  const login = await gw(['login', '--local'])
  expect(login.code).toBe(0)
}, 60_000)

afterAll(async () => {
  uninstallInProcess()
  try {
    tmux('kill-server')
  } catch {
    // no session left
  }
  await engine?.close()
  for (const out of outputs) expect(out).not.toContain(engine.secretKey)
  rmSync(home, {recursive: true, force: true})
  rmSync(dataDir, {recursive: true, force: true})
  if (ROOT) rmSync(ROOT, {recursive: true, force: true})
})

describe('a support person answers a dispute through the CLI', () => {
  it('simulate, due, get, evidence through a pipe, escalate, evidence in the terminal form, won: the balance returns', async () => {
    const pay = await cardPayment(2000)
    const before = available(await gwJson<Balance>(['balance']))

    // the network opens a dispute; the amount is withheld at once
    const opened = await gw(['disputes', 'simulate', '--payment', pay.id, '--reason', 'product_not_received'])
    expect(opened.code).toBe(0)
    const id = /^(dp_\w+)/.exec(opened.stdout)![1]
    expect(opened.stdout).toContain('needs_response')
    expect(opened.stderr).toContain('€20.00 EUR is withheld')
    expect(available(await gwJson<Balance>(['balance']))).toBe(before - 2000)
    const balanceTable = await gw(['balance'])
    expect(balanceTable.stdout).toContain('AVAILABLE')

    // what is due this week, soonest first
    const due = await gw(['disputes', 'due', '--within', '7d'])
    expect(due.code).toBe(0)
    expect(due.stdout).toContain(id)
    expect(due.stdout).toMatch(/\dd( \d+h)? left/)
    expect(due.stderr).toContain(`gw disputes evidence`)
    expect((await gwJson<Dispute[]>(['disputes', 'due', '--within', '7d'])).map((d) => d.id)).toContain(id)
    expect((await gwJson<Dispute[]>(['disputes', 'due', '--within', '1d'])).map((d) => d.id)).not.toContain(id)
    const listed = await gw(['disputes', 'list', '--payment', pay.id])
    expect(listed.stdout).toContain(id)
    expect(listed.stdout).toMatch(/\dd( \d+h)? left/)
    // the payment id whole, to act on (docs/decisions.md#disputes-and-evidence)
    expect(listed.stdout).toContain(pay.id)

    // the dispute, with the checklist for product_not_received
    const got = await gw(['disputes', 'get', id])
    expect(got.code).toBe(0)
    expect(got.stdout).toMatch(/Reason\s+product_not_received/)
    expect(got.stdout).toMatch(/\[ \] tracking_number/)
    expect(got.stdout).toMatch(/\[ \] service_date/)
    expect(got.stdout).toMatch(/\[ \] shipping_address/)

    // evidence through a pipe: --yes is required, a bad URL is refused, then it goes through
    const noYes = await gw(['disputes', 'evidence', id, '--field', 'tracking_number=1Z999AA10123456784'])
    expect(noYes.code).toBe(9)
    const badUrl = await gw(['disputes', 'evidence', id, '--field', 'tracking_number=1Z', '--file', 'http://shop.example/pod.pdf', '--yes'])
    expect(badUrl.code).toBe(2)
    const sent = await gw(['disputes', 'evidence', id, '--field', 'tracking_number=1Z999AA10123456784', '--field', 'courier=UPS', '--file', 'https://shop.example/pod-1234.pdf', '--yes'])
    expect(sent.code).toBe(0)
    expect(sent.stdout).toMatch(new RegExp(`^${id} {2}under_review`))
    expect(sent.stdout).toMatch(/\[x\] tracking_number/)
    expect(sent.stderr).toContain('not covered: shipping_address')
    const afterPipe = await gwJson<Dispute>(['disputes', 'get', id])
    expect(afterPipe.evidence).toMatchObject({fields: {tracking_number: '1Z999AA10123456784', courier: 'UPS'}, files: ['https://shop.example/pod-1234.pdf']})

    // one submission per stage
    const again = await gw(['disputes', 'evidence', id, '--field', 'tracking_number=other', '--yes'])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('dispute_not_actionable')
    expect(again.stderr).toContain(`Evidence for the chargeback stage of ${id} was already submitted and is under review`)

    // the cardholder contests: pre-arbitration needs a response again
    const escalated = await gw(['disputes', 'resolve', id, '--escalate'])
    expect(escalated.code).toBe(0)
    expect(escalated.stdout).toMatch(/Stage\s+pre_arbitration/)
    expect(escalated.stdout).toMatch(/\[ \] tracking_number/)

    // the evidence form in a real terminal
    inTerminal(['disputes', 'evidence', id])
    const form = await waitForScreen('Field key')
    expect(form).toContain(`Dispute ${id} · reason product_not_received · €20.00 EUR · stage pre_arbitration`)
    expect(form).toMatch(/Respond by .*\(\dd( \d+h)? left\)/)
    expect(form).toContain('1. [ ] tracking_number')
    expect(form).toContain('2. [ ] service_date')
    expect(form).toContain('3. [ ] shipping_address')
    await typeText('1')
    await press('Enter')
    await waitForScreen('Value for tracking_number')
    await typeText('1Z999AA10123456784')
    await press('Enter')
    await typeText('2')
    await press('Enter')
    await waitForScreen('Value for service_date')
    await typeText('2025-02-01')
    await press('Enter')
    await waitForScreen('2. [x] service_date')
    // as a person would: "3" and Enter in one go (tmux sends both at once), then an address
    // pasted from elsewhere, three lines, through the terminal's paste buffer
    tmux('send-keys', '-t', 'gw', '3', 'Enter')
    await waitForScreen('Value for shipping_address')
    tmux('set-buffer', '-b', 'addr', '1 Main St\nSpringfield, IL 62701\nUSA')
    tmux('paste-buffer', '-b', 'addr', '-t', 'gw')
    await sleep(300)
    await press('Enter')
    await waitForScreen('3. [x] shipping_address')
    await press('Enter') // on to files
    await waitForScreen('File URL')
    await typeText('http://shop.example/receipt.pdf')
    await press('Enter')
    await waitForScreen('Not an HTTPS URL: http://shop.example/receipt.pdf')
    await typeText('https://shop.example/receipt-1234.pdf')
    await press('Enter')
    await press('Enter') // on to the preview
    const preview = await waitForScreen('Submit this evidence?')
    expect(preview).toContain('tracking_number = 1Z999AA10123456784')
    expect(preview).toContain('service_date = 2025-02-01')
    expect(preview).toContain('https://shop.example/receipt-1234.pdf')
    expect(preview).toContain('shipping_address = 1 Main St\n    Springfield, IL 62701\n    USA')
    expect(preview).toContain('Covers: tracking_number, service_date, shipping_address · 1 file')
    expect(preview).toMatch(/One submission per stage: once submitted, dp_\w+ goes to under_review and nothing can be added or changed at the pre_arbitration stage/)
    await typeText('y')
    const done = await waitForScreen('EXIT=')
    expect(done).toContain('EXIT=0')
    expect(done).toContain('Submitting evidence…')
    expect(done).toMatch(new RegExp(`${id} {2}under_review`))
    tmux('kill-session', '-t', 'gw')
    const afterForm = await gwJson<Dispute>(['disputes', 'get', id])
    expect(afterForm).toMatchObject({status: 'under_review', stage: 'pre_arbitration', evidence: {fields: {tracking_number: '1Z999AA10123456784', service_date: '2025-02-01', shipping_address: '1 Main St\nSpringfield, IL 62701\nUSA'}, files: ['https://shop.example/receipt-1234.pdf']}})

    // the issuer rules for the merchant: the withheld amount returns
    const won = await gw(['disputes', 'resolve', id, '--won'])
    expect(won.code).toBe(0)
    expect(won.stdout).toMatch(new RegExp(`^${id} {2}won`))
    expect(won.stderr).toContain('Won: €20.00 EUR returns to the balance.')
    expect(available(await gwJson<Balance>(['balance']))).toBe(before)
    const listedAfter = await gw(['disputes', 'list', '--payment', pay.id])
    expect(listedAfter.stdout).toMatch(new RegExp(`${id}\\s+│?\\s*won`))
    expect(await gwJson<Dispute[]>(['disputes', 'due', '--within', '30d'])).not.toContainEqual(expect.objectContaining({id}))

    // looking a dispute up stays cheap: no Ink, React, table or engine code is loaded
    const trace = join(home, 'trace.log')
    const traced = await gw(['disputes', 'get', id], {env: {GW_TRACE_FILE: trace}, preload: join(ROOT, 'test', 'support', 'trace-imports.mjs')})
    expect(traced.code).toBe(0)
    const modules = readFileSync(trace, 'utf8').trim().split('\n')
    expect(modules.some((m) => m.includes('/dist/commands/disputes/get.js'))).toBe(true)
    expect(modules.filter((m) => /node_modules\/(ink|ink-text-input|react|react-reconciler|cli-table3|yoga-layout)\/|\/dist\/engine\/|\/src\/engine\//.test(m))).toEqual([])
  }, 180_000)

  it('the form is not opened for a resolved dispute; Esc in the form cancels without sending', async () => {
    const pay = await cardPayment(900)
    const dp = await gwJson<Dispute>(['disputes', 'simulate', '--payment', pay.id, '--reason', 'fraudulent'])
    inTerminal(['disputes', 'evidence', dp.id])
    await waitForScreen('Field key')
    await press('Escape')
    const canceled = await waitForScreen('EXIT=')
    // one cancel message: the form's own; the command adds none (docs/decisions.md#a-newcomers-cli)
    expect(canceled.match(/Canceled; nothing was submitted\./g)).toHaveLength(1)
    expect(canceled).not.toContain('Canceled; no evidence was submitted.')
    expect(canceled).toContain('EXIT=9')
    tmux('kill-session', '-t', 'gw')
    expect((await gwJson<Dispute>(['disputes', 'get', dp.id])).status).toBe('needs_response')

    // accept: refused without --yes in a pipe, then accepted, then explained as resolved
    const refused = await gw(['disputes', 'accept', dp.id])
    expect(refused.code).toBe(9)
    expect(refused.stderr).toContain('€9.00 EUR goes to the cardholder')
    const accepted = await gw(['disputes', 'accept', dp.id, '--yes'])
    expect(accepted.code).toBe(0)
    expect(accepted.stdout).toMatch(new RegExp(`^${dp.id} {2}accepted`))
    const again = await gw(['disputes', 'accept', dp.id, '--yes'])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain(`${dp.id} is resolved: it was accepted`)

    inTerminal(['disputes', 'evidence', dp.id])
    const resolved = await waitForScreen('EXIT=')
    expect(resolved).toContain(`${dp.id} cannot take evidence now`)
    expect(resolved).toContain('EXIT=1')
    expect(resolved).not.toContain('Field key')
    tmux('kill-session', '-t', 'gw')
  }, 120_000)
})

describe('refunds through the CLI', () => {
  it('create, list, get; amount_too_large exits 1; a disputed payment cannot be refunded', async () => {
    const pay = await cardPayment(3000)
    const created = await gw(['refunds', 'create', '--payment', pay.id, '--amount', '1000', '--reason', 'requested_by_customer', '--metadata', 'ticket=SUP-7'])
    expect(created.code).toBe(0)
    const id = /^(rf_\w+)/.exec(created.stdout)![1]
    expect(created.stdout).toContain('pending')
    expect(created.stdout).toMatch(/Amount\s+€10\.00 EUR/)
    expect(created.stderr).toContain(`gw refunds get ${id}`)

    const decimal = await gwJson<Refund>(['refunds', 'create', '--payment', pay.id, '--display-amount', '5.00'])
    expect(decimal).toMatchObject({amount: 500, currency: 'EUR', status: 'pending', payment: pay.id})

    const tooMuch = await gw(['refunds', 'create', '--payment', pay.id, '--amount', '5000'])
    expect(tooMuch.code).toBe(1)
    expect(tooMuch.stderr).toContain('amount_too_large')
    expect(tooMuch.stderr).toContain('exceeds the 1500 still refundable')
    expect(tooMuch.stderr).toMatch(/request_id req_\w+/)
    expect(tooMuch.stdout).toBe('')
    const tooMuchJson = await gw(['refunds', 'create', '--payment', pay.id, '--amount', '5000', '--json'])
    expect(tooMuchJson.code).toBe(1)
    expect(JSON.parse(tooMuchJson.stdout).error).toMatchObject({type: 'invalid_request_error', code: 'amount_too_large', param: 'amount'})

    const listed = await gwJson<ListEnvelope<Refund>>(['refunds', 'list', '--payment', pay.id])
    expect(listed.data.map((r) => r.id)).toEqual([decimal.id, id])
    const table = await gw(['refunds', 'list', '--payment', pay.id])
    expect(table.stdout).toContain(id)
    expect(table.stdout).toContain('requested_by_customer')
    const got = await gwJson<Refund>(['refunds', 'get', id])
    expect(got).toMatchObject({id, amount: 1000, reason: 'requested_by_customer', metadata: {ticket: 'SUP-7'}})
    expect((await gwJson<Payment>(['payments', 'get', pay.id])).amount_refunded).toBe(1500)

    expect((await gw(['refunds', 'get', 'rf_doesnotexist'])).code).toBe(5)
    expect((await gw(['refunds', 'create', '--payment', 'pay_doesnotexist'])).code).toBe(5)

    // the rest of the payment goes to a dispute; refunds are refused while it is open
    await gwJson<Dispute>(['disputes', 'simulate', '--payment', pay.id])
    const disputed = await gw(['refunds', 'create', '--payment', pay.id])
    expect(disputed.code).toBe(1)
    expect(disputed.stderr).toContain('payment_disputed')
  }, 60_000)
})

describe('settlement and payouts through the CLI', () => {
  it('after a day turns over: reports, the CSV download, payouts', async () => {
    await cardPayment(4000)
    const advanced = await gw(['clock', 'advance', '2d'])
    expect(advanced.code).toBe(0)
    const reports = await gwJson<ListEnvelope<SettlementReport>>(['settlement', 'list', '--currency', 'EUR'])
    expect(reports.data.length).toBeGreaterThan(0)
    const r = reports.data.find((x) => x.gross > 0)!
    expect(r.gross + r.refunds + r.fees).toBe(r.net)
    const shown = await gw(['settlement', 'get', r.id])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(/Gross\s+€/)
    expect(shown.stdout).toMatch(/payment\s+│\s+pay_/)

    const csv = await gw(['settlement', 'download', r.id])
    expect(csv.code).toBe(0)
    const rows = csv.stdout.trim().split('\n')
    expect(rows[0]).toContain('reference')
    expect(rows.length).toBe(r.lines.length + 1)
    const file = join(home, `${r.id}.csv`)
    const saved = await gw(['settlement', 'download', r.id, '--output', file])
    expect(saved.code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(csv.stdout)
    expect(saved.stderr).toContain(`Wrote ${file}`)

    const payouts = await gwJson<ListEnvelope<Payout>>(['payouts', 'list'])
    expect(payouts.data.length).toBeGreaterThan(0)
    const po = await gw(['payouts', 'get', payouts.data[0].id])
    expect(po.code).toBe(0)
    expect(po.stdout).toMatch(/Arrival date\s+\d{4}-\d{2}-\d{2}/)
  }, 60_000)
})
