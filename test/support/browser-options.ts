// How the tests start Debian's chromium (never a tool's own download): headless and quiet.
// `trustAll`: accept the engine's self-signed certificate (what a developer's browser does after
// gw ca install); `home`: a HOME of its own (its NSS database decides what is trusted).
import type {LaunchOptions} from 'playwright-core'

export interface ChromiumWants {
  trustAll?: boolean
  home?: string
}

/** the switches besides playwright's own: no sandbox (root in a container), no GPU, no QUIC, nothing in the background */
export const QUIET = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export function chromiumOptions(opts: ChromiumWants = {}): LaunchOptions {
  return {
    executablePath: '/usr/bin/chromium',
    args: [...QUIET, ...(opts.trustAll === false ? [] : ['--ignore-certificate-errors'])],
    headless: true,
    ...(opts.home ? {env: {...process.env, HOME: opts.home}} : {}),
  }
}
