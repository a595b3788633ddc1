// Debian's chromium for the browser tests (never a tool's own download), headless and quiet.
// `trustAll`: accept the engine's self-signed certificate (what a developer's browser does after
// gw ca install); `home`: a HOME of its own (its NSS database decides what is trusted).
import {chromium, type Browser} from 'playwright-core'

export function launchChromium(opts: {trustAll?: boolean; home?: string} = {}): Promise<Browser> {
  const quiet = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...quiet, ...(opts.trustAll === false ? [] : ['--ignore-certificate-errors'])],
    headless: true,
    ...(opts.home ? {env: {...process.env, HOME: opts.home}} : {}),
  })
}
