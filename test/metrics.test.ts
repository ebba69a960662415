import { describe, expect, it } from 'vitest';
import { useStack } from './helpers/stack.js';

/** Prometheus text exposition → sample lines as { name, labels, value }; throws on a line it cannot read. */
function parsePrometheus(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      // Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case).
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|nan|[+-]?inf)$/i.exec(line);
      if (match === null) throw new Error(`not Prometheus text: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
      return { name: match[1] ?? '', labels, value: Number(match[3]) };
    });
}

describe('/metrics', () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 } });

  async function scrape() {
    const response = await stack().app.fetch('http://localhost/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const samples = parsePrometheus(await response.text());
    return (name: string, labels: Record<string, string> = {}): number =>
      samples
        .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
        .reduce((sum, sample) => sum + sample.value, 0);
  }

  it('parses as Prometheus text and moves when traffic flows', async () => {
    const before = await scrape();
    const query = 'query Teachers { dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }';
    await stack().post({ query });
    await stack().post({ query });
    await stack().post({ query: '{ summaryEndpoint(id: 83) { payload } }' });
    const after = await scrape();

    expect(after('graphql_envelop_request', { operationName: 'Teachers' }) - before('graphql_envelop_request', { operationName: 'Teachers' })).toBe(2);
    expect(after('graphql_envelop_request_duration_count', { operationName: 'Teachers' })).toBeGreaterThanOrEqual(2);
    expect(after('graphql_envelop_error_result', { code: 'USE_NOT_APPROVED' })).toBe(1);
    expect(after('upstream_calls_total', { target: 'ODS_COUNT_TEACHER_BY_YEAR', outcome: 'ok', status: '200' })).toBe(1);
    expect(after('upstream_call_duration_seconds_count', { target: 'ODS_COUNT_TEACHER_BY_YEAR' })).toBe(1);
    expect(after('upstream_cache_reads_total', { kind: 'dataset', result: 'miss' })).toBe(1);
    expect(after('upstream_cache_reads_total', { kind: 'dataset', result: 'hit' })).toBe(1);
    expect(after('upstream_breaker_state', { state: 'closed' })).toBe(1);
    expect(after('rate_limited_total')).toBe(0);
  });
});
