import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // engine tests bind ports and spawn processes; two workers fit a 2-core machine
    maxWorkers: 2,
    // CI sets CI=true, which makes Ink (and our render gate) skip interactive rendering. The
    // tests that exercise the TTY views and terminal behaviour control their own terminal
    // (fake TTY streams, tmux), so they run with CI off; the gate's CI rule has its own tests.
    env: {CI: 'false', CONTINUOUS_INTEGRATION: 'false'},
    // a throwaway PostgreSQL cluster per project for the run (the PostgreSQL store's tests)
    globalSetup: ['src/engine/test-support/pg-global-setup.ts'],
    // `npm run test:coverage`: line and branch coverage of src/ as the build ships it (the files
    // tsconfig.build.json leaves out are the tests' own code). Code run by spawned processes
    // (bin/run.js, gw serve, worker threads) is not measured: v8 sees this process's modules only.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.{ts,tsx}'],
      exclude: ['src/**/*.test.{ts,tsx}', 'src/**/test-support/**', 'src/engine/conformance/**', 'src/engine/store/contract/**', 'src/api/openapi/generate.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
    },
    projects: [
      {extends: true, test: {name: 'default', include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'], exclude: ['test/release/**']}},
      // the engine's HTTPS conformance tests and its use-case tests, unchanged, with every test
      // engine (test-support/harness.ts bootEngine) on a fresh PostgreSQL database
      {
        extends: true,
        test: {
          name: 'conformance-postgres',
          include: ['src/engine/conformance/**/*.test.ts', 'src/engine/app/**/*.test.ts', 'src/engine/core/**/*.test.ts'],
          env: {CI: 'false', CONTINUOUS_INTEGRATION: 'false', GW_TEST_STORE: 'postgres'},
        },
      },
      // examples/shop: a merchant's app and its own suite, through the package's public exports only
      {
        test: {
          name: 'example-shop',
          root: 'examples/shop',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/link-gw.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      // packaging and build tools (npm pack/install, the quiet build, tsc over a generated client,
      // the SDK package): slow and about the release, so they run last, after every other project
      {extends: true, test: {name: 'release', include: ['test/release/**/*.test.ts'], sequence: {groupOrder: 1}}},
    ],
  },
})
