import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import {describe, expect, it} from 'vitest'
import {CounterFamily, HistogramFamily} from './metric-families.js'

describe('metric families written at scrape time', () => {
  it('a counter and a histogram read back as Prometheus parses them: cumulative buckets, +Inf, sum and count, labels escaped', () => {
    const c = new CounterFamily('t_requests_total', 'Requests.')
    const h = new HistogramFamily('t_seconds', 'Latency.', [0.1, 0.01, 1])
    const odd = 'a"b\\c\nd'
    c.inc('x', () => ({operation: odd}))
    c.inc('x', () => ({operation: odd}), 2)
    for (const v of [0.005, 0.05, 0.5, 5, Number.NaN]) h.observe('', () => ({}), v)
    const text = c.text({instance: 'i1'}) + h.text({instance: 'i1'})
    const families = parsePrometheusTextFormat(text)
    const counter = families.find((f) => f.name === 't_requests_total')!
    expect(counter.type).toBe('COUNTER')
    expect(counter.metrics).toEqual([{labels: {instance: 'i1', operation: odd}, value: '3'}])
    const hist = families.find((f) => f.name === 't_seconds')!
    expect(hist.type).toBe('HISTOGRAM')
    expect(hist.metrics[0]!.buckets).toEqual({'0.01': '1', '0.1': '2', '1': '3', '+Inf': '4'})
    // (this parser drops a labelled histogram's sum and count: read from the lines)
    expect(text).toContain('t_seconds_count{instance="i1"} 4\n')
    expect(Number(/^t_seconds_sum\{instance="i1"\} (\S+)$/m.exec(text)![1])).toBeCloseTo(5.555, 9)
  })
})
