// The console's models without a terminal: what the search box means, the disputes queue, the
// paged list, Home's lines, and the text helpers the views draw with.
import {describe, expect, it, vi} from 'vitest'
import type {Dispute, ListEnvelope, Payment} from '../../api/types.js'
import {dispute as baseDispute} from '../../api/test-support/objects.js'
import type {GwClient} from '../../client/index.js'
import {NetworkError} from '../../client/errors.js'
import {clockText, fit, fitId, scrollWindow, span} from '../format.js'
import {keysHelp, matchView} from '../keymap.js'
import {ageShown, ConsoleSession, modeOfKey, Ticker} from '../session.js'
import {isLightBackground, makeTheme} from '../theme.js'
import {attentionLines} from './attention.js'
import {PagedList} from './paging.js'
import {disputeQueue} from './queue.js'
import {amountMatches, describeSearch, fallbackSearch, parseSearch, searchParams} from './search.js'

const NOW = new Date('2025-03-01T00:00:00.000Z')
const inDays = (d: number) => new Date(NOW.getTime() + d * 86_400_000).toISOString()

const dispute = (over: Partial<Dispute> = {}) => baseDispute({id: 'dp_1', payment: 'pay_1', evidence_due_by: inDays(7), ...over})

function session(): ConsoleSession {
  return new ConsoleSession({client: {baseUrl: 'https://127.0.0.1:1/v1'} as GwClient, apiKey: 'sk_test_abc', profile: 'default'})
}

describe('the search box', () => {
  it('reads what a customer says as the filter it is', () => {
    expect(parseSearch('pay_0Vc9ClFv9z8tNEtx')).toEqual({kind: 'id', id: 'pay_0Vc9ClFv9z8tNEtx'})
    expect(parseSearch('  Zoe@Lovelace-Shop.Example ')).toEqual({kind: 'email', email: 'Zoe@Lovelace-Shop.Example'})
    expect(parseSearch('@lovelace-shop.example')).toEqual({kind: 'domain', domain: 'lovelace-shop.example'})
    expect(parseSearch('4242')).toEqual({kind: 'last4', last4: '4242'})
    expect(parseSearch('12.50 EUR')).toEqual({kind: 'amount', text: '12.50', currency: 'EUR'})
    expect(parseSearch('€12,50')).toEqual({kind: 'amount', text: '12.50', currency: undefined})
    expect(parseSearch('ORDER-*')).toEqual({kind: 'reference', reference: 'ORDER-', prefix: true})
    expect(parseSearch('ref:order 1')).toEqual({kind: 'reference', reference: 'order 1', prefix: false})
    expect(parseSearch('Zoë Lovelace')).toEqual({kind: 'words', text: 'Zoë Lovelace'})
    expect(parseSearch('')).toEqual({kind: 'all'})
    // bare digits that are not four are no amount (a reference)
    expect(parseSearch('125').kind).toBe('words')
  })

  it("maps each search onto GET /v1/payments' filters (the names docs/api.md gives them)", () => {
    expect(searchParams(parseSearch('a@b.example'))).toEqual({customer_email: 'a@b.example'})
    expect(searchParams(parseSearch('@b.example'))).toEqual({email_domain: 'b.example'})
    expect(searchParams(parseSearch('4242'))).toEqual({card_last4: '4242'})
    expect(searchParams(parseSearch('name:zoe'))).toEqual({customer_name: 'zoe'})
    expect(searchParams(parseSearch('ORDER-*'))).toEqual({reference_prefix: 'ORDER-'})
    expect(searchParams(parseSearch('12.50'))).toEqual({})
    expect(searchParams(parseSearch('pay_1'))).toBeUndefined()
  })

  it('falls back: words to a name, a mixed-case email to lower case, once', () => {
    expect(fallbackSearch({kind: 'words', text: 'zoe'})).toEqual({kind: 'name', name: 'zoe'})
    const lowered = fallbackSearch({kind: 'email', email: 'Zoe@Shop.Example'})
    expect(lowered).toEqual({kind: 'email', email: 'zoe@shop.example', lowered: true})
    expect(fallbackSearch(lowered!)).toBeUndefined()
    expect(fallbackSearch({kind: 'email', email: 'zoe@shop.example'})).toBeUndefined()
    expect(describeSearch(lowered!)).toContain('searched in lower case')
  })

  it("matches an amount in the payment's own currency", () => {
    const p = {amount: 1250, currency: 'EUR'} as Pick<Payment, 'amount' | 'currency'>
    expect(amountMatches(p, {text: '12.50'})).toBe(true)
    expect(amountMatches(p, {text: '12.5', currency: 'EUR'})).toBe(true)
    expect(amountMatches(p, {text: '12.50', currency: 'USD'})).toBe(false)
    expect(amountMatches({amount: 1250, currency: 'JPY'}, {text: '1250'})).toBe(true)
  })
})

