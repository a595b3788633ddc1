// `gw listen` from a test harness (docs/decisions.md#the-sdk): a secret the harness chose, a start position that
// includes what happened before listen started (--from-start), and a ready line on stdout (--json).
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {createServer, type Server} from 'node:http'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {verifySignature} from '../src/api/webhook-signature.js'
import {startCliWorld, type CliWorld} from './support/cli-world.js'

let w: CliWorld
let child: ChildProcessWithoutNullStreams | undefined
let server: Server

beforeAll(async () => {
  w = await startCliWorld('gw-e2e-listen-harness-', 'commands/listen.js', {env: {NO_COLOR: '1'}, rateLimit: 0})
}, 60_000)

afterAll(async () => {
  child?.kill('SIGKILL')
  server?.close()
  await w?.close()
})

it('forwards a payment made before it started (--from-start), signed with the secret it was given, after a ready line on stdout', async () => {
  const card = {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}
  const before = await w.api<{id: string}>('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card})

  const got: {body: string; header: string}[] = []
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      got.push({body: Buffer.concat(chunks).toString('utf8'), header: String(req.headers['service-signature'])})
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res))
  const port = (server.address() as {port: number}).port
  const secret = 'whsec_harness_chosen_0001'
  child = spawn(process.execPath, [w.bin, 'listen', '--forward-to', `http://127.0.0.1:${port}/hook`, '--secret', secret, '--from-start', '--json'], {cwd: w.work, env: w.env})
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  const ready = await new Promise<Record<string, unknown>>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`no ready line: ${out}`)), 15_000)
    const check = () => {
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue
        const j = JSON.parse(line)
        if (j.object === 'listen_ready') {
          clearTimeout(timer)
          return res(j)
        }
      }
    }
    child!.stdout.on('data', check)
  })
  expect(ready).toMatchObject({object: 'listen_ready', secret, forward_to: `http://127.0.0.1:${port}/hook`})
  const end = Date.now() + 10_000
  while (!got.some((g) => g.body.includes(before.id)) && Date.now() < end) await new Promise((res) => setTimeout(res, 50))
  const delivery = got.find((g) => g.body.includes(before.id))
  expect(delivery, 'the payment made before listen started').toBeDefined()
  expect(verifySignature({payload: delivery!.body, header: delivery!.header, secret}).timestamp).toBeGreaterThan(0)
}, 60_000)
