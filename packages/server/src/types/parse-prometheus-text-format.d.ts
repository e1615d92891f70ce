/** The part of parse-prometheus-text-format 1 (the metrics tests read `/metrics` with it) that the tests use. */
declare module 'parse-prometheus-text-format' {
  /** One sample: a value, or a histogram's buckets (`le` → cumulative count), count and sum; with its labels. */
  export interface PrometheusSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  /** One metric family as prom2json gives it. */
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
