// The SQLite checkpointer thread (checkpointer.ts starts it): its own connection to the same
// database file, running PASSIVE checkpoints on request. PASSIVE never waits for the writer, so
// the event loop's connection keeps writing. A module file, not eval'd source (see writer-thread.mjs).
import {createRequire} from 'node:module'
import {parentPort, workerData} from 'node:worker_threads'

const Database = createRequire(import.meta.url)('better-sqlite3')
const db = new Database(workerData.path, {fileMustExist: true})
db.pragma('busy_timeout = 0')
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close()
    parentPort.close()
    return
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
    parentPort.postMessage('done')
  } catch (e) {
    parentPort.postMessage(String((e && e.message) || e))
  }
})
