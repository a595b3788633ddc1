// Sub-merchants on screen: KYB status and capabilities, in a list and one merchant's view.
import type {Merchant} from '../../../api/types.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {compactTime as date, metadataText as kv, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'

export function renderMerchant(m: Merchant, p: Painter): string {
  const caps = Object.entries(m.capabilities).map(([k, v]) => `${k} ${v}`).join(', ')
  return renderFields(
    `${p.bold(m.id)}  ${paintStatus(p, m.kyb_status)}`,
    [
      ['Business name', m.business_name],
      ['Legal name', m.legal_name],
      ['Country', m.country],
      ['Email', m.email],
      ['KYB status', m.kyb_status],
      ['Capabilities', caps],
      ['MID', m.mid],
      ['Metadata', kv(m.metadata)],
      ['Mode', m.livemode ? 'live' : 'test'],
      ['Created', m.created_at],
    ],
    p,
  )
}

export const merchantColumns: Columns<Merchant> = {
  head: ['ID', 'BUSINESS NAME', 'COUNTRY', 'KYB', 'CREATED'],
  row: (x, p) => [x.id, x.business_name, x.country ?? '', paintStatus(p, x.kyb_status), date(x.created_at)],
}
