// Colours of the console. NO_COLOR (https://no-color.org) and TERM=dumb: none at all, the
// selection in reverse video and emphasis in bold. A light background (GW_CONSOLE_THEME=light,
// or COLORFGBG saying so, as rxvt, Konsole and iTerm set it): no yellow or white text, which
// vanish on white; darker equivalents instead.
import {colorEnabled} from '../output/color.js'

export type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'muted' | 'accent'

export interface Theme {
  color: boolean
  light: boolean
  /** the Ink colour of a tone, or undefined (no colour) */
  tone(t: Tone): string | undefined
  /** a status word's tone (succeeded ok, failed bad, needs_response warn, …) */
  status(s: string): string | undefined
}

const STATUS_TONES: Record<string, Tone> = {
  succeeded: 'ok',
  won: 'ok',
  active: 'ok',
  enabled: 'ok',
  approved: 'ok',
  up: 'ok',
  ready: 'ok',
  live: 'ok',
  failed: 'bad',
  lost: 'bad',
  blocked: 'bad',
  disabled: 'bad',
  down: 'bad',
  undeliverable: 'bad',
  rejected: 'bad',
  canceled: 'muted',
  accepted: 'muted',
  requires_action: 'warn',
  requires_confirmation: 'warn',
  requires_capture: 'warn',
  needs_response: 'warn',
  degraded: 'warn',
  failing: 'warn',
  review: 'warn',
  failed_retrying: 'warn',
  not_ready: 'warn',
  quiet: 'warn',
  processing: 'info',
  pending: 'info',
  under_review: 'info',
}

/** Light background: COLORFGBG's last field is the background colour (7 and 15 are light). */
export function isLightBackground(env: NodeJS.ProcessEnv): boolean {
  const t = env.GW_CONSOLE_THEME?.toLowerCase()
  if (t === 'light') return true
  if (t === 'dark') return false
  const bg = env.COLORFGBG?.split(';').pop()
  return bg === '7' || bg === '15'
}

export function makeTheme(env: NodeJS.ProcessEnv, stream: {isTTY?: boolean}): Theme {
  const color = colorEnabled(stream, env)
  const light = isLightBackground(env)
  const dark: Record<Tone, string> = {ok: 'green', warn: 'yellow', bad: 'red', info: 'cyan', muted: 'gray', accent: 'cyan'}
  const onLight: Record<Tone, string> = {ok: 'green', warn: 'magenta', bad: 'red', info: 'blue', muted: 'gray', accent: 'blue'}
  const palette = light ? onLight : dark
  return {
    color,
    light,
    tone: (t) => (color ? palette[t] : undefined),
    status: (s) => {
      const t = STATUS_TONES[s]
      return color && t ? palette[t] : undefined
    },
  }
}
