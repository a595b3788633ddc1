// The accounts' isolation suite (docs/decisions.md#accounts) on one engine (SQLite; on PostgreSQL in the conformance-postgres
// project): every operation across accounts and with keys lacking its permission.
import {bootEngine} from '../test-support/harness.js'
import {isolationSuite} from '../test-support/isolation.js'

isolationSuite('one engine', async () => {
  const t = await bootEngine({rateLimit: 0})
  return {platformA: t.as(t.key), platformB: t.as(t.key), baseUrlB: t.engine.baseUrl, agentB: t.agent, close: () => t.stop()}
})
