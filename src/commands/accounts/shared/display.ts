// How accounts are shown (docs/decisions.md#accounts): the list and one account's view, with its first keys
// right after it is created.
import type {Account, AccountWithKeys} from '../../../api/types.js'
import type {Painter} from '../../../output/color.js'
import {compactTime as date, metadataText as metadata, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'

export const accountColumns: Columns<Account> = {
  head: ['ID', 'NAME', 'METADATA', 'CREATED'],
  row: (a) => [a.id, a.name ?? '', metadata(a.metadata) ?? '', date(a.created_at)],
  fit: {drop: ['METADATA']},
}

/** An account; just created, with its keys. */
export function renderAccount(a: Account & Partial<AccountWithKeys>, p: Painter): string {
  return renderFields(
    p.bold(a.id),
    [
      ['Name', a.name],
      ['Metadata', metadata(a.metadata)],
      ['Mode', a.livemode ? 'live' : 'test'],
      ['Created', a.created_at],
      ['Secret key', a.secret_key],
      ['Publishable key', a.publishable_key],
    ],
    p,
  )
}
