// Module hooks for trace-imports.mjs: logs every resolved ESM URL.
import {appendFileSync} from 'node:fs'

let out
export async function initialize(data) {
  out = data.out
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  if (out) appendFileSync(out, `esm ${result.url}\n`)
  return result
}
