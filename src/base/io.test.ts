// Opening a browser (`--open`): "Opened" only when the opener worked: xdg-open exits
// 3 on a machine with no browser, and gw must then say to open the URL by hand.
import {describe, expect, it} from 'vitest'
import {openUrl} from './io.js'

describe('openUrl', () => {
  it('false when the opener fails (exits non-zero) or does not exist', async () => {
    expect(await openUrl('https://example.test/', {BROWSER: `${process.execPath} -e process.exit(3)`})).toBe(false)
    expect(await openUrl('https://example.test/', {BROWSER: 'false'})).toBe(false)
    expect(await openUrl('https://example.test/', {BROWSER: '/nonexistent/opener'})).toBe(false)
  })

  it('true when it exits 0, or is still running after a moment (a browser itself)', async () => {
    expect(await openUrl('https://example.test/', {BROWSER: `${process.execPath} -e 0`})).toBe(true)
    expect(await openUrl('https://example.test/', {BROWSER: `${process.execPath} -e setTimeout(()=>{},5000)`}, 200)).toBe(true)
  })
})
