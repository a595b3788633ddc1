import {Worker} from 'node:worker_threads'

/**
 * The node options a thread is started with: undefined (the process's, inherited as node does by
 * default) unless they hold `--input-type`, which applies to string input only and makes node
 * refuse to start a thread from a file (`node --input-type=module -e "…startGateway()…"`,
 * docs/decisions.md#a-throwaway-engine); then the process's without it.
 */
export function threadExecArgv(argv: readonly string[] = process.execArgv): string[] | undefined {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--input-type') i++
    else if (!argv[i]!.startsWith('--input-type=')) out.push(argv[i]!)
  }
  return out.length === argv.length ? undefined : out
}

/**
 * Starts one of this directory's threads from its module file (`writer-thread.mjs`,
 * `checkpointer-thread.mjs`: copied beside the compiled modules by the build), never from eval'd
 * source, whose module kind would follow the process's --input-type. Options are inherited when
 * they can be: given explicitly, node refuses V8 options such as `--expose-gc` (which
 * `npm run bench` runs with) for a thread; if the filtered list still holds one, the thread starts
 * with none.
 */
export function startThread(file: string, workerData: unknown): Worker {
  const url = new URL(file, import.meta.url)
  const execArgv = threadExecArgv()
  if (execArgv === undefined) return new Worker(url, {workerData})
  try {
    return new Worker(url, {workerData, execArgv})
  } catch (e) {
    if ((e as {code?: string}).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e
    return new Worker(url, {workerData, execArgv: []})
  }
}
