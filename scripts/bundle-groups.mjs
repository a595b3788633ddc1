// What scripts/bundle.mjs bundles (a module of its own so that tests can read it without building).
/** Native modules (and pg's optional native binding): loaded from node_modules where they were installed. */
export const NATIVE = ['better-sqlite3', 'zstd-napi', '@napi-rs/keyring', 'pg-native']
/** Packages a bundled module imports with import(), whose importer reads the default (or imports them for their effect only). */
export const READS_DEFAULT = new Set(['reflect-metadata', '@peculiar/x509'])
/** The oclif hooks: every command's process loads them. */
export const HOOKS = ['hooks/version.ts', 'hooks/command-not-found.ts']

export const GROUPS = [
  {
    name: 'engine',
    entries: {engine: 'engine/index.ts', 'engine-heap': 'engine/heap.ts', 'engine-certificates': 'engine/tls/certificates.ts'},
    hosts: ['commands/serve.ts', 'testing.ts', 'index.ts'],
    // PostgreSQL's client is loaded only for a PostgreSQL store, by a chunk of its own: it stays a
    // package (its optional native binding is required by name)
    external: ['pg'],
  },
  {
    name: 'console',
    entries: {'console-session': 'console/session.ts', 'console-theme': 'console/theme.ts', 'console-screen': 'console/screen.ts', 'console-app': 'console/app.tsx'},
    hosts: ['commands/console.ts'],
    external: [],
    // Ink imports React's devtools only with DEV=true, and only if the user installed them (gw does
    // not); ws, which those devtools use, tries its optional native helpers
    optional: ['react-devtools-core', 'bufferutil', 'utf-8-validate'],
  },
]
