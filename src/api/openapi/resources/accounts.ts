// Accounts that share one engine without seeing each other, and their API keys (docs/decisions.md#accounts).
import {body, deleted, en, idOf, int, livemode, metadata, nullable, obj, q, str, dateTime, type Family, type Schema} from '../kit.js'

const accountProps: Record<string, Schema> = {
  id: idOf('acct'),
  object: {type: 'string', const: 'account'},
  name: nullable(str()),
  metadata,
  livemode,
  created_at: dateTime('Wall-clock time.'),
}
const apiKeyProps: Record<string, Schema> = {
  id: idOf('key'),
  object: {type: 'string', const: 'api_key'},
  type: {type: 'string', enum: ['secret', 'restricted', 'publishable']},
  name: nullable(str()),
  redacted: str({pattern: '^(sk|rk|pk)_test_…', description: 'The prefix and last four characters; the key itself is returned only when it is made.'}),
  permissions: nullable({type: 'array', items: str({pattern: '^[a-z_]+:(read|write)$'}), description: 'A restricted key\'s permissions (write includes read); null for secret and publishable keys.'}),
  status: {type: 'string', enum: ['active', 'revoked']},
  expires_at: nullable(dateTime('Wall-clock time after which the key stops working (a rolled key\'s old secret).')),
  last_used_at: nullable(dateTime('Wall-clock time of the last use, to the minute.')),
  revoked_at: nullable(dateTime()),
  livemode,
  created_at: dateTime('Wall-clock time.'),
}

