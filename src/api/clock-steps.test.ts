import {expect, it} from 'vitest'
import {clockSteps, MAX_ADVANCE_S} from './clock-steps.js'

const STEP = MAX_ADVANCE_S * 1000

it('a target within 400 days is one step; further, steps of 400 days and then the target', () => {
  expect(clockSteps(0, 5000)).toEqual([5000])
  expect(clockSteps(0, STEP)).toEqual([STEP])
  expect(clockSteps(0, STEP + 1)).toEqual([STEP, STEP + 1])
  expect(clockSteps(1000, 2 * STEP + 500)).toEqual([1000 + STEP, 2 * STEP + 500])
  // a target behind is asked as it is (the API says the clock never moves back)
  expect(clockSteps(5000, 0)).toEqual([0])
})
