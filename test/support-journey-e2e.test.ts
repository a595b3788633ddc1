// The support agent's journey (docs/api.md#the-support-agent), from the built CLI against an engine in this process,
// with the README's suggested restricted key on an account clock almost 7 days ahead: log in with
// the rk_ key from stdin, whoami, find the payment from what the customer says (an email in
// another case, the card's last four), the disputes due within a day with the right time left,
// answer one with evidence, and see it answered after a clock advance.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {startCliWorld, type CliWorld} from './support/cli-world.js'

let w: CliWorld

const gw = (args: string[], stdin?: string) => w.gw(args, stdin)
const gwJson = <T>(args: string[]) => w.gwJson<T>(args)
/** the shop's side, with the engine's own key: what the agent's key may not do */
const api = (method: 'GET' | 'POST', path: string, body?: unknown) => w.api(method, path, body)
const card = (number: string) => ({type: 'card', card: {number, exp_month: 12, exp_year: 2034, cvc: '123'}})
const H = 3600

beforeAll(async () => {
  // not logged in: the agent logs in with the key they were given
  w = await startCliWorld('gw-e2e-support-', 'commands/login.js', {env: {NO_COLOR: '1', COLUMNS: '200'}, rateLimit: 0, login: false})
}, 60_000)

afterAll(async () => w?.close())

it("a support agent with the README's restricted key: login, whoami, find the payment, the disputes due, evidence, the answer seen after a clock advance", async () => {
  // the shop's payments and disputes: Zoë's (card …4444) disputed first, another a day and 6 hours later
  const zoe = await api('POST', '/payments', {amount: 4900, currency: 'EUR', payment_method: 'card', payment_method_data: card('5555555555554444'), customer: {email: 'zoe@lovelace-shop.example', name: 'Zoë Lovelace'}, reference: 'order-77'})
  const other = await api('POST', '/payments', {amount: 1500, currency: 'EUR', payment_method: 'card', payment_method_data: card('4242424242424242'), customer: {email: 'grace@example.com'}, reference: 'order-78'})
  const early = await api('POST', '/test_helpers/disputes', {payment: zoe.id, reason: 'product_not_received'})
  await api('POST', '/test_helpers/clock/advance', {seconds: 30 * H, wait: true})
  const later = await api('POST', '/test_helpers/disputes', {payment: other.id})
  // almost 7 days ahead: the first dispute has 6 hours left, the second 1d 12h
  await api('POST', '/test_helpers/clock/advance', {seconds: 132 * H, wait: true})

  // the README's key for support staff, as its own line says
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8')
  const perms = /gw keys create --name support --permissions (\S+)/.exec(readme)![1]!.split(',')
  const key = await api('POST', '/api_keys', {name: 'support', permissions: perms})
  expect(key.secret).toMatch(/^rk_test_/)

  // log in with it from stdin: the key given is saved, not the engine's
  const login = await gw(['login', '--local', '--profile', 'support', '--api-key', '-'], key.secret)
  expect(login.code, login.stderr).toBe(0)
  expect(login.stdout).toContain('restricted key')
  expect(login.stdout + login.stderr).not.toContain(key.secret)
  const who = await gwJson<{mode: string; key: {type: string; permissions: string[]}}>(['whoami', '--profile', 'support'])
  expect(who).toMatchObject({mode: 'test', key: {type: 'restricted'}})
  expect(who.key.permissions).toEqual(expect.arrayContaining(perms))
  const whoText = await gw(['whoami', '--profile', 'support'])
  expect(whoText.stdout).toContain('test')
  for (const p of perms) expect(whoText.stdout).toContain(p)

  // the customer writes from ZOE@Lovelace-Shop.example and reads the card's last four
  const byEmail = await gwJson<{data: {id: string}[]}>(['payments', 'list', '--profile', 'support', '--customer', 'ZOE@Lovelace-Shop.example'])
  expect(byEmail.data.map((p) => p.id)).toEqual([zoe.id])
  const byCard = await gwJson<{data: {id: string}[]}>(['payments', 'list', '--profile', 'support', '--card-last4', '4444', '--customer-name', 'zoe'])
  expect(byCard.data.map((p) => p.id)).toEqual([zoe.id])
  // the payment's story: its dispute, by id
  const story = await gw(['payments', 'timeline', zoe.id, '--profile', 'support'])
  expect(story.code, story.stderr).toBe(0)
  expect(story.stdout).toMatch(new RegExp(`dispute\\.created\\s+${early.id}`))

  // due within a day, on the engine clock the key cannot read but every answer tells
  const due = await gwJson<{id: string}[]>(['disputes', 'due', '--within', '1d', '--profile', 'support'])
  expect(due.map((d) => d.id)).toEqual([early.id])
  const dueText = await gw(['disputes', 'due', '--within', '1d', '--profile', 'support'])
  expect(dueText.stdout).toMatch(/\b(6h|5h 59m) left/)
  expect(dueText.stdout).toContain(zoe.id)
  expect(dueText.stdout).not.toContain(later.id)
  expect((await gwJson<{id: string}[]>(['disputes', 'due', '--within', '2d', '--profile', 'support'])).map((d) => d.id)).toEqual([early.id, later.id])

  // answered with evidence
  const sent = await gw(['disputes', 'evidence', early.id, '--profile', 'support', '--field', 'tracking_number=1Z999AA10123456784', '--file', 'https://lovelace-shop.example/pod-77.pdf', '--yes'])
  expect(sent.code, sent.stderr).toBe(0)

  // a day on (past the first deadline): answered in time, not lost; the other now due within 1d
  await api('POST', '/test_helpers/clock/advance', {seconds: 24 * H, wait: true})
  const answered = await gwJson<{status: string; evidence: {fields: Record<string, string>}}>(['disputes', 'get', early.id, '--profile', 'support'])
  expect(answered.status).toBe('under_review')
  expect(answered.evidence.fields.tracking_number).toBe('1Z999AA10123456784')
  expect((await gwJson<{id: string}[]>(['disputes', 'due', '--within', '1d', '--profile', 'support'])).map((d) => d.id)).toEqual([later.id])
  const list = await gw(['disputes', 'list', '--profile', 'support'])
  expect(list.stdout).toMatch(new RegExp(`${early.id}\\s+│?\\s*under_review`))
  expect(list.stdout).toMatch(/\b(12h|11h 59m) left/)
}, 120_000)
