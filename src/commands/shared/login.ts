// `gw login`'s work: a profile's base URL, CA and key, checked and saved; the command (../login.ts)
// keeps the flags.
import {existsSync, readFileSync} from 'node:fs'
import {isAbsolute, resolve} from 'node:path'
import type {Context} from '../../base/context.js'
import {ApiError, NetworkError} from '../../client/errors.js'
import {keyMode, keyType} from '../../config/redact.js'
import {redactSecret} from '../../api/keys.js'
import {ENV} from '../../config/resolve.js'
import {validProfileName, type KeyStorage} from '../../config/store.js'
import {AuthError, GwError, UsageError} from '../../errors.js'
import {defaultDataDir, localEnginePaths, readLocalEngineInfo} from '../../local-engine.js'

export interface LoginResult {
  profile: string
  base_url: string
  mode: 'test' | 'live'
  api_key: string
  /** secret (sk_) or restricted (rk_) */
  key_type: 'secret' | 'restricted'
  /** a restricted key's permissions, as the API said them (null: a secret key, or not checked) */
  permissions: string[] | null
  key_storage: KeyStorage
  ca_file: string | null
  verified: boolean
  /** whether the profile is now the default (a live one only when asked and confirmed, or with --default) */
  default: boolean
}

/** What `gw login` takes besides the global flags (--profile, --base-url, --ca-file, --api-key come through the Context). */
export interface LoginOptions {
  local?: boolean
  'data-dir'?: string
  'insecure-storage'?: boolean
  default?: boolean
  'skip-key-check'?: boolean
}

/**
 * Reads the key (a hidden prompt, stdin, or the local engine's data dir), checks it against the
 * API, stores it (keychain, else a 0600 file) and the profile, and says whether the profile is
 * now the default. Secret and restricted keys, test and live (a support agent gets a
 * restricted key); --local takes the base URL and CA from the engine's data dir and its key only
 * when none was given (--api-key, GW_API_KEY, stdin).
 */
