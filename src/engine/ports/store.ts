// The Store port: everything the engine keeps, and every concurrency decision that must hold
// across engine instances. Application code never sees SQL and never holds locks, claims,
// queues, counters or clocks in process memory: it asks the store.
//
// Adapters: store/sqlite (one instance per data dir; its locks and claims live in that one
// process, which owns the file) and store/postgres (several instances on one database). Both
// must pass the contract suite in store/contract.
//
// Accounts (docs/decisions.md#accounts): every row the store keeps belongs to one account, and everything but a
// few fleet-wide concerns is reached through `Store.account(id)`: an AccountStore whose every
// read, write, job, event, setting and statistic is bounded to that account. Ids (of objects,
// events, jobs) are unique per account: the engine makes them random, so they are unique across
// accounts too, except where a snapshot was loaded into several accounts with its ids (docs/decisions.md#snapshots).
// An id of another account is simply not found.
//
// Vocabulary
// - An *object* has a kind, an id (`pay_...`), `created_at`, and a version that the store
//   increments on every write. It is stored as its public JSON (exactly the bytes the API
//   serves) plus its internal part (the `_x` member: engine-only state), plus the typed filter
//   fields its kind declares in KINDS.
// - A *unit of work* (`Store.transact`) is one atomic change: it may take per-key locks and an
//   idempotency claim, read, and commit one ChangeSet. Everything in the ChangeSet lands
//   together or not at all; locks and claims are released only once it is durable.
// - *Timeline jobs* are due at an engine-clock time (authorization expiry, refund rail answers,
//   dispute deadlines, settlement runs, payouts). They are claimed in due order and completed
//   inside the unit of work that applies them.
// - *Deliveries* (webhook attempts) are a queue of their own, claimed fairly per endpoint.
//
// The port is split by concern, one file each in ports/store/ (kinds, queries, records, changes,
// port); this module is the one the engine imports.

export * from './store/kinds.js'
export * from './store/queries.js'
export * from './store/records.js'
export * from './store/changes.js'
export * from './store/port.js'
