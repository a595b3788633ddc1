// The dialect the document's schemas are written in, as a checker of them: JSON Schema 2020-12
// with ajv-formats' formats, string lengths in UTF-16 code units. What checks a schema of the
// document against a value uses one of these: the engine's request validator
// (engine/http/openapi-validate.ts) and the check of stored rows (engine/core/stored-rows.ts).
import {Ajv2020} from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, formats?: string[]) => Ajv2020

/** An ajv of the document's rules (formats, string lengths); `options` changes how it compiles (stored-rows.ts: the first error only, references not inlined). */
export function newAjv(options: {allErrors?: boolean; inlineRefs?: boolean; validateSchema?: boolean; optimize?: boolean} = {}): Ajv2020 {
  // strict: false — the document's own x- keywords (x-hint, x-messages) are annotations here;
  // unicode: false — string lengths in UTF-16 code units, as JavaScript's .length (the engine's rule)
  // (ajv still honours `unicode: false` and warns that it is deprecated: that one warning is dropped)
  const logger = {log: console.log, error: console.error, warn: (...args: unknown[]) => void (/option unicode/.test(String(args[0])) || console.warn(...args))}
  const {optimize, ...rest} = options
  const a = new Ajv2020({strict: false, allErrors: true, unicode: false, logger, code: {source: true, esm: true, ...(optimize === false ? {optimize: false} : {})}, ...rest})
  addFormats(a)
  return a
}
