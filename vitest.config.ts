import {defineConfig} from 'vitest/config'
import LongestFirst from './test/support/sequencer.js'

// The suite in tiers (README, "Tests"); each tier is one or more projects, `npm run test:<tier>`
// runs it alone and `npm test` runs them all, the longest files first (test/support/sequencer.ts).
//   quick    the tests beside the code (src/): units, commands on buffers, the engine over HTTPS
//            on SQLite; no build, no PostgreSQL, no browser or tmux
//   e2e      test/: the CLI end to end (in process, and one spawned smoke per surface), `gw serve`
//            as a process, the terminal (tmux) journeys
//   pg       PostgreSQL: the store's own tests, and the engine's tests whose store work goes beyond
//            the store contract again on PostgreSQL (docs/architecture.md, "Tests on PostgreSQL")
//   browser  Debian's chromium through playwright-core: hosted pages, card fields, CA trust
//   release  packaging and build tools: npm pack/install, the SDK package, tsc over a generated
//            client, the quiet build, the example shop from a copy

/** the chromium tests (browser tier) */
const BROWSER = ['test/card-fields.e2e.test.ts', 'test/checkout-3ds.e2e.test.ts', 'test/checkout-session.e2e.test.ts', 'test/screenshots.e2e.test.ts', 'test/ca-install.e2e.test.ts']

/**
 * The engine's tests that run a second time with every test engine on PostgreSQL (GW_TEST_STORE):
 * what can differ there (docs/architecture.md#tests-on-postgresql; measured with
 * `node scripts/pg-reach.mjs`). The others run on SQLite only: the store's contract suite
 * (pg-store) runs all the PostgreSQL store code they reach.
 */
const ON_POSTGRES = process.env.GW_TEST_PG_ALL
  ? // every engine test file that boots an engine (`node scripts/pg-reach.mjs run` measures them all)
    ['src/engine/conformance/**/*.test.ts', 'src/engine/app/**/*.test.ts']
  : [
      // they reach PostgreSQL store code no pg-store file does (the request log's trim, a list's
      // created_lte filter, the committer's close and special cases)
      'src/engine/conformance/accounts.test.ts',
      'src/engine/conformance/events.test.ts',
      'src/engine/conformance/isolation.test.ts',
      // they read PostgreSQL itself: every text and JSON column, and a pg_dump, hold no secret or card
      'src/engine/conformance/tenant-cards.test.ts',
      'src/engine/conformance/tenant-secrets.test.ts',
      // stored values PostgreSQL's types may treat otherwise (bytes, sizes, numbers, JSON): the same
      // code, other data
      'src/engine/conformance/hostile-input.test.ts',
      'src/engine/conformance/tenant-snapshots.test.ts',
      'src/engine/conformance/tenant-snapshot-properties.test.ts',
      // concurrency in one store, which line coverage cannot show: row and advisory locks on several
      // connections instead of one writer
      'src/engine/app/concurrency.test.ts',
      'src/engine/conformance/rate-limit.test.ts',
      'src/engine/conformance/tenant-snapshot-reads.test.ts',
      'src/engine/conformance/tenant-clock-jumps.test.ts',
      // the money rules over random sequences, at a fifth of the count (GW_PROPERTY_SCALE below)
      'src/engine/conformance/money-properties.test.ts',
    ]

/** GW_TEST_WORKERS: how many test files run at once (default 3); anything but a whole number ≥ 1 is refused by name. */
function testWorkers(value: string | undefined): number {
  if (value === undefined || value === '') return 3
  if (!/^[1-9][0-9]*$/.test(value)) throw new Error(`GW_TEST_WORKERS must be a whole number of test files to run at once (1 or more), not ${JSON.stringify(value)}`)
  return Number(value)
}

