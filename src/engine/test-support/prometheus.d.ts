declare module 'parse-prometheus-text-format' {
  /** A metric family of the Prometheus text format, as the parser gives it. */
  export interface MetricFamily {
    name: string
    help: string
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
    metrics: {value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string; sum?: string}[]
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[]
}