describe('the disputes queue', () => {
  const soon = dispute({id: 'dp_soon', evidence_due_by: inDays(1)})
  const later = dispute({id: 'dp_later', evidence_due_by: inDays(5), reason: 'product_not_received'})
  const won = dispute({id: 'dp_won', status: 'won', evidence_due_by: null, created_at: '2025-02-27T00:00:00.000Z'})
  const review = dispute({id: 'dp_review', status: 'under_review', evidence_due_by: null})

  it('needing a response, soonest due first, whatever order the pages came in', () => {
    expect(disputeQueue([later, won, soon, review], {all: false, filter: ''}).map((d) => d.id)).toEqual(['dp_soon', 'dp_later'])
  })

  it('all: the open ones first by due date, then the rest newest first', () => {
    expect(disputeQueue([won, later, review, soon], {all: true, filter: ''}).map((d) => d.id)).toEqual(['dp_soon', 'dp_later', 'dp_review', 'dp_won'])
  })

  it('the filter: every word, any case, in the id, payment, reason, status or stage', () => {
    expect(disputeQueue([soon, later], {all: false, filter: 'PRODUCT'}).map((d) => d.id)).toEqual(['dp_later'])
    expect(disputeQueue([soon, later, won], {all: true, filter: 'won pay_1'}).map((d) => d.id)).toEqual(['dp_won'])
  })
})