const PG_SETUP = 'src/engine/test-support/pg-global-setup.ts'

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // three test files at a time on a 2-core machine (GW_TEST_WORKERS=N for another count): many
    // files wait (spawned CLIs and servers starting, tmux frames, npm's downloads, the PostgreSQL
    // server's share), and with two workers the machine stayed about a third idle (npm test's
    // counted CPU 433 s over 344.5 s idle). Measured 2026-11-30, the same helper's load beside both
    // runs: 467 s with two workers, 379 s with three, every test passing in three runs of three.
    maxWorkers: testWorkers(process.env.GW_TEST_WORKERS),
    // the longest files first (test/support/sequencer.ts)
    sequence: {sequencer: LongestFirst},
    // CI sets CI=true, which makes Ink (and our render gate) skip interactive rendering. The
    // tests that exercise the TTY views and terminal behaviour control their own terminal
    // (fake TTY streams, tmux), so they run with CI off; the gate's CI rule has its own tests.
    env: {CI: 'false', CONTINUOUS_INTEGRATION: 'false'},
    // GW_TEST_CPU_LOG=FILE: each file's wall and CPU time, for npm run test:slowest
    // GW_TEST_STORE_REACH=DIR: the store code each file ran, for node scripts/pg-reach.mjs
    setupFiles: ['test/support/cpu-probe.ts', 'test/support/store-reach.ts'],
    // `npm run test:coverage`: line and branch coverage of src/ as the build ships it (the files
    // tsconfig.build.json leaves out are the tests' own code). Code run by spawned processes
    // (bin/run.js, gw serve, worker threads) is not measured: v8 sees this process's modules only.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.{ts,tsx}'],
      exclude: ['src/**/*.test.{ts,tsx}', 'src/**/test-support/**', 'src/engine/conformance/**', 'src/engine/store/contract/**', 'src/api/openapi/generate.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      // the figures even when a test failed (vitest's default is none then); the run still fails
      reportOnFailure: true,
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: ['src/engine/store/postgres/**'],
          // the files run one after another in each worker's process, not in a process each: the
          // modules load once per worker (measured on 86 of its files: 155 CPU-s isolated, 71 so).
          // A test file therefore leaves no global state behind (env, timers, servers, colours).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: ['test/release/**', ...BROWSER],
          // the built CLI copied once for the run (test/support/cli-snapshot.ts); a PostgreSQL
          // cluster for the operator's console journey (a fleet of two `gw serve`)
          globalSetup: ['test/support/cli-snapshot-setup.ts', PG_SETUP],
          // its files share their worker's process, as quick's do (measured under the same load: 202
          // CPU-s isolated, 160 so; modules imported 114 s → 36 s)
          isolate: false,
        },
      },
      // the PostgreSQL store's own tests: its contract suite, fleets, migrations, outages
      // (both PostgreSQL projects share their worker's process between files too: pg-store and
      // pg-engine together 205 CPU-s isolated, 133 so, measured under the same load)
      {extends: true, test: {name: 'pg-store', include: ['src/engine/store/postgres/**/*.test.ts'], globalSetup: [PG_SETUP], isolate: false}},
      // the engine's tests again with every test engine (test-support/harness.ts bootEngine) on a
      // fresh database of the run's cluster
      {
        extends: true,
        test: {
          name: 'pg-engine',
          include: ON_POSTGRES,
          // property tests run a fifth of their cases here, their full count on SQLite
          // (src/engine/test-support/property-runs.ts)
          env: {CI: 'false', CONTINUOUS_INTEGRATION: 'false', GW_TEST_STORE: 'postgres', GW_PROPERTY_SCALE: '0.2'},
          globalSetup: [PG_SETUP],
          isolate: false,
        },
      },
      {extends: true, test: {name: 'browser', include: BROWSER}},
      // (examples/shop runs from a copy in the release tier: test/release/packages-install.test.ts)
      // packaging and build tools (npm pack/install, the quiet build, tsc over a generated client,
      // the SDK package); its two installs start first (test/support/sequencer.ts)
      {extends: true, test: {name: 'release', include: ['test/release/**/*.test.ts']}},
    ],
  },
})
