import {writeFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {GwCommand, type Context} from '../../base/command.js'
import type {GwClient} from '../../client/index.js'
import {AuthError, UsageError} from '../../errors.js'

/** What `gw api spec --output FILE` returns (without --output: the document itself). */
export interface SpecWritten {
  output: string
  bytes: number
  openapi: string
  title: string
  version: string
  operations: number
}

export default class ApiSpec extends GwCommand<typeof ApiSpec> {
  static override summary = "Print the API's OpenAPI 3.1 document, as the server serves it (GET /openapi.json)."
  static override operations = ['getOpenApiDocument'] as const
  static override description = `The contract of every path, parameter, body, response and error of the API, for generators and linters (openapi-typescript, openapi-fetch, Redocly). The document is public: without an API key, gw still asks the profile's (or --base-url's) server for it.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --output openapi.json',
    {description: 'Types for a TypeScript client', command: '<%= config.bin %> <%= command.id %> --output openapi.json && npx openapi-typescript openapi.json -o gw-api.d.ts'},
    {description: 'The operations, with jq', command: "<%= config.bin %> <%= command.id %> | jq -r '.paths | to_entries[] | .key as $p | .value | to_entries[] | \"\\(.key | ascii_upcase) \\($p)  \\(.value.operationId)\"'"},
  ]

  static override flags = {
    output: Flags.string({char: 'o', description: 'Write the document to this file instead of stdout.'}),
  }

  async run(): Promise<Record<string, unknown> | SpecWritten> {
    return apiSpec(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw api spec` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ApiSpecOptions {
  output?: string
}

export async function apiSpec(ctx: Context, o: ApiSpecOptions): Promise<Record<string, unknown> | SpecWritten> {
  const doc = await (await specClient(ctx)).openapi()
  const text = JSON.stringify(doc, null, 2) + '\n'
  if (!o.output) {
    if (!ctx.json) ctx.io.stdout.write(text)
    return doc
  }
  try {
    writeFileSync(o.output, text)
  } catch (error) {
    throw new UsageError(`Cannot write --output ${o.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`)
  }
  const info = (doc.info ?? {}) as {title?: string; version?: string}
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown>>
  const operations = Object.values(paths).reduce((n, item) => n + Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)).length, 0)
  const written: SpecWritten = {output: o.output, bytes: Buffer.byteLength(text), openapi: String(doc.openapi ?? ''), title: info.title ?? '', version: info.version ?? '', operations}
  ctx.notice(`Wrote ${o.output}: OpenAPI ${written.openapi}, ${written.title} ${written.version}, ${operations} operations.`)
  return written
}

/** The profile's client; without an API key, one for its base URL alone (the document is public). */
async function specClient(ctx: Context): Promise<GwClient> {
  try {
    return await ctx.client()
  } catch (error) {
    if (!(error instanceof AuthError)) throw error
    const s = ctx.settings()
    if (!s.baseUrl.value) throw error
    const baseUrl = ctx.checkBaseUrl(s.baseUrl.value, s.baseUrl.source)
    const {existsSync, readFileSync} = await import('node:fs')
    const ca = s.caFile.value && existsSync(s.caFile.value) ? readFileSync(s.caFile.value) : undefined
    return ctx.makeClient({baseUrl, apiKey: '', ca})
  }
}
