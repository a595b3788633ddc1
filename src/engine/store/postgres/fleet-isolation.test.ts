// The accounts' isolation suite (docs/decisions.md#accounts) on two PostgreSQL instances: account A's data made through one,
// account B's requests through the other.
import {describe, expect, it} from 'vitest'
import {bootEngine, fleetSecretsKeyFile} from '../../test-support/harness.js'
import {isolationSuite} from '../../test-support/isolation.js'
import {freshDatabase} from '../../test-support/pg.js'
import {postgresStore} from './postgres-store.js'

isolationSuite('two PostgreSQL instances', async () => {
  const url = await freshDatabase('isolation')
  const secretsKeyFile = fleetSecretsKeyFile()
  const one = await bootEngine({store: postgresStore(url, {unitConnections: 8, readConnections: 4}), rateLimit: 0, secretsKeyFile})
  const two = await bootEngine({store: postgresStore(url, {unitConnections: 8, readConnections: 4}), rateLimit: 0, secretsKeyFile})
  return {
    platformA: one.as(one.key),
    platformB: two.as(two.key),
    baseUrlB: two.engine.baseUrl,
    agentB: two.agent,
    close: async () => {
      await Promise.all([one.stop(), two.stop()])
    },
  }
})

describe('keys on a fleet', () => {
  it('a key revoked through one instance is refused by the other within a second; a new key works on both at once', async () => {
    const url = await freshDatabase('keys')
    const secretsKeyFile = fleetSecretsKeyFile()
    const one = await bootEngine({store: postgresStore(url, {unitConnections: 4, readConnections: 2}), rateLimit: 0, secretsKeyFile})
    const two = await bootEngine({store: postgresStore(url, {unitConnections: 4, readConnections: 2}), rateLimit: 0, secretsKeyFile})
    try {
      const acct = await one.account('fleet-keys')
      const made = await acct.api('POST', '/api_keys', {permissions: ['payments:read']})
      expect(made.status).toBe(201)
      const onTwo = two.as(made.body.secret)
      expect((await onTwo.api('GET', '/payments')).status).toBe(200)
      expect((await acct.api('POST', `/api_keys/${made.body.id}/revoke`, {})).status).toBe(200)
      const revokedAt = Date.now()
      let status = 200
      while (status === 200 && Date.now() - revokedAt < 1000) {
        status = (await onTwo.api('GET', '/payments')).status
        if (status === 200) await new Promise((r) => setTimeout(r, 20))
      }
      expect(status).toBe(401)
      expect(Date.now() - revokedAt).toBeLessThan(1000)
      // the account's own secret key works through either instance
      expect((await two.as(acct.secretKey).api('GET', '/account')).body.id).toBe(acct.id)
    } finally {
      await Promise.all([one.stop(), two.stop()])
    }
  })
})
