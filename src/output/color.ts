// Colour only on a TTY, and never when NO_COLOR is set (https://no-color.org) or TERM=dumb.

export function colorEnabled(stream: {isTTY?: boolean} = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.TERM === 'dumb') return false
  return stream.isTTY === true
}

const codes = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  gray: [90, 39],
  bgRed: [41, 49],
} as const

export type ColorName = keyof typeof codes

/** Every escape sequence a painter writes (and cli-table3's bold head and gray border, the same SGR codes). */
export const PAINTED_SEQUENCES: readonly string[] = [...new Set(Object.values(codes).flat())].map((n) => `\u001B[${n}m`)
export type Painter = Record<ColorName, (s: string) => string> & {enabled: boolean}

export function painter(enabled: boolean): Painter {
  const p = {enabled} as Painter
  for (const [name, [open, close]] of Object.entries(codes)) {
    p[name as ColorName] = enabled ? (s: string) => `\u001B[${open}m${s}\u001B[${close}m` : (s: string) => s
  }
  return p
}

const STATUS_COLORS: Record<string, ColorName> = {
  succeeded: 'green',
  won: 'green',
  active: 'green',
  approved: 'green',
  failed: 'red',
  lost: 'red',
  blocked: 'red',
  disabled: 'red',
  canceled: 'gray',
  accepted: 'gray',
  requires_action: 'yellow',
  requires_confirmation: 'yellow',
  requires_capture: 'yellow',
  needs_response: 'yellow',
  degraded: 'yellow',
  review: 'yellow',
  processing: 'cyan',
  pending: 'cyan',
  under_review: 'cyan',
}

export function paintStatus(p: Painter, status: string): string {
  const c = STATUS_COLORS[status]
  return c ? p[c](status) : status
}
