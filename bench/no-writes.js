// Preload for an engine child (bench/ceiling.js): every store commit is acknowledged at once and
// nothing is written: no SQLite statement, no fsync, no message to the writer thread. What is left
// is the engine's event loop with storage costing nothing — the ceiling that the write path can
// only lower. Never for real use: nothing the engine answers is kept.
const {Writer} = await import(new URL('../dist/engine/store/sqlite/writer.js', import.meta.url))
Writer.prototype.write = function (batch) {
  return Promise.resolve(batch.map(() => ({ok: true, seq: null})))
}
