#!/usr/bin/env node
// npm run screenshots (its second half): pictures of `gw console` under docs/screenshots/ for the
// README. A throwaway `gw serve` with a few payments, a dispute and a chaos rule; the console runs
// in tmux (120×32) on the built CLI; each view's screen is captured with its colours
// (`tmux capture-pane -e -p`), turned into HTML (the SGR colours, bold, dim and reverse video the
// console uses) and photographed in Debian's chromium through playwright-core.
import {execFileSync, spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
import {chromium} from 'playwright-core'
import {GwClient} from '../dist/client/index.js'
import {ansiPage} from './ansi-html.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = process.env.GW_SCREENSHOTS_DIR || join(ROOT, 'docs', 'screenshots')
const BIN = join(ROOT, 'bin', 'run.js')
const SIZE = {x: 120, y: 32}
mkdirSync(OUT, {recursive: true})
const home = mkdtempSync(join(tmpdir(), 'gw-console-shots-'))
const dataDir = join(home, 'engine')
const socket = `gw-console-shots-${process.pid}`
const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'})
const env = {...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GW_') && k !== 'NO_COLOR' && k !== 'CI')), HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_NO_KEYRING: '1', GW_DATA_DIR: dataDir}

const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--json'], {env, stdio: ['ignore', 'pipe', 'inherit']})
const info = JSON.parse(await new Promise((r) => createInterface({input: serve.stdout}).once('line', r)))
serve.stdout.resume()
const browser = await chromium.launch({executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], headless: true})
try {
  execFileSync(process.execPath, [BIN, 'login', '--local'], {env, stdio: 'ignore'})
  const api = new GwClient({baseUrl: info.base_url, apiKey: info.secret_key, ca: readFileSync(info.ca_file, 'utf8')})
  const card = {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}
  const pay = (amount, email, name, reference) => api.payments.create({amount, currency: 'EUR', payment_method: 'card', payment_method_data: card, customer: {email, name}, reference})
  const disputed = await pay(2000, 'zoe@lovelace-shop.example', 'Zoë Lovelace', 'ORDER-1041')
  await api.testHelpers.createDispute({payment: disputed.id, reason: 'product_not_received'})
  await pay(4250, 'ada@analytical.example', 'Ada Byron', 'ORDER-1042')
  await pay(1999, 'grace@cobol.example', 'Grace Hopper', 'ORDER-1043')
  const opened = await pay(12900, 'alan@bletchley.example', 'Alan Turing', 'ORDER-1044')
  await api.refunds.create({payment: opened.id, amount: 2900})
  await api.chaos.addApiFault({method: 'POST', path: '/payments', fault: '503', rate: 0.05, seed: 7, for_seconds: 3600})

  const script = join(home, 'console.sh')
  writeFileSync(script, ['unset CI NO_COLOR', ...Object.entries(env).filter(([k]) => /^(HOME|XDG_CONFIG_HOME|GW_NO_KEYRING|GW_DATA_DIR)$/.test(k)).map(([k, v]) => `export ${k}='${v}'`), `export TERM=xterm-256color`, `'${process.execPath}' '${BIN}' console`, 'sleep 60'].join('\n'))
  tmux('new-session', '-d', '-s', 'gw', '-x', String(SIZE.x), '-y', String(SIZE.y), `sh '${script}'`)
  const screen = () => tmux('capture-pane', '-p', '-t', 'gw')
  const waitFor = async (text) => {
    for (let i = 0; i < 300; i++) {
      if (typeof text === 'string' ? screen().includes(text) : text.test(screen())) return
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`the console never showed "${text}":\n${screen()}`)
  }
  // keys a moment after what was waited for showed (the view's keys are taken once it is drawn)
  const keys = async (...k) => {
    await new Promise((r) => setTimeout(r, 500))
    tmux('send-keys', '-t', 'gw', ...k)
  }
  const page = await browser.newPage({viewport: {width: 1200, height: 640}, deviceScaleFactor: 1})
  const shoot = async (name, what) => {
    // a moment for the last redraw of what was waited for (the next second's tick)
    await new Promise((r) => setTimeout(r, 300))
    const ansi = tmux('capture-pane', '-e', '-p', '-t', 'gw')
    await page.setContent(ansiPage(ansi, SIZE))
    const file = join(OUT, `${name}.png`)
    await page.locator('pre').screenshot({path: file})
    process.stdout.write(`${file}  ${what}\n`)
  }

  await waitFor('Disputes due (1)')
  await shoot('console-home', 'gw console: Home, what needs attention now')
  await keys('2')
  await waitFor('4 payments')
  // each payment with its customer's name and email
  await waitFor('Alan Turing <alan@blet')
  await shoot('console-payments', 'gw console: Payments, each with its customer')
  await keys('Enter')
  await waitFor('Refunded')
  await shoot('console-payment', 'gw console: Payments, a payment open')
  await keys('3')
  await waitFor('1 dispute')
  await keys('Enter')
  await waitFor('[ ] shipping_address')
  await shoot('console-dispute', 'gw console: Disputes, the evidence checklist')
  // the evidence form: a pasted letter, then the review's pane of what will be sent
  await keys('e')
  await waitFor('Field key')
  await keys('3', 'Enter')
  await waitFor('Esc cancels (here: back to the key)')
  const letter = ['Dear issuer,', '', 'The parcel was delivered on 2 May to the address the customer gave:', '1 Main St, Springfield, IL 62701, USA.', 'The carrier confirms delivery with a signature (tracking 1Z999AA10123456784).', '', 'Attached: the proof of delivery and the order confirmation.', '', 'Lovelace Shop, support']
  tmux('set-buffer', '-b', 'letter', letter.join('\n'))
  tmux('paste-buffer', '-p', '-b', 'letter', '-t', 'gw')
  await waitFor('Lovelace Shop, support')
  await keys('Enter')
  await waitFor('3. [x] shipping_address')
  await keys('Enter')
  await waitFor('File URL')
  await keys('Enter')
  await waitFor('Submit this evidence?')
  await shoot('console-evidence-review', 'gw console: the evidence review, what will be sent')
  await keys('n')
  await waitFor('kept as a draft')
  await keys('6')
  await waitFor('Instances (1)')
  for (let i = 0; i < 20; i++) await api.payments.list({limit: 1})
  await waitFor('Chaos rules active (1)')
  await waitFor(/ up +ready /)
  await shoot('console-gateway', 'gw console: Gateway, instances, providers, backlog, chaos')
  await keys('q')
} finally {
  try {
    tmux('kill-server')
  } catch {
    // gone already
  }
  await browser.close()
  serve.kill('SIGTERM')
  await new Promise((r) => serve.once('exit', r))
  rmSync(home, {recursive: true, force: true})
}
