/** Time source of the engine. Domain code never calls Date.now(); it is handed `now`. */
export interface Clock {
  now(): Date
}
