/** Id generation: `prefix_` + random url-safe characters. */
export interface Ids {
  next(prefix: string): string
}
