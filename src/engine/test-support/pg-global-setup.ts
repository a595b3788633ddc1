// vitest globalSetup: one throwaway PostgreSQL cluster for the whole run (initdb in a temp dir,
// a free port, stopped and removed at the end), shared by the projects that list this setup and
// started only when one of them runs. Tests reach it through `inject('pgUrl')` (test-support/pg.ts
// makes a fresh database per test engine or store); tests that stop a server start their own.
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

// each project loads this module on its own: the run's cluster is kept on the process
const g = globalThis as {gwTestCluster?: {cluster: ReturnType<typeof startCluster>; users: number}}

export default async function setup(project: TestProject) {
  g.gwTestCluster ??= {cluster: startCluster(), users: 0}
  const shared = g.gwTestCluster
  shared.users++
  const cluster = await shared.cluster
  project.provide('pgUrl', cluster.url)
  project.provide('pgDir', cluster.dir)
  return async () => {
    if (--shared.users > 0) return
    delete g.gwTestCluster
    await cluster.stop()
  }
}
