// What gw ca install and uninstall share: their flags, and the work (./trust.ts, loaded only
// when it runs, does the system store and the NSS databases).
import {Flags} from '@oclif/core'
import type {Context} from '../../../base/context.js'
import {UsageError} from '../../../errors.js'
import type {TrustResult} from './trust.js'

export const caFlags = {
  ca: Flags.string({description: "The CA certificate (PEM); default the profile's CA file (gw login --local saves it)."}),
  system: Flags.boolean({description: 'The system store too (/usr/local/share/ca-certificates; needs root). --no-system: browsers only.', allowNo: true, default: true}),
  browsers: Flags.boolean({description: "Browsers' NSS databases (Chromium's ~/.pki/nssdb, Firefox profiles). --no-browsers: the system store only.", allowNo: true, default: true}),
}

/** `gw ca install` / `uninstall`: the CA of the profile (or --ca) added to, or removed from, the system store and the browsers. */
export async function caTrust(ctx: Context, f: {ca?: string; system: boolean; browsers: boolean}, what: 'install' | 'uninstall'): Promise<TrustResult> {
  const caFile = f.ca ?? ctx.settings().caFile.value
  if (!caFile) throw new UsageError('Which CA? This profile has no CA file.', 'Run gw login --local against your engine first, or pass --ca PATH (e.g. the ca.pem in gw serve --tls-dir).')
  if (!f.system && !f.browsers) throw new UsageError('--no-system and --no-browsers leave nothing to do.')
  const home = ctx.env.HOME ?? ''
  const trust = await import('./trust.js')
  let r: TrustResult
  try {
    r = await (what === 'install' ? trust.installCa : trust.uninstallCa)(caFile, {home, system: f.system, browsers: f.browsers, systemDir: ctx.env.GW_CA_SYSTEM_DIR || undefined})
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  if (ctx.json) return r
  const c = ctx.color
  ctx.print(`${r.nickname} (${caFile})`)
  for (const p of r.places) {
    const mark = p.result === 'installed' || p.result === 'removed' ? c.green(p.result) : p.result === 'skipped' ? c.yellow(p.result) : c.dim(p.result)
    ctx.print(`  ${mark.padEnd(9)} ${p.place}${p.detail ? `: ${p.detail}` : ''}`)
  }
  if (r.places.length === 0) ctx.print('  no browser database found (start Chromium or Firefox once, then run this again)')
  if (what === 'install' && r.places.some((p) => p.result === 'installed')) ctx.notice(ctx.errColor.dim('Restart the browser to pick it up.'))
  return r
}