export async function login(ctx: Context, flags: LoginOptions): Promise<LoginResult> {
  const f = flags
  const explicit = ctx.explicitFlags()
  const profile = explicit.profile ?? process.env[ENV.profile] ?? (f.local ? 'local' : 'default')
  if (!validProfileName(profile)) {
    throw new UsageError(`"${profile}" is not a valid profile name.`, 'Use letters, digits, dot, dash and underscore, e.g. --profile staging.')
  }

  let baseUrl: string
  let key: string
  let caFile: string | undefined
  let dataDir: string | undefined
  if (f.local) {
    dataDir = resolve(f['data-dir'] ?? defaultDataDir())
    let info
    try {
      info = readLocalEngineInfo(dataDir)
    } catch (error) {
      throw new GwError((error as Error).message, {hint: 'Then run `gw login --local` again (GW_DATA_DIR or --data-dir if the engine uses another data dir).'})
    }
    const paths = localEnginePaths(dataDir)
    baseUrl = info.base_url
    // null: the engine serves a certificate of a public CA (gw serve --tls-cert without --tls-ca): the system's trust store
    caFile = info.ca_file === null ? undefined : info.ca_file ? (isAbsolute(info.ca_file) ? info.ca_file : resolve(dataDir, info.ca_file)) : paths.caCert
    // a key given (--api-key, GW_API_KEY, stdin) is the one saved: the engine's own key only when none was
    const given = await givenKey(ctx)
    if (given !== undefined) key = given
    else {
      const keyFile = info.secret_key_file ? (isAbsolute(info.secret_key_file) ? info.secret_key_file : resolve(dataDir, info.secret_key_file)) : paths.secretKey
      try {
        key = readFileSync(keyFile, 'utf8').trim()
      } catch {
        throw new GwError(`Cannot read the engine's key file ${keyFile}.`, {hint: 'Start the engine once with `gw serve`; it creates the key.'})
      }
    }
    if (caFile !== undefined && !existsSync(caFile)) throw new GwError(`The engine's CA certificate ${caFile} is missing.`, {hint: 'Start the engine once with `gw serve`; it creates the CA.'})
  } else {
    const s = ctx.settings()
    let url = explicit.baseUrl ?? process.env[ENV.baseUrl] ?? ctx.configStore.profile(profile)?.base_url
    if (!url) {
      if (!ctx.interactive()) {
        throw new UsageError('gw login needs the API base URL.', 'Pass --base-url https://HOST/v1, or use --local for the engine started by `gw serve`.')
      }
      url = (await ctx.prompt('API base URL (https://HOST/v1): ', {hidden: false})).trim()
    }
    baseUrl = url
    caFile = explicit.caFile ?? process.env[ENV.caFile] ?? (s.profile.value === profile ? s.caFile.value : undefined)
    const given = await givenKey(ctx)
    if (given !== undefined) key = given
    else {
      if (!ctx.interactive()) {
        throw new UsageError('No API key given and no terminal to ask for one.', 'Pipe it in with --api-key - (e.g. `pass show gw | gw login --base-url URL --api-key -`) or set GW_API_KEY.')
      }
      key = (await ctx.prompt('API key (input hidden): ', {hidden: true})).trim()
    }
  }
  ctx.rememberSecret(key)
  baseUrl = ctx.checkBaseUrl(baseUrl, f.local ? 'the engine data dir' : '--base-url')
  const mode = keyMode(key)
  const type = keyType(key)
  if (mode === 'unknown' || type === undefined) {
    throw new UsageError(
      key.startsWith('pk_')
        ? 'That is a publishable key (pk_...), for browsers only; the CLI needs a secret key (sk_test_..., sk_live_...) or a restricted key (rk_test_..., rk_live_...).'
        : 'That does not look like an API key: it should start with sk_test_ or sk_live_ (a secret key), or rk_test_ or rk_live_ (a restricted key).',
      'Copy the key from whoever manages the account (`gw keys create` makes restricted keys), or use `gw login --local` for the local engine.',
    )
  }
  if (caFile && !existsSync(caFile)) throw new UsageError(`The CA file ${caFile} does not exist.`)

  let verified = false
  let permissions: string[] | null = null
  if (!f['skip-key-check']) {
    const client = ctx.makeClient({baseUrl, apiKey: key, ca: caFile ? readFileSync(caFile) : undefined})
    try {
      permissions = await checkKey(client)
      verified = true
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        throw new AuthError(`The API at ${baseUrl} rejected this key: ${error.message} (request_id ${error.requestId ?? 'none'})`, 'Nothing was saved. Check the key and try again.')
      }
      if (error instanceof NetworkError && f.local && !error.isTls) {
        ctx.notice(ctx.errColor.yellow(`! The local engine at ${baseUrl} is not answering right now (${error.code}); saving the profile anyway. Start it with \`gw serve\`.`))
      } else {
        ctx.notice('Nothing was saved. Fix the problem below, or save without checking with --skip-key-check.')
        throw error
      }
    }
  }

  const storage = await ctx.credentials.save(profile, key, {insecureStorage: f['insecure-storage']})
  const store = ctx.configStore
  store.updateProfile(profile, {base_url: baseUrl, ca_file: caFile, key_storage: storage, data_dir: dataDir})
  const previous = store.read().default_profile
  const makeDefault = await shouldBecomeDefault(ctx, f.default, mode, profile, previous)
  if (makeDefault) store.setDefaultProfile(profile)

  const where = storage === 'keyring' ? 'the OS keychain' : 'the credentials file'
  const c = ctx.color
  ctx.print(`${c.green('✓')} Logged in to ${baseUrl} as profile "${profile}" (${mode === 'live' ? c.red('live') : 'test'} mode, ${type} key ${redactSecret(key)} in ${where}).`)
  if (permissions) ctx.print(`  It may: ${permissions.join(', ') || 'nothing (no permission)'}. Anything else is refused (403, exit 3).`)
  const unchecked = verified ? '' : ' The key was not checked.'
  if (makeDefault || previous === profile) ctx.print(`  "${profile}" is ${previous === profile ? 'still' : 'now'} the default profile.${unchecked}`)
  else {
    ctx.print(`  "${profile}" is not the default profile${previous ? ` ("${previous}" still is)` : ''}: use it with --profile ${profile}.${unchecked}`)
    if (mode === 'live') ctx.notice(ctx.errColor.dim(`To make it the default anyway: gw config set default_profile ${profile}`))
  }
  return {profile, base_url: baseUrl, mode, api_key: redactSecret(key), key_type: type, permissions, key_storage: storage, ca_file: caFile ?? null, verified, default: makeDefault || previous === profile}
}

/** The key given on the command line, in GW_API_KEY or on stdin (`--api-key -`); undefined when none was. */
async function givenKey(ctx: Context): Promise<string | undefined> {
  const given = await ctx.apiKey()
  if (given.value && (given.source === 'flag' || given.source === 'env' || given.source === 'stdin')) return given.value.trim()
  if (given.source === 'stdin') throw new UsageError('--api-key - read an empty stdin.', 'Pipe the key in: printf %s "$KEY" | gw login --api-key -')
  return undefined
}

/**
 * Checks the key against the API: GET /api_keys/self, which any secret or restricted key may call
 * (a restricted key may lack payments:read), answering its permissions (null for a secret key); a
 * server without it (404: older than keys) is asked for a page of payments instead.
 */
async function checkKey(client: ReturnType<Context['makeClient']>): Promise<string[] | null> {
  try {
    const self = await client.apiKeys.self()
    return self.type === 'restricted' ? (self.permissions ?? []) : null
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error
  }
  await client.payments.list({limit: 1})
  return null
}

/**
 * Whether the new profile becomes the default: --default / --no-default say so; otherwise a test
 * profile does, and a live one only when the user says yes on a terminal (a
 * live key never becomes what every command without --profile uses behind anyone's back).
 */
async function shouldBecomeDefault(ctx: Context, asked: boolean | undefined, mode: 'test' | 'live', profile: string, previous: string | undefined): Promise<boolean> {
  if (asked !== undefined) return asked
  if (mode !== 'live') return true
  if (previous === profile) return true
  if (!ctx.interactive()) return false
  const c = ctx.errColor
  const answer = await ctx.prompt(`${c.bgRed(c.bold(' LIVE '))} Make "${profile}" (a live key) the default profile? Every gw command without --profile would then act on real money. [y/N] `, {hidden: false})
  return /^y(es)?$/i.test(answer.trim())
}