describe('the paged list', () => {
  const rows = Array.from({length: 250}, (_, i) => ({id: `pay_${String(1000 - i).padStart(4, '0')}`, n: i}))
  const source = (calls: (string | undefined)[]) => ({
    page: async (cursor: string | undefined, limit: number): Promise<ListEnvelope<(typeof rows)[number]>> => {
      calls.push(cursor)
      const from = cursor ? rows.findIndex((r) => r.id === cursor) + 1 : 0
      const data = rows.slice(from, from + limit)
      return {object: 'list', url: '/v1/payments', data, has_more: from + limit < rows.length}
    },
  })

  it('pages after the last row as the selection nears the end, and all() reads to the end', async () => {
    const calls: (string | undefined)[] = []
    const list = new PagedList(session(), source(calls))
    await list.more()
    expect(list.rows).toHaveLength(100)
    // a page is kept loaded ahead of the selection
    list.ensure(10)
    await list.more()
    expect(calls).toEqual([undefined, 'pay_0901'])
    list.ensure(10)
    expect(calls).toHaveLength(2) // a page ahead already: nothing fetched
    await list.all()
    expect(list.rows.map((r) => r.n)).toEqual(rows.map((r) => r.n))
    expect(list.hasMore).toBe(false)
    list.dispose()
  })

  it('a page fetched ahead is no redraw of its own: it arrives with the next draw, or a quiet one a second later', async () => {
    vi.useFakeTimers()
    try {
      const many = Array.from({length: 1000}, (_, i) => ({id: `pay_${String(5000 - i).padStart(4, '0')}`}))
      const list = new PagedList(session(), {
        page: async (cursor: string | undefined, limit: number): Promise<ListEnvelope<(typeof many)[number]>> => {
          const from = cursor ? many.findIndex((r) => r.id === cursor) + 1 : 0
          return {object: 'list', url: '/v1/payments', data: many.slice(from, from + limit), has_more: from + limit < many.length}
        },
      })
      let heard = 0
      const unsub = list.subscribe(() => heard++)
      // the first page: the view waits on it (nothing loaded), so it is heard at once
      await list.more()
      expect(heard).toBe(1)
      // the view shows rows 0..30 and moves: the page fetched ahead says nothing as it starts…
      list.drawn(31)
      list.ensure(10)
      expect(list.loading).toBe(true)
      expect(list.waiting).toBe(false)
      expect(heard).toBe(1)
      await list.more()
      // …nor as it arrives (the rows shown did not need it)…
      expect(list.rows).toHaveLength(200)
      expect(heard).toBe(1)
      // …and the next draw shows it: no redraw a second later
      list.drawn(62)
      await vi.advanceTimersByTimeAsync(1500)
      expect(heard).toBe(1)
      // a page that arrives while no draw comes: one quiet redraw a second later (the count of rows loaded)
      list.ensure(150)
      await list.more()
      expect(heard).toBe(1)
      await vi.advanceTimersByTimeAsync(1000)
      expect(heard).toBe(2)
      // the rows shown reach past what is loaded: the view waits ("loading more…"), and the arrival is heard at once
      list.drawn(300)
      expect(list.waiting).toBe(true)
      await list.more()
      expect(heard).toBe(3)
      // the last page is heard at once too: "more below" goes
      list.drawn(331)
      await list.all()
      expect(list.hasMore).toBe(false)
      expect(heard).toBeGreaterThan(3)
      unsub()
      list.dispose()
    } finally {
      vi.useRealTimers()
    }
  })

  it('a filter the API lacks is applied page by page, up to its scan limit, and says so', async () => {
    const calls: (string | undefined)[] = []
    const list = new PagedList(session(), {...source(calls), keep: (r) => r.n % 50 === 0, scanLimit: 200})
    await list.all()
    expect(list.rows.map((r) => r.n)).toEqual([0, 50, 100, 150])
    expect(list.scanCapped).toBe(true)
    list.dispose()
  })

  it('a new search drops the pages of the old one, even one still on its way', async () => {
    let release: () => void = () => {}
    const slow = {page: () => new Promise<ListEnvelope<{id: string}>>((r) => (release = () => r({object: 'list', url: '', data: [{id: 'old'}], has_more: false})))}
    const list = new PagedList<{id: string}>(session(), slow)
    const first = list.more()
    list.reset({page: async () => ({object: 'list', url: '', data: [{id: 'new'}], has_more: false})})
    release()
    await first
    await list.all()
    expect(list.rows.map((r) => r.id)).toEqual(['new'])
    list.dispose()
  })

  it('an unreachable engine keeps what is shown and turns the connection to reconnecting', async () => {
    const s = session()
    const list = new PagedList<{id: string}>(s, {page: async () => Promise.reject(new NetworkError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED', 'https://127.0.0.1:1/v1/payments'))})
    await list.more()
    expect(list.error).toBeUndefined()
    expect(s.connection.state).toBe('reconnecting')
    s.close()
    list.dispose()
  })
})

describe("Home's lines", () => {
  it('disputes soonest first with the time left, each opening its dispute; a section the key may not read names the permission', () => {
    const lines = attentionLines(
      {
        disputes: {ok: true, value: [dispute({id: 'dp_b', evidence_due_by: inDays(3)}), dispute({id: 'dp_a', evidence_due_by: new Date(NOW.getTime() + 5 * 3600_000).toISOString()})]},
        endpoints: {ok: false, message: 'forbidden', permission: 'webhooks:read'},
        providers: {ok: true, value: []},
        chaos: {ok: true, value: []},
        review: {ok: true, value: []},
      },
      NOW,
    )
    const items = lines.filter((l) => l.route?.view === 'dispute')
    expect(items.map((l) => l.route!.id)).toEqual(['dp_a', 'dp_b'])
    expect(items[0]!.text).toContain('5h left')
    expect(items[0]!.tone).toBe('warn')
    expect(lines.map((l) => l.text)).toContain('  needs webhooks:read (this key may not read it)')
    expect(lines.find((l) => l.heading && l.text.startsWith('Providers'))!.text).toBe('Providers degraded or disabled (0)')
  })
})

describe('text helpers', () => {
  it('fit shows control characters before cutting, so a column never breaks the screen', () => {
    expect(fit('abc', 5)).toBe('abc  ')
    expect(fit('abcdef', 4)).toBe('abc…')
    expect(fit('a\u001B[2Jb', 10)).not.toContain('\u001B')
    expect(fit('1 Main St\nUSA', 20)).toBe('1 Main St USA       ')
    expect(fit('12', 5, 'right')).toBe('   12')
  })

  it('fitId keeps the prefix and the end', () => {
    expect(fitId('pay_0Vc9ClFv9z8tNEtxHCtTyiS2', 21)).toBe('pay_0Vc9Cl…txHCtTyiS2')
    expect(fitId('pay_1', 8)).toBe('pay_1   ')
  })

  it('scrollWindow moves as little as it can to keep the selection shown', () => {
    expect(scrollWindow(100, 0, 10, 0)).toBe(0)
    expect(scrollWindow(100, 10, 10, 0)).toBe(1)
    expect(scrollWindow(100, 5, 10, 3)).toBe(3)
    expect(scrollWindow(100, 2, 10, 3)).toBe(2)
    expect(scrollWindow(100, 99, 10, 0)).toBe(90)
    expect(scrollWindow(5, 4, 10, 3)).toBe(0)
  })

  it('the ticker redraws once a tick, and only when a text it reads changed', () => {
    const ticker = new Ticker()
    let heard = 0
    ticker.subscribe(() => heard++)
    let age = 'updated 3s ago'
    let clock = '10:00:03'
    ticker.watch({read: () => age, last: age})
    ticker.watch({read: () => clock, last: clock})
    ticker.check()
    expect(heard).toBe(0)
    age = 'updated 4s ago'
    clock = '10:00:04'
    ticker.check()
    expect(heard).toBe(1)
    ticker.check()
    expect(heard).toBe(1)
  })

  it('a polled age says "just now" while the polls keep it fresh, its age once one is late', () => {
    const at = 1_000_000
    expect(ageShown(at, at + 6_900, 5000)).toBe('just now')
    expect(ageShown(at, at + 7_000, 5000)).toBe('7s ago')
    // data read once counts its age
    expect(ageShown(at, at + 3_000, undefined)).toBe('3s ago')
    expect(ageShown(undefined, at, 5000)).toBe('not read yet')
  })

  it('the clock says how far the engine runs ahead', () => {
    expect(clockText(new Date('2025-03-08T10:00:03Z'), 7 * 86_400_000 + 7_200_000)).toEqual({time: '2025-03-08 10:00 UTC', ahead: '(+7d 2h)'})
    expect(clockText(NOW, 20_000).ahead).toBe('')
    // to the second while frozen (it never redraws then)
    expect(clockText(new Date('2025-03-08T10:00:03Z'), 0, true).time).toBe('2025-03-08 10:00:03 UTC')
    expect(span(5400)).toBe('1h 30m')
    expect(span(20)).toBe('<1m')
  })
})

describe('keys, mode and theme', () => {
  it(': jumps by a name or its start', () => {
    expect(matchView('pay')).toBe('payments')
    expect(matchView(':Disputes')).toBe('disputes')
    expect(matchView('gw')).toBe('gateway')
    expect(matchView('nope')).toBeUndefined()
  })

  it('--help lists the keys of every view', () => {
    const help = keysHelp()
    expect(help).toContain('q / Ctrl-C')
    expect(help).toMatch(/KEYS \(payment\)\n {2}f +refund/)
    expect(help).toMatch(/KEYS \(dispute\)\n {2}e +answer/)
  })

  it("a key's mode from its prefix", () => {
    expect(modeOfKey('sk_live_x')).toBe('live')
    expect(modeOfKey('rk_test_x')).toBe('test')
    expect(modeOfKey('other')).toBe('unknown')
  })

  it('NO_COLOR: no colour at all; a light background: no yellow', () => {
    const tty = {isTTY: true}
    expect(makeTheme({NO_COLOR: '1'}, tty).tone('warn')).toBeUndefined()
    expect(makeTheme({NO_COLOR: '1'}, tty).status('failed')).toBeUndefined()
    expect(makeTheme({}, tty).tone('warn')).toBe('yellow')
    expect(makeTheme({GW_CONSOLE_THEME: 'light'}, tty).tone('warn')).not.toBe('yellow')
    expect(isLightBackground({COLORFGBG: '0;15'})).toBe(true)
    expect(isLightBackground({COLORFGBG: '15;0'})).toBe(false)
  })
})
