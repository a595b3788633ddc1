/** Id generation: `prefix_` + url-safe characters, unguessable; the engine's sort by creation time. */
export interface Ids {
  next(prefix: string): string
}
