import {PassThrough} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {canRenderInk, isCI} from './gate.js'
import {startProgress} from './progress.js'

const tty = {isTTY: true, columns: 80, rows: 24}

describe('render gate', () => {
  it('opens only for a sized TTY, outside CI, without --json', () => {
    expect(canRenderInk({json: false, stream: tty, env: {}})).toBe(true)
    expect(canRenderInk({json: true, stream: tty, env: {}})).toBe(false)
    expect(canRenderInk({json: false, stream: {isTTY: false}, env: {}})).toBe(false)
    expect(canRenderInk({json: false, stream: {isTTY: true, columns: 0, rows: 0}, env: {}})).toBe(false)
    expect(canRenderInk({json: false, stream: tty, env: {CI: 'true'}})).toBe(false)
  })

  it('reads CI flags', () => {
    expect(isCI({CI: '1'})).toBe(true)
    expect(isCI({GITHUB_ACTIONS: 'true'})).toBe(true)
    expect(isCI({CI: 'false'})).toBe(false)
    expect(isCI({})).toBe(false)
  })
})

describe('progress', () => {
  it('is silent in a pipe, and log lines go to the fallback writer', async () => {
    const lines: string[] = []
    const stream = Object.assign(new PassThrough(), {isTTY: false}) as unknown as NodeJS.WriteStream
    let written = ''
    stream.on('data', (d) => (written += d))
    const p = await startProgress('Working', {json: false, stream, env: {}, write: (l) => lines.push(l)})
    p.update('Still working')
    p.log('a → b')
    p.stop()
    expect(lines).toEqual(['a → b'])
    expect(written).toBe('')
  })

  it('renders an Ink spinner with logged lines on a TTY', async () => {
    const stream = Object.assign(new PassThrough(), {isTTY: true, columns: 80, rows: 24}) as unknown as NodeJS.WriteStream
    let written = ''
    stream.on('data', (d) => (written += d))
    const p = await startProgress('Waiting for pay_1: requires_action', {json: false, stream, env: {}})
    p.log('pay_1: requires_action → processing')
    p.update('Waiting for pay_1: processing')
    await new Promise((r) => setTimeout(r, 150))
    p.stop()
    expect(written).toContain('Waiting for pay_1')
    expect(written).toContain('pay_1: requires_action → processing')
  })
})
