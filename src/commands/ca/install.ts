import {Flags} from '@oclif/core'
import {GwCommand, UsageError, type Context, type GwArgs, type GwFlags} from '../../base/command.js'
import type {TrustResult} from '../../base/ca-trust.js'

export const caFlags = {
  ca: Flags.string({description: "The CA certificate (PEM); default the profile's CA file (gw login --local saves it)."}),
  system: Flags.boolean({description: 'The system store too (/usr/local/share/ca-certificates; needs root). --no-system: browsers only.', allowNo: true, default: true}),
  browsers: Flags.boolean({description: "Browsers' NSS databases (Chromium's ~/.pki/nssdb, Firefox profiles). --no-browsers: the system store only.", allowNo: true, default: true}),
}

export default class CaInstall extends GwCommand<typeof CaInstall> {
  static override summary = "Make browsers trust the local engine's certificate authority, so hosted pages open without a warning."
  static override description = `Adds the CA to the browsers' NSS databases (Chromium's ~/.pki/nssdb, made when missing; Firefox profiles) with certutil (Debian: sudo apt-get install libnss3-tools), and to the system store with update-ca-certificates (as root; otherwise it prints the command). Restart the browser afterwards. Undo with gw ca uninstall.
The CA is the one gw serve made for this data dir; only this machine's engine has its key.`
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Browsers only, no root needed', command: '<%= config.bin %> <%= command.id %> --no-system'},
    {description: 'A CA from elsewhere (a shared --tls-dir)', command: '<%= config.bin %> <%= command.id %> --ca ./tls/ca.pem'},
  ]

  static override flags = caFlags

  async run(): Promise<TrustResult> {
    return caTrust(this.ctx, this.flags, this.args, 'install')
  }
}

export async function caTrust(ctx: Context, f: GwFlags<typeof CaInstall>, _a: GwArgs<typeof CaInstall>, what: 'install' | 'uninstall'): Promise<TrustResult> {
  const caFile = f.ca ?? ctx.settings().caFile.value
  if (!caFile) throw new UsageError('Which CA? This profile has no CA file.', 'Run gw login --local against your engine first, or pass --ca PATH (e.g. the ca.pem in gw serve --tls-dir).')
  if (!f.system && !f.browsers) throw new UsageError('--no-system and --no-browsers leave nothing to do.')
  const home = ctx.env.HOME ?? ''
  const trust = await import('../../base/ca-trust.js')
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
