import {describe, expect, it} from 'vitest'
import {parseListen} from './operations.js'

describe('--metrics-listen', () => {
  it.each([
    ['127.0.0.1:9464', {host: '127.0.0.1', port: 9464}],
    ['0.0.0.0:0', {host: '0.0.0.0', port: 0}],
    ['[::1]:9464', {host: '::1', port: 9464}],
    ['metrics.internal:9464', {host: 'metrics.internal', port: 9464}],
  ])('%s is HOST:PORT', (raw, want) => expect(parseListen(raw)).toEqual(want))

  it.each(['9464', '127.0.0.1', '127.0.0.1:99999', '::1:9464', 'http://127.0.0.1:9464', '127.0.0.1:94x'])('%s is not', (raw) => expect(parseListen(raw)).toBeUndefined())
})
