// A throwaway PostgreSQL cluster for tests and the bench: Debian's binaries, `initdb` in a
// temp dir, a free port on 127.0.0.1 and the unix socket in that dir; stopped and removed
// afterwards. No system service, no fixed port. As root, PostgreSQL runs as the `postgres`
// user (it refuses to run as root), which then owns the temp dir.
import {execFile, execFileSync} from 'node:child_process'
import {chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {promisify} from 'node:util'

const run = promisify(execFile)

export interface ClusterOptions {
  /** fsync commits (the bench: real durability); tests run without it (a cluster that dies is thrown away) */
  fsync?: boolean
  maxConnections?: number
  /** more postgresql.conf lines (the bench: `shared_preload_libraries = 'pg_stat_statements'`) */
  settings?: string[]
}

export interface Cluster {
  /** postgres://gw@127.0.0.1:PORT/postgres (the maintenance database) */
  url: string
  host: string
  port: number
  /** the unix socket's directory */
  socketDir: string
  dir: string
  /** a URL of another database of the cluster */
  urlOf(database: string): string
  /** creates a database and returns its URL */
  createDatabase(name: string): Promise<string>
  /** runs SQL as the superuser on the maintenance database (psql) */
  sql(text: string, database?: string): Promise<string>
  /** stops the server (fast: clients are disconnected) and starts it again on the same port */
  restart(mode?: 'fast' | 'immediate'): Promise<void>
  stopServer(mode?: 'fast' | 'immediate'): Promise<void>
  startServer(): Promise<void>
  stop(): Promise<void>
}

/** The directory of Debian's PostgreSQL binaries (the newest major), or of initdb on the PATH. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql'
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((d) => /^\d+$/.test(d) && existsSync(join(root, d, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a))
    if (majors.length) return join(root, majors[0]!, 'bin')
  }
  for (const p of (process.env.PATH ?? '').split(':')) if (p && existsSync(join(p, 'initdb'))) return p
  throw new Error(
    "PostgreSQL's initdb was not found (looked in /usr/lib/postgresql/*/bin and the PATH). Install Debian's package: apt-get install -y postgresql",
  )
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.unref()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as {port: number}).port
      s.close(() => resolve(port))
    })
  })
}

/** Starts a fresh cluster. */
export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const bin = postgresBinDir()
  const asRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), 'gw-pg-'))
  const data = join(dir, 'data')
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
    chownSync(dir, uid, gid)
  }
  chmodSync(dir, 0o700)
  // as root: run as the postgres user, with a working directory it may enter
  const cmd = (file: string, args: string[]) => (asRoot ? (['runuser', ['-u', 'postgres', '--', join(bin, file), ...args]] as const) : ([join(bin, file), args] as const))
  const exec = async (file: string, args: string[]) => {
    const [c, a] = cmd(file, args)
    try {
      return (await run(c, [...a], {cwd: dir, maxBuffer: 16 * 1024 * 1024})).stdout
    } catch (e) {
      const err = e as {stderr?: string; message: string}
      throw new Error(`${file} failed: ${err.stderr || err.message}`)
    }
  }
  await exec('initdb', ['-D', data, '-U', 'gw', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'])
  const settings = [
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    `max_connections = ${opts.maxConnections ?? 400}`,
    `fsync = ${opts.fsync ? 'on' : 'off'}`,
    `full_page_writes = ${opts.fsync ? 'on' : 'off'}`,
    `shared_buffers = '128MB'`,
    `log_min_messages = 'fatal'`,
    `logging_collector = off`,
    ...(opts.settings ?? []),
  ]
  writeFileSync(join(data, 'postgresql.auto.conf'), settings.join('\n') + '\n')
  if (asRoot) execFileSync('chown', ['postgres:postgres', join(data, 'postgresql.auto.conf')])
  let port = 0
  const startServer = async () => {
    for (let attempt = 0; ; attempt++) {
      if (port === 0 || attempt > 0) port = await freePort()
      try {
        await exec('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', `-p ${port}`, '-w', '-t', '60', 'start'])
        return
      } catch (e) {
        // someone took the port between our probe and the server's bind: another one
        if (attempt >= 4) throw e
      }
    }
  }
  const restartOnSamePort = async () => {
    await exec('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', `-p ${port}`, '-w', '-t', '60', 'start'])
  }
  const stopServer = async (mode: 'fast' | 'immediate' = 'fast') => {
    await exec('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'])
  }
  await startServer()
  const urlOf = (db: string) => `postgres://gw@127.0.0.1:${port}/${db}`
  let stopped = false
  const stopSync = () => {
    if (stopped) return
    stopped = true
    try {
      const [c, a] = cmd('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      execFileSync(c, [...a], {stdio: 'ignore', cwd: dir})
    } catch {
      /* already stopped */
    }
    rmSync(dir, {recursive: true, force: true})
  }
  // a test run that exits without its teardown still takes the cluster with it
  process.once('exit', stopSync)
  const cluster: Cluster = {
    get url() {
      return urlOf('postgres')
    },
    host: '127.0.0.1',
    get port() {
      return port
    },
    socketDir: dir,
    dir,
    urlOf,
    async createDatabase(name) {
      await cluster.sql(`CREATE DATABASE "${name}"`)
      return urlOf(name)
    },
    async sql(text, database = 'postgres') {
      return exec('psql', ['-h', dir, '-p', String(port), '-U', 'gw', '-d', database, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', text])
    },
    async restart(mode = 'fast') {
      await stopServer(mode)
      await restartOnSamePort()
    },
    stopServer,
    startServer: restartOnSamePort,
    async stop() {
      if (stopped) return
      process.removeListener('exit', stopSync)
      try {
        await stopServer('immediate')
      } catch {
        /* already stopped */
      }
      stopped = true
      rmSync(dir, {recursive: true, force: true})
    },
  }
  return cluster
}
