// The one gate in front of every Ink view: a TTY, not CI, not --json. Ink and React are
// imported only behind it.

export function isCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const truthy = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false'
  return truthy(env.CI) || truthy(env.CONTINUOUS_INTEGRATION) || truthy(env.GITHUB_ACTIONS) || truthy(env.BUILDKITE) || truthy(env.GITLAB_CI)
}

export function canRenderInk(opts: {json: boolean; stream?: {isTTY?: boolean; columns?: number; rows?: number}; env?: NodeJS.ProcessEnv}): boolean {
  const stream = opts.stream ?? process.stderr
  // a terminal that reports no size (some pseudo-terminals) cannot lay out a view
  const sized = (stream.columns ?? 0) > 0 && (stream.rows ?? 0) > 0
  return stream.isTTY === true && sized && !opts.json && !isCI(opts.env ?? process.env)
}
