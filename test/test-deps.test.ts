// `npm test` brings what the tests need on a bare Debian machine (GUIDE: the README's two
// commands do all the set-up): scripts/test-deps.sh, run as npm's pretest, against a fake
// root directory and fake id/apt-get/tmux commands.
import {spawnSync} from 'node:child_process'
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

const SCRIPT = join(import.meta.dirname, '..', 'scripts', 'test-deps.sh')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})

interface Machine {
  root: string
  bin: string
  aptLog: string
  run(env?: Record<string, string>): {code: number | null; stderr: string; apt: string[]}
}

/** A machine: `root` stands in for /, `bin` holds id, apt-get (and tmux once installed). */
function machine(opts: {uid: number; have?: ('chromium' | 'tmux' | 'postgresql' | 'libnss3-tools')[]; apt?: 'works' | 'fails' | 'absent'}): Machine {
  const d = mkdtempSync(join(tmpdir(), 'gw-test-deps-'))
  dirs.push(d)
  const root = join(d, 'root')
  const bin = join(d, 'bin')
  const tools = join(d, 'tools')
  const aptLog = join(d, 'apt.log')
  for (const x of [root, bin, tools]) mkdirSync(x, {recursive: true})
  // the few ordinary tools the script uses, and nothing else of the real machine
  // (mkdir and chmod are for the fake apt-get)
  for (const tool of ['mktemp', 'tail', 'sed', 'rm', 'mkdir', 'chmod']) symlinkSync(`/usr/bin/${tool}`, join(tools, tool))
  const exe = (path: string, text: string) => {
    mkdirSync(join(path, '..'), {recursive: true})
    writeFileSync(path, text)
    chmodSync(path, 0o755)
  }
  const install = {
    chromium: () => exe(join(root, 'usr/bin/chromium'), '#!/bin/sh\n'),
    tmux: () => exe(join(bin, 'tmux'), '#!/bin/sh\n'),
    postgresql: () => {
      exe(join(root, 'usr/lib/postgresql/15/bin/initdb'), '#!/bin/sh\n')
      exe(join(root, 'usr/lib/postgresql/15/bin/pg_ctl'), '#!/bin/sh\n')
    },
    'libnss3-tools': () => exe(join(root, 'usr/bin/certutil'), '#!/bin/sh\n'),
  }
  for (const p of opts.have ?? []) install[p]()
  exe(join(bin, 'id'), `#!/bin/sh\necho ${opts.uid}\n`)
  if ((opts.apt ?? 'works') !== 'absent') {
    const fails = opts.apt === 'fails'
    exe(
      join(bin, 'apt-get'),
      `#!/bin/bash
echo "$*" >> '${aptLog}'
[ "$DEBIAN_FRONTEND" = noninteractive ] || { echo "not noninteractive" >&2; exit 3; }
if [ "$1" = install ]; then
  ${fails ? `echo "E: Unable to locate package chromium"; exit 100` : ''}
  for p in "$@"; do
    case "$p" in
      chromium) mkdir -p '${root}/usr/bin' && printf '#!/bin/sh\\n' > '${root}/usr/bin/chromium' && chmod +x '${root}/usr/bin/chromium' ;;
      tmux) printf '#!/bin/sh\\n' > '${bin}/tmux' && chmod +x '${bin}/tmux' ;;
      postgresql) mkdir -p '${root}/usr/lib/postgresql/15/bin' && for t in initdb pg_ctl; do printf '#!/bin/sh\\n' > "${root}/usr/lib/postgresql/15/bin/$t" && chmod +x "${root}/usr/lib/postgresql/15/bin/$t"; done ;;
      libnss3-tools) mkdir -p '${root}/usr/bin' && printf '#!/bin/sh\\n' > '${root}/usr/bin/certutil' && chmod +x '${root}/usr/bin/certutil' ;;
    esac
  done
fi
`,
    )
  }
  return {
    root,
    bin,
    aptLog,
    run(env = {}) {
      const r = spawnSync('/bin/bash', [SCRIPT], {encoding: 'utf8', env: {PATH: `${bin}:${tools}`, GW_TEST_DEPS_ROOT: root, TMPDIR: d, ...env}})
      return {code: r.status, stderr: r.stderr, apt: existsSync(aptLog) ? readFileSync(aptLog, 'utf8').trim().split('\n') : []}
    },
  }
}

describe('scripts/test-deps.sh (npm pretest)', () => {
  it('does nothing, silently, when chromium, tmux, PostgreSQL and certutil are there', () => {
    const m = machine({uid: 0, have: ['chromium', 'tmux', 'postgresql', 'libnss3-tools']})
    expect(m.run()).toEqual({code: 0, stderr: '', apt: []})
  })

  it('as root, installs what is missing with one apt-get update and one quiet apt-get install -y', () => {
    const m = machine({uid: 0})
    const r = m.run()
    expect(r.code, r.stderr).toBe(0)
    expect(r.apt).toEqual(['update -qq', 'install -y -qq chromium tmux postgresql libnss3-tools'])
    expect(r.stderr).toContain('installing the Debian packages the tests need: chromium tmux postgresql libnss3-tools')
    expect(r.stderr).toContain('installed chromium tmux postgresql libnss3-tools.')
    // a second run finds everything and stays silent
    expect(m.run().stderr).toBe('')
  })

  it('installs only what is missing', () => {
    const m = machine({uid: 0, have: ['chromium', 'postgresql', 'libnss3-tools']})
    const r = m.run()
    expect(r.code).toBe(0)
    expect(r.apt).toEqual(['update -qq', 'install -y -qq tmux'])
  })

  it('not root: one message naming the one command to run, exit 1, nothing installed', () => {
    const m = machine({uid: 1000, have: ['tmux', 'libnss3-tools']})
    const r = m.run()
    expect(r.code).toBe(1)
    expect(r.apt).toEqual([])
    expect(r.stderr).toContain('not installed: chromium postgresql')
    expect(r.stderr).toContain('sudo apt-get update && sudo apt-get install -y chromium postgresql')
  })

  it('fails loudly with the reason and apt-get\'s last lines when the install fails', () => {
    const m = machine({uid: 0, apt: 'fails'})
    const r = m.run()
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('could not install chromium tmux postgresql libnss3-tools: apt-get install failed')
    expect(r.stderr).toContain('E: Unable to locate package chromium')
  })

  it('without apt-get, says what to install', () => {
    const m = machine({uid: 0, apt: 'absent', have: ['chromium', 'tmux']})
    const r = m.run()
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('not a Debian system with apt-get')
    expect(r.stderr).toContain('postgresql')
  })

  it('runs before the tests (npm pretest), and .ci/run uses the README\'s test command without its own apt-get', () => {
    const root = join(import.meta.dirname, '..')
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(pkg.scripts.pretest).toBe('bash scripts/test-deps.sh')
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8')
    expect(ci).toMatch(/^npm test$/m)
    expect(ci).not.toMatch(/apt-get/)
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(/^npm test\s+#/m)
  })
})
