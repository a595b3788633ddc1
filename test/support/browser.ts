// Debian's chromium for the browser tests (browser-options.ts says how it is started). The
// browser tier starts one chromium for its whole run (browser-server.ts, a globalSetup) and each
// file connects to it rather than starting its own: each page a test opens comes in a browser
// context of its own (no cookies, storage or cache shared with another test's), and closing what
// launchChromium() returned closes every context this file made. A file run outside that tier
// launches its own. A file that wants its own HOME (whose NSS database chromium reads when it
// starts) or the certificate checks on gets a chromium of its own.
import {chromium, type Browser} from 'playwright-core'
import {inject} from 'vitest'
import {chromiumOptions, type ChromiumWants} from './browser-options.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** the run's chromium (browser-server.ts): its playwright websocket; absent outside the browser tier */
    chromiumEndpoint: string
  }
}

export function launchChromium(opts: ChromiumWants = {}): Promise<Browser> {
  const shared = opts.trustAll === false || opts.home ? '' : sharedChromium()
  return shared ? chromium.connect(shared) : chromium.launch(chromiumOptions(opts))
}

/** the websocket of the run's chromium, or '' when this file's project started none */
export function sharedChromium(): string {
  return inject('chromiumEndpoint') ?? ''
}
