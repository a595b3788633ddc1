import {describe, expect, it} from 'vitest'
import {tuneHeapForServing} from './heap.js'

describe('tuneHeapForServing', () => {
  it('leaves a growing factor given to node alone', () => {
    expect(tuneHeapForServing(['--heap-growing-percent=80'], '')).toBe(false)
    expect(tuneHeapForServing([], '--max-old-space-size=512 --heap_growing_percent=80')).toBe(false)
  })

  it('sets it when node was given none', () => {
    expect(tuneHeapForServing(['--enable-source-maps'], '--max-old-space-size=512')).toBe(true)
  })
})
