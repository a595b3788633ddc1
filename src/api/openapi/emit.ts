// Build step: writes the OpenAPI document to dist/openapi.json (the package exports it as
// `gw/openapi.json`). Run by `npm run build` after scripts/emit.mjs.
import {writeFileSync} from 'node:fs'
import {resolve} from 'node:path'
import {openapiDocument} from './document.js'

const out = resolve(import.meta.dirname, '../../openapi.json')
writeFileSync(out, JSON.stringify(openapiDocument(), null, 2) + '\n')
process.stdout.write(`wrote ${out}\n`)
