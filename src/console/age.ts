// How old what a view shows is, as its labels say it ("updated just now", "12s ago").

/**
 * The age of data a view reads again every `every` ms, as its "updated …" label says it: "just
 * now" while the polls keep it fresh (the last one at most `every` and 2 s of a request's time
 * ago), else its age (ageText): "12s ago" once a poll is late or failed. A label that counted the
 * seconds between polls would redraw the console every second with nothing new.
 */
export function ageShown(atMs: number | undefined, nowMs: number | undefined, every: number | undefined): string {
  if (atMs !== undefined && nowMs !== undefined && every !== undefined && nowMs - atMs < every + 2000) return 'just now'
  return ageText(atMs, nowMs ?? 0)
}

/** "just now", "12s ago", "3m ago": how old what is shown is. */
export function ageText(atMs: number | undefined, nowMs: number): string {
  if (atMs === undefined) return 'not read yet'
  const s = Math.max(0, Math.round((nowMs - atMs) / 1000))
  if (s < 2) return 'just now'
  if (s < 60) return `${s}s ago`
  if (s < 3600) return `${Math.floor(s / 60)}m ago`
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m ago`
}
