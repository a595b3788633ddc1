// Migration 4 (docs/decisions.md#finding-payments): payments and customers stored before it get their search columns from
// their JSON, as every write computes them, so a support agent finds old payments too.
import {rmSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {bootEngine, card} from '../../test-support/harness.js'
import {freshDatabase, sql} from '../../test-support/pg.js'
import {MIGRATIONS, SEARCH_KEYS_COLUMNS} from './schema.js'

describe('PostgreSQL migration 4: search columns of rows stored before it', () => {
  it('fills card_last4 and the customer keys from the stored objects; the filters find them', async () => {
    const url = await freshDatabase('searchkeys')
    const first = await bootEngine({storeUrl: url})
    const body = (email: string, name: string, number: string) => ({amount: 1500, currency: 'EUR', payment_method: 'card', payment_method_data: card(number), customer: {email, name}})
    const zoe = await first.api('POST', '/payments', body('Zoe@Lovelace-Shop.example', 'Zoë Lovelace', '4242424242424242'))
    const bob = await first.api('POST', '/payments', body('bob@other.example', 'Bob Builder', '5555555555554444'))
    expect([zoe.status, bob.status]).toEqual([201, 201])
    await first.agent.close()
    await first.engine.close()
    // the database as a gw before migration 4 left it: no search columns, version 3
    for (const [table, cols] of Object.entries(SEARCH_KEYS_COLUMNS)) for (const c of cols) await sql(url, `ALTER TABLE ${table} DROP COLUMN ${c}`)
    await sql(url, 'DELETE FROM gw_schema_migrations WHERE version >= 4')

    const again = await bootEngine({storeUrl: url, dataDir: first.dataDir})
    try {
      const found = async (q: string) => (await again.api('GET', `/payments?${q}`)).body.data.map((p: {id: string}) => p.id)
      expect(await found('card_last4=4242')).toEqual([zoe.body.id])
      expect(await found('customer_email=ZOE@lovelace-shop.EXAMPLE')).toEqual([zoe.body.id])
      expect(await found('email_domain=other.example')).toEqual([bob.body.id])
      expect(await found('customer_name=lovelace')).toEqual([zoe.body.id])
      expect((await sql(url, 'SELECT max(version) AS v FROM gw_schema_migrations'))[0].v).toBe(MIGRATIONS.length)
    } finally {
      await again.stop()
      rmSync(first.dataDir, {recursive: true, force: true})
    }
  })
})
