// "Did you mean": the closest candidates to a misspelt word. A leaf module, shared by flag
// parsing, error rendering and the not-found hook.

/** The closest candidates to a misspelt word (edit distance), best first. */
export function closest(word: string, candidates: readonly string[], max = 3): string[] {
  const w = word.toLowerCase()
  return candidates
    .map((c) => ({c, d: distance(w, c.toLowerCase())}))
    .filter(({c, d}) => d <= Math.max(2, Math.floor(c.length / 3)) || (w.length >= 3 && c.toLowerCase().startsWith(w)))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map(({c}) => c)
}

/** Levenshtein distance with adjacent transpositions counted as one edit ("paymnets"). */
export function distance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[][] = Array.from({length: rows}, (_, i) => Array.from({length: cols}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
    }
  }
  return d[a.length]![b.length]!
}
