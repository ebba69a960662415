import { describe, expect, it } from 'vitest';
import { useStack } from '../helpers/stack.js';

/** The JSON parts of a multipart/mixed body (GraphQL incremental delivery). */
function parts(body: string, contentType: string): unknown[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1] ?? '-';
  return body
    .split(`--${boundary}`)
    .map((part) => part.split('\r\n\r\n').slice(1).join('\r\n\r\n').trim())
    .filter((json) => json.startsWith('{'))
    .map((json) => JSON.parse(json) as unknown);
}

describe('@defer and @stream', () => {
  const stack = useStack();

  it('sends the catalogue at once and the deferred payload in a later part', async () => {
    const response = await stack().post(
      {
        query: `query Deferred {
          datasets(group: TEACHERS) { code }
          ... @defer(label: "payload") { dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload(query: { ACADEMIC_YEAR: "2566" }) } }
        }`,
      },
      { accept: 'multipart/mixed' },
    );
    const contentType = response.headers.get('content-type') ?? '';
    expect(contentType).toContain('multipart/mixed');
    const [first, second] = parts(await response.text(), contentType) as [
      { data: { datasets: unknown[]; dataset?: unknown }; hasNext: boolean },
      { incremental: { label: string; data: { dataset: { payload: { data: unknown[] } } } }[]; hasNext: boolean },
    ];
    expect(first.data.datasets.length).toBeGreaterThan(0);
    expect(first.data.dataset).toBeUndefined();
    expect(first.hasNext).toBe(true);
    expect(second.incremental[0]?.label).toBe('payload');
    expect(second.incremental[0]?.data.dataset.payload.data).toHaveLength(1);
    expect(second.hasNext).toBe(false);
  });

  it('streams a list item by item after the first', async () => {
    const response = await stack().post(
      { query: '{ datasets @stream(initialCount: 1) { no } }' },
      { accept: 'multipart/mixed' },
    );
    const all = parts(await response.text(), response.headers.get('content-type') ?? '') as {
      data?: { datasets: unknown[] };
      incremental?: { items: unknown[] }[];
    }[];
    expect(all[0]?.data?.datasets).toEqual([{ no: 1 }]);
    const streamed = all
      .slice(1)
      .flatMap((part) => part.incremental ?? [])
      .flatMap((increment) => increment.items);
    expect(streamed).toHaveLength(12);
  });
});
