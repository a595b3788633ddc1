import {randomBytes} from 'node:crypto'
import type {Ids} from '../ports/ids.js'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/**
 * Ids: prefix + '_' + 24 base62 characters: 8 encode the creation time in milliseconds (real
 * time), 16 are random (~95 bits) from a refilled pool. Ids made later sort later, so each
 * unique id index takes appends at its right edge instead of inserts at random pages: a
 * commit dirties a few pages instead of one page per index and row, which keeps the create
 * rate flat as the store grows (bench/README.md, figure (c)).
 */
export class RandomIds implements Ids {
  private pool = Buffer.alloc(0)
  private pos = 0
  private timeMs = -1
  private timeText = ''
  next(prefix: string, nowMs = Date.now()): string {
    if (this.pos + 16 > this.pool.length) {
      this.pool = randomBytes(16 * 256)
      this.pos = 0
    }
    if (nowMs !== this.timeMs) {
      this.timeMs = nowMs
      let t = Math.max(0, Math.floor(nowMs))
      let text = ''
      for (let i = 0; i < 8; i++) {
        text = ALPHABET[t % 62]! + text
        t = Math.floor(t / 62)
      }
      this.timeText = text
    }
    let s = `${prefix}_${this.timeText}`
    for (let i = 0; i < 16; i++) s += ALPHABET[this.pool[this.pos++]! % 62]
    return s
  }
}
