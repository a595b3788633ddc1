// ANSI (what `tmux capture-pane -e -p` prints: SGR sequences) to an HTML page, for the console's
// screenshots (scripts/console-screenshots.mjs): the 16 and 256 colours, 24-bit colour, bold, dim,
// underline and reverse video — what Ink draws.

const BASE = ['#1e1e1e', '#cd3131', '#0dbc79', '#e5e510', '#2472c8', '#bc3fbc', '#11a8cd', '#e5e5e5']
const BRIGHT = ['#666666', '#f14c4c', '#23d18b', '#f5f543', '#3b8eea', '#d670d6', '#29b8db', '#ffffff']
const FG = '#d4d4d4'
const BG = '#1e1e1e'

/** xterm's 256 colours: 16 named, a 6×6×6 cube, 24 greys. */
function color256(n) {
  if (n < 8) return BASE[n]
  if (n < 16) return BRIGHT[n - 8]
  if (n < 232) {
    const v = [0, 95, 135, 175, 215, 255]
    const i = n - 16
    return `rgb(${v[Math.floor(i / 36)]},${v[Math.floor(i / 6) % 6]},${v[i % 6]})`
  }
  const g = 8 + (n - 232) * 10
  return `rgb(${g},${g},${g})`
}

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** One line of SGR-coloured text as spans. */
function lineToHtml(line, state) {
  let html = ''
  let last = 0
  const flush = (text) => {
    if (!text) return
    let fg = state.fg ?? FG
    let bg = state.bg ?? BG
    if (state.inverse) [fg, bg] = [bg, fg]
    const style = [`color:${fg}`, bg !== BG ? `background:${bg}` : '', state.bold ? 'font-weight:bold' : '', state.dim ? 'opacity:0.6' : '', state.underline ? 'text-decoration:underline' : ''].filter(Boolean).join(';')
    html += `<span style="${style}">${escapeHtml(text)}</span>`
  }
  for (const m of line.matchAll(/\u001B\[([0-9;:]*)m/g)) {
    flush(line.slice(last, m.index))
    last = m.index + m[0].length
    const codes = (m[1] || '0').split(/[;:]/).map(Number)
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i]
      if (c === 0) Object.assign(state, {fg: undefined, bg: undefined, bold: false, dim: false, inverse: false, underline: false})
      else if (c === 1) state.bold = true
      else if (c === 2) state.dim = true
      else if (c === 4) state.underline = true
      else if (c === 7) state.inverse = true
      else if (c === 22) state.bold = state.dim = false
      else if (c === 24) state.underline = false
      else if (c === 27) state.inverse = false
      else if (c >= 30 && c <= 37) state.fg = BASE[c - 30]
      else if (c >= 90 && c <= 97) state.fg = BRIGHT[c - 90]
      else if (c >= 40 && c <= 47) state.bg = BASE[c - 40]
      else if (c >= 100 && c <= 107) state.bg = BRIGHT[c - 100]
      else if (c === 39) state.fg = undefined
      else if (c === 49) state.bg = undefined
      else if ((c === 38 || c === 48) && codes[i + 1] === 5) {
        state[c === 38 ? 'fg' : 'bg'] = color256(codes[i + 2])
        i += 2
      } else if ((c === 38 || c === 48) && codes[i + 1] === 2) {
        state[c === 38 ? 'fg' : 'bg'] = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`
        i += 4
      }
    }
  }
  flush(line.slice(last).replace(/\u001B\[[0-9;?]*[A-Za-z]/g, ''))
  return html
}

/** The whole screen as a page: a terminal-coloured <pre> exactly `size` cells. */
export function ansiPage(ansi, size) {
  const state = {}
  const lines = ansi.replace(/\n$/, '').split('\n').slice(0, size.y)
  while (lines.length < size.y) lines.push('')
  const body = lines.map((l) => lineToHtml(l, state) || ' ').join('\n')
  return `<!doctype html><meta charset="utf-8"><style>
body{margin:0;background:${BG}}
pre{display:inline-block;margin:0;padding:12px 14px;background:${BG};color:${FG};font:14px/1.25 'DejaVu Sans Mono','Liberation Mono',monospace;width:${size.x}ch;white-space:pre}
</style><pre>${body}</pre>`
}