export const family: Family = {
  responses: () => ({
    Account: obj(accountProps, {description: 'An account: a complete, independent gateway sharing the engine.'}),
    AccountWithKeys: obj(
      {
        ...accountProps,
        secret_key: str({pattern: '^sk_test_', description: "The new account's secret key, returned only here (an idempotent replay shows it redacted, `sk_test_…wXyZ`: it is stored nowhere)."}),
        publishable_key: str({pattern: '^pk_test_', description: "The new account's publishable key, returned only here (redacted in an idempotent replay)."}),
      },
      {description: 'A new account with its keys (shown once).'},
    ),
    DeletedAccount: deleted('acct', 'account'),
    ApiKey: obj(apiKeyProps, {description: 'An API key, without its secret.'}),
    ApiKeyWithSecret: obj({...apiKeyProps, secret: str({pattern: '^(sk|rk|pk)_test_([0-9A-Za-z]+|…[0-9A-Za-z]{4})$', description: 'The key itself, returned only here (an idempotent replay shows it redacted, `sk_test_…wXyZ`: it is stored nowhere).'})}, {description: 'A new API key with its secret (shown once).'}),
  }),
  requests: () => ({
    AccountFields: body({name: nullable(str({maxLength: 200})), metadata: metadata}),
    ApiKeyCreate: body({
      type: str({enum: ['restricted', 'secret', 'publishable'], description: 'restricted (the default) needs permissions.'}),
      name: str({maxLength: 200}),
      permissions: {
        type: 'array',
        maxItems: 64,
        items: {type: 'string', maxLength: 64},
        description: 'For restricted keys: resource:read or resource:write (write includes read), or *:read / *:write. Resources: payments, refunds, disputes, customers, payment_methods, webhooks, events, routing, merchants, settlement, request_logs, test_helpers (and accounts on the engine\'s own account).',
      },
    }),
    ApiKeyRoll: body({expires_in: {...int(0, 7 * 86_400, 'in seconds, 0 to 604800 (7 days)'), description: 'How long the old key keeps working (wall clock); default 86400 (24 h), 0: at once.'}}),
  }),
  lists: ['Account', 'ApiKey'],
  operations: [
    {id: 'retrieveCurrentAccount', method: 'get', path: '/account', tag: 'Accounts', summary: 'Retrieve the account of the key in use', perm: 'none', response: 'Account', responseDescription: 'The account.'},
    {id: 'listAccounts', method: 'get', path: '/accounts', tag: 'Accounts', summary: 'List accounts', list: true, perm: 'accounts:read',
      description: "Every account of the engine, the engine's own (acct_default) included. Keys of the engine's own account only.", response: 'AccountList', responseDescription: 'A page of accounts, newest first.'},
    {id: 'createAccount', method: 'post', path: '/accounts', tag: 'Accounts', summary: 'Create an account', body: 'AccountFields', status: 201, perm: 'accounts:write',
      description: 'A complete, independent gateway: its own objects, events, webhook endpoints, keys, rate limit and test clock. Returns its secret and publishable keys, once.',
      response: 'AccountWithKeys', responseDescription: 'The account with its keys.'},
    {id: 'retrieveAccount', method: 'get', path: '/accounts/{id}', tag: 'Accounts', summary: 'Retrieve an account', perm: 'accounts:read', response: 'Account', responseDescription: 'The account.', errors: [404]},
    {id: 'updateAccount', method: 'post', path: '/accounts/{id}', tag: 'Accounts', summary: 'Update an account', body: 'AccountFields', perm: 'accounts:write', description: 'Sets the name; metadata is merged.', response: 'Account', responseDescription: 'The updated account.', errors: [404]},
    {id: 'deleteAccount', method: 'delete', path: '/accounts/{id}', tag: 'Accounts', summary: 'Delete an account and all of its data', perm: 'accounts:write',
      description: "Deletes the account and every object, event, delivery, key and job of it, in one commit; its keys stop working at once. The engine's own account cannot be deleted (400 account_not_deletable).",
      response: 'DeletedAccount', responseDescription: 'The deleted account id.', errors: [404]},
    {id: 'listApiKeys', method: 'get', path: '/api_keys', tag: 'API keys', summary: "List the account's API keys", list: true, perm: 'api_keys:read',
      query: [q('type', en(['secret', 'restricted', 'publishable']), 'Only keys of this type.')], description: 'Keys are shown redacted (prefix and last four characters), with their last use.', response: 'ApiKeyList', responseDescription: 'A page of keys, newest first.'},
    {id: 'createApiKey', method: 'post', path: '/api_keys', tag: 'API keys', summary: 'Create an API key', body: 'ApiKeyCreate', bodyRequired: true, status: 201, perm: 'api_keys:write',
      description: 'A restricted key (the default: permissions required), a secret key or a publishable key. The key itself is returned here only.', response: 'ApiKeyWithSecret', responseDescription: 'The key with its secret.'},
    {id: 'retrieveCurrentApiKey', method: 'get', path: '/api_keys/self', tag: 'API keys', summary: 'Retrieve the key in use', perm: 'none', response: 'ApiKey', responseDescription: 'The key that made this request.'},
    {id: 'retrieveApiKey', method: 'get', path: '/api_keys/{id}', tag: 'API keys', summary: 'Retrieve an API key', perm: 'api_keys:read', response: 'ApiKey', responseDescription: 'The key (redacted).', errors: [404]},
    {id: 'rollApiKey', method: 'post', path: '/api_keys/{id}/roll', tag: 'API keys', summary: 'Roll an API key', body: 'ApiKeyRoll', perm: 'api_keys:write',
      description: 'A new key with the same type, name and permissions; the old one keeps working until `expires_in` seconds from now (wall clock; default 24 h).', response: 'ApiKeyWithSecret', responseDescription: 'The new key with its secret.', errors: [404]},
    {id: 'revokeApiKey', method: 'post', path: '/api_keys/{id}/revoke', tag: 'API keys', summary: 'Revoke an API key', body: 'Empty', perm: 'api_keys:write',
      description: 'The key stops working at once, on every instance (401 api_key_revoked).', response: 'ApiKey', responseDescription: 'The revoked key.', errors: [404]},
  ],
}
