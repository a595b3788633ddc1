// gw events tail as a newcomer reads it (docs/decisions.md#a-newcomers-cli): one clock, labelled; words in the right number; no doubled periods.
import {describe, expect, it} from 'vitest'
import {EventFeed, type FeedStatus} from './feed.js'
import {TailModel} from './tail-model.js'
import {ApiError} from '../../../client/errors.js'
import type {GwClient} from '../../../client/index.js'

describe('tail model', () => {
  it('"reconnected at" is on the gateway clock, in UTC, like the events', () => {
    const model = new TailModel()
    model.clockOffsetMs = 7 * 86_400_000 // the engine clock was advanced 7 days
    const before = Date.now()
    model.setStatus({state: 'live', mode: 'stream', resumed: true, backfilled: 2})
    const m = /^reconnected, backfilled 2 at (\d\d:\d\d:\d\d) UTC$/.exec(model.notice ?? '')
    expect(m).not.toBeNull()
    const expected = new Date(before + model.clockOffsetMs).toISOString().slice(11, 19)
    const after = new Date(Date.now() + model.clockOffsetMs).toISOString().slice(11, 19)
    expect([expected, after]).toContain(m![1])
  })
})

describe('feed status', () => {
  it('a disconnect reason does not end in a period (the notice adds its own)', async () => {
    const statuses: FeedStatus[] = []
    const ac = new AbortController()
    const client = {
      baseUrl: 'https://api.test/v1',
      events: {list: async () => ({object: 'list', url: '/v1/events', data: [], has_more: false})},
      openStream: async () => {
        throw new ApiError({status: 503, type: 'api_error', code: 'unavailable', message: 'Could not connect: connection refused.'})
      },
    } as unknown as GwClient
    const feed = new EventFeed({
      client,
      signal: ac.signal,
      onEvent: () => {},
      onStatus: (s) => {
        statuses.push(s)
        if (s.state === 'disconnected') ac.abort()
      },
      sleep: async () => {},
    })
    await feed.run()
    const down = statuses.find((s) => s.state === 'disconnected') as Extract<FeedStatus, {state: 'disconnected'}>
    expect(down.reason).toMatch(/connection refused$/)
    expect(`! Disconnected: ${down.reason}. Reconnecting`).not.toContain('..')
  })
})
