// The metrics written on every request (a counter and two histograms) as plain numbers, put in
// the Prometheus exposition format only when scraped. prom-client converts, validates and hashes
// the labels on every observe, even of a child made once: about 1% of a payment's CPU at the
// bench's rate, for figures nobody reads between scrapes.

/** A label value as the exposition format quotes it. */
const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`
const labelText = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(',')
/** A number as the format writes it (+Inf for an infinite bound). */
const num = (n: number) => (n === Infinity ? '+Inf' : String(n))
const braces = (labels: string) => (labels ? `{${labels}}` : '')

abstract class Family<S> {
  protected readonly series = new Map<string, {labels: string; s: S}>()
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly type: 'counter' | 'histogram',
  ) {}

  /** The series of a combination of labels, by a key the caller makes of their values. */
  protected at(key: string, labels: () => Record<string, string>): S {
    let e = this.series.get(key)
    if (!e) this.series.set(key, (e = {labels: labelText(labels()), s: this.fresh()}))
    return e.s
  }

  protected abstract fresh(): S
  protected abstract lines(name: string, labels: string, s: S, out: string[]): void

  /** The family in the exposition format, each series with the registry's default labels first. */
  text(defaults: Record<string, string>): string {
    const d = labelText(defaults)
    const out = [`# HELP ${this.name} ${this.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${this.name} ${this.type}`]
    for (const {labels, s} of this.series.values()) this.lines(this.name, [d, labels].filter(Boolean).join(','), s, out)
    return out.join('\n') + '\n'
  }
}

export class CounterFamily extends Family<{value: number}> {
  constructor(name: string, help: string) {
    super(name, help, 'counter')
  }
  protected fresh() {
    return {value: 0}
  }
  inc(key: string, labels: () => Record<string, string>, by = 1): void {
    this.at(key, labels).value += by
  }
  protected lines(name: string, labels: string, s: {value: number}, out: string[]): void {
    out.push(`${name}${braces(labels)} ${num(s.value)}`)
  }
}

type HistogramSeries = {buckets: number[]; sum: number; count: number}

export class HistogramFamily extends Family<HistogramSeries> {
  private readonly bounds: number[]
  constructor(name: string, help: string, bounds: readonly number[]) {
    super(name, help, 'histogram')
    this.bounds = [...bounds].sort((a, b) => a - b)
  }
  protected fresh(): HistogramSeries {
    return {buckets: new Array<number>(this.bounds.length).fill(0), sum: 0, count: 0}
  }
  observe(key: string, labels: () => Record<string, string>, value: number): void {
    if (!Number.isFinite(value)) return
    const s = this.at(key, labels)
    s.sum += value
    s.count++
    const b = this.bounds
    for (let i = 0; i < b.length; i++)
      if (value <= b[i]!) {
        s.buckets[i]!++
        break
      }
  }
  protected lines(name: string, labels: string, s: HistogramSeries, out: string[]): void {
    const sep = labels ? ',' : ''
    let cumulative = 0
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += s.buckets[i]!
      out.push(`${name}_bucket{${labels}${sep}le="${num(this.bounds[i]!)}"} ${cumulative}`)
    }
    out.push(`${name}_bucket{${labels}${sep}le="+Inf"} ${s.count}`, `${name}_sum${braces(labels)} ${num(s.sum)}`, `${name}_count${braces(labels)} ${s.count}`)
  }
}
