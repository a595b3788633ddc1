// The vocabulary of API keys (issue 24), shared by the engine and the CLI: what a restricted key
// can be given, one resource each, `read` or `write` (write includes read).
export const KEY_RESOURCES = [
  'payments',
  'refunds',
  'disputes',
  'customers',
  'payment_methods',
  'webhooks',
  'events',
  'routing',
  'merchants',
  'settlement',
  'request_logs',
  'test_helpers',
  'accounts',
] as const
export type KeyResource = (typeof KEY_RESOURCES)[number]
export const KEY_LEVELS = ['read', 'write'] as const
