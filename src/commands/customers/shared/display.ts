// A customer on screen: the detail view and the list's columns.
import type {Customer} from '../../../api/types.js'
import type {Painter} from '../../../output/color.js'
import {compactTime as date, metadataText as metadata, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'

export function renderCustomer(c: Customer, p: Painter): string {
  return renderFields(
    p.bold(c.id),
    [
      ['Email', c.email],
      ['Name', c.name],
      ['Description', c.description],
      ['Metadata', metadata(c.metadata)],
      ['Mode', c.livemode ? 'live' : 'test'],
      ['Created', c.created_at],
    ],
    p,
  )
}

export const customerColumns: Columns<Customer> = {
  head: ['ID', 'EMAIL', 'NAME', 'CREATED'],
  row: (x) => [x.id, x.email ?? '', x.name ?? '', date(x.created_at)],
}
