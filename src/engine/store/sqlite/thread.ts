import {Worker} from 'node:worker_threads'

/**
 * The node options a thread is started with: the process's, without `--input-type`, which
 * applies to string input only and makes node refuse to start a thread from a file
 * (`node --input-type=module -e "…startGateway()…"`, issue 36).
 */
export function threadExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--input-type') i++
    else if (!argv[i]!.startsWith('--input-type=')) out.push(argv[i]!)
  }
  return out
}

/**
 * Starts one of this directory's threads from its module file (`writer-thread.mjs`,
 * `checkpointer-thread.mjs`: copied beside the compiled modules by the build), never from eval'd
 * source, whose module kind would follow the process's --input-type.
 */
export function startThread(file: string, workerData: unknown): Worker {
  return new Worker(new URL(file, import.meta.url), {workerData, execArgv: threadExecArgv()})
}
