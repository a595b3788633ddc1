// Exit codes: the classes live in src/errors.ts (a leaf every layer may import); the mapping
// of API and network errors to codes lives in src/output/errors.ts beside their rendering.
export {ExitCode, GwError, UsageError, AuthError, AbortedError, type ExitCodeValue} from '../errors.js'
export {exitCodeFor, exitCodeForApiError} from '../output/errors.js'
