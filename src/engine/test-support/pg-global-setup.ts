// vitest globalSetup: one throwaway PostgreSQL cluster for the whole run (initdb in a temp dir,
// a free port, stopped and removed at the end). Tests reach it through `inject('pgUrl')`
// (test-support/pg.ts makes a fresh database per test engine or store).
import type {TestProject} from 'vitest/node'
import {startCluster} from '../store/postgres/cluster.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** the cluster's maintenance database, postgres://gw@127.0.0.1:PORT/postgres */
    pgUrl: string
    /** the cluster's data and socket dir (tests that restart the server use it) */
    pgDir: string
  }
}

export default async function setup(project: TestProject) {
  const cluster = await startCluster()
  project.provide('pgUrl', cluster.url)
  project.provide('pgDir', cluster.dir)
  return async () => {
    await cluster.stop()
  }
}
