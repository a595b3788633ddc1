// The engine's files are its own (docs/decisions.md#private-files-and-framed-pages), whatever the umask and the data dir's mode.
import {chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {startEngine} from '../index.js'

const root = mkdtempSync(join(tmpdir(), 'gw-modes-'))
afterAll(() => rmSync(root, {recursive: true, force: true}))
const umask = process.umask()
afterEach(() => void process.umask(umask))

const mode = (p: string) => statSync(p).mode & 0o777

/** Every file below a directory, with its mode. */
function files(dir: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const e of readdirSync(dir, {withFileTypes: true, recursive: true})) if (e.isFile()) out[join(e.parentPath, e.name).slice(dir.length + 1)] = mode(join(e.parentPath, e.name))
  return out
}

/** An engine on the data dir that made a payment (so the database has its -wal and -shm), then stopped; what it logged. */
async function run(dataDir: string): Promise<string[]> {
  const lines: string[] = []
  const e = await startEngine({dataDir, port: 0, apiKey: 'sk_test_file_modes_00001', durability: 'normal', accessLog: join(dataDir, 'access.log'), log: (l) => lines.push(l)})
  try {
    const {Agent, request} = await import('undici')
    const agent = new Agent({connect: {ca: e.caCertPem}})
    const r = await request(`${e.baseUrl}/customers`, {method: 'POST', headers: {authorization: `Bearer ${e.secretKey}`, 'content-type': 'application/json'}, body: '{"email":"m@example.com"}', dispatcher: agent})
    expect(r.statusCode).toBe(201)
    await r.body.text()
    await agent.close()
    // while it runs: the database's -wal and -shm are there
    expect(Object.keys(files(dataDir))).toEqual(expect.arrayContaining(['gw.db', 'gw.db-wal', 'gw.db-shm']))
    expect(Object.values(files(dataDir)).every((m) => m === 0o600)).toBe(true)
  } finally {
    await e.close()
  }
  return lines
}

describe('the data dir and its files', () => {
  it('a data dir the engine makes is 0700 and every file in it 0600, even with umask 000', async () => {
    process.umask(0)
    const dir = join(root, 'made', 'engine')
    const lines = await run(dir)
    expect(mode(dir)).toBe(0o700)
    const got = files(dir)
    expect(Object.keys(got)).toEqual(expect.arrayContaining(['gw.db', 'secret_key', 'secrets.key', 'engine.json', 'access.log', join('tls', 'ca.key'), join('tls', 'ca.crt'), join('tls', 'server.key'), join('tls', 'server.crt')]))
    expect(Object.entries(got).filter(([, m]) => m !== 0o600)).toEqual([])
    expect(lines.filter((l) => l.includes('warning'))).toEqual([])
  })

  it('an existing data dir others may read gets one warning naming the chmod; files an older gw left readable are made 0600', async () => {
    process.umask(0o022)
    const dir = join(root, 'shared dir')
    mkdirSync(dir, {mode: 0o755})
    chmodSync(dir, 0o755)
    writeFileSync(join(dir, 'engine.json'), '{}', {mode: 0o644})
    writeFileSync(join(dir, 'access.log'), '', {mode: 0o644})
    const lines = await run(dir)
    const warnings = lines.filter((l) => l.includes('warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`the data dir ${dir} may be read or written by other users (mode 0755)`)
    expect(warnings[0]).toContain(`run chmod 700 '${dir}'`)
    // the operator's choice of the dir's mode stands; the engine's files do not follow it
    expect(mode(dir)).toBe(0o755)
    expect(Object.entries(files(dir)).filter(([, m]) => m !== 0o600)).toEqual([])
  })
})
