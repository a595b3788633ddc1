import {PassThrough} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {canRenderInk, isCI} from './gate.js'
import {barText} from './progress-bar.js'
import {startProgress, startProgressBar} from './progress.js'

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

describe('progress bar', () => {
  it('is silent in a pipe and under --json; log lines go to the fallback writer', async () => {
    for (const [json, isTTY] of [[false, false], [true, true]] as const) {
      const stream = Object.assign(new PassThrough(), {isTTY, columns: 80, rows: 24}) as unknown as NodeJS.WriteStream
      let written = ''
      stream.on('data', (d) => (written += d))
      const lines: string[] = []
      const bar = await startProgressBar('Downloading reports', {json, stream, env: {}, write: (l) => lines.push(l)})
      bar.set('Downloading reports', 1, 3)
      bar.log('a note')
      bar.stop()
      expect(lines).toEqual(['a note'])
      expect(written).toBe('')
    }
  })

  it('draws the label, a bar and done/total on a terminal, and a bare count without a total', async () => {
    const stream = Object.assign(new PassThrough(), {isTTY: true, columns: 80, rows: 24}) as unknown as NodeJS.WriteStream
    let written = ''
    stream.on('data', (d) => (written += d))
    const bar = await startProgressBar('Reading orders.csv', {json: false, stream, env: {}})
    // Ink writes on its own schedule: wait for what it drew, not for a time
    const until = async (re: RegExp) => {
      for (let i = 0; i < 500 && !re.test(written); i++) await new Promise((r) => setTimeout(r, 10))
    }
    bar.set('Reading orders.csv', 120000)
    await until(/Reading orders\.csv 120,000/)
    bar.set('Downloading reports', 2, 4)
    await until(/2\/4/)
    bar.stop()
    // (colours are whatever chalk detected for this process: compare the text without them)
    const text = written.replace(/\x1b\[[0-9;]*m/g, '')
    expect(text).toContain('Reading orders.csv 120,000')
    expect(text).toMatch(/Downloading reports [█░]+ 2\/4/)
  })

  it('fills the bar in proportion', () => {
    expect(barText(0, 4, 8)).toBe('░░░░░░░░')
    expect(barText(2, 4, 8)).toBe('████░░░░')
    expect(barText(5, 4, 8)).toBe('████████')
    expect(barText(0, 0, 4)).toBe('░░░░')
  })
})
