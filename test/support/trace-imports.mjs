// Preload (node --import) that records every module a process loads, ESM and CommonJS, to
// the file named by GW_TRACE_FILE. Used to prove that `gw --version` and `gw payments get`
// load no Ink, React, cli-table3 or engine code.
import {appendFileSync} from 'node:fs'
import Module, {register} from 'node:module'

const out = process.env.GW_TRACE_FILE
if (out) {
  register('./trace-hooks.mjs', import.meta.url, {data: {out}})
  const load = Module._load
  Module._load = function (request, parent, isMain) {
    let file = request
    try {
      file = Module._resolveFilename(request, parent, isMain)
    } catch {}
    appendFileSync(out, `cjs ${file}\n`)
    return load.apply(this, arguments)
  }
}
