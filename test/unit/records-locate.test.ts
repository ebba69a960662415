import { describe, expect, it } from 'vitest';
import { recordsView } from '../../src/records/index.js';

const rows = [
  { ACADEMIC_YEAR: '2566', TOTAL: 3 },
  { ACADEMIC_YEAR: '2567', TOTAL: 4 },
];

function located(payload: unknown): { path: string; size: number } {
  const view = recordsView(payload, 'v1');
  return { path: view.recordsPath, size: view.size };
}

const notTabular = expect.objectContaining({
  name: 'RecordsError',
  code: 'NOT_TABULAR',
  message: expect.stringMatching(/no records/) as unknown,
}) as unknown;

describe('finding the records', () => {
  it.each([
    ['a bare array of objects', rows, ''],
    ['the upstream envelope', { status: 200, data: rows, total: 2 }, 'data'],
    ['result.items', { ok: true, result: { items: rows, page: 1 } }, 'result.items'],
    ['records', { records: rows }, 'records'],
    ['rows', { meta: {}, rows }, 'rows'],
    ['items', { items: rows }, 'items'],
    ['envelope keys three deep', { data: { result: { items: rows } } }, 'data.result.items'],
    ['an envelope key in capitals', { STATUS: 200, DATA: rows }, 'DATA'],
  ])('finds %s', (_name, payload, path) => {
    expect(located(payload)).toEqual({ path, size: 2 });
  });

  it('prefers a shallow envelope key to a deeper one and to a larger array elsewhere', () => {
    const bigger = [...rows, ...rows, ...rows];
    expect(located({ data: { items: bigger }, records: rows }).path).toBe('records');
    expect(located({ other: bigger, data: rows }).path).toBe('data');
  });

  it('takes an empty array under an envelope key as no records, not as no table', () => {
    expect(located({ status: 200, data: [], total: 0, other: rows })).toEqual({ path: 'data', size: 0 });
    expect(located([])).toEqual({ path: '', size: 0 });
  });

  it('falls back to the largest array of objects within three levels', () => {
    const payload = { meta: { tags: [{ a: 1 }] }, body: { list: { entries: rows } }, numbers: [1, 2, 3, 4] };
    expect(located(payload)).toEqual({ path: 'body.list.entries', size: 2 });
  });

  it('takes the records, not a column list beside them, whatever their sizes', () => {
    const fields = [
      { name: 'ACADEMIC_YEAR', type: 'int' },
      { name: 'TOTAL', type: 'text' },
      { name: 'MALE', type: 'text' },
    ];
    expect(located({ meta: { fields }, payload: rows })).toEqual({ path: 'payload', size: 2 });
    expect(
      located({ fields: fields.map(({ name, type }) => ({ Name: name, DataType: type })), features: rows }).path,
    ).toBe('features');
    expect(located({ meta: { fields }, payload: [rows[0]] })).toEqual({ path: 'payload', size: 1 });
    expect(located({ meta: { fields }, payload: [] })).toEqual({ path: 'payload', size: 0 });
    // Records that happen to have a name and a type are records when nothing else is there.
    expect(located({ meta: { fields } })).toEqual({ path: 'meta.fields', size: 3 });
  });

  it('takes an empty array of objects as no records when nothing else holds any', () => {
    expect(located({ success: true, payload: [] })).toEqual({ path: 'payload', size: 0 });
  });

  it('skips envelope keys that hold no array of objects', () => {
    expect(located({ data: 'none', result: [1, 2], payload: rows }).path).toBe('payload');
  });

  it('does not look deeper than three levels', () => {
    expect(() => recordsView({ a: { b: { c: { d: rows } } } }, 'v1')).toThrow(notTabular);
  });

  it.each([
    ['an object without arrays', { status: 200, message: 'ok' }],
    ['a string', 'not json records'],
    ['a number', 42],
    ['null', null],
    ['an array of numbers', [1, 2, 3]],
    ['an array of objects and numbers', [{ a: 1 }, 2]],
    ['an array of arrays', [[1], [2]]],
  ])('refuses %s as NOT_TABULAR', (_name, payload) => {
    expect(() => recordsView(payload, 'v1')).toThrow(notTabular);
  });
});

describe('memoisation', () => {
  it('gives the same view for the same payload object and version', () => {
    const payload = { data: rows.map((r) => ({ ...r })) };
    const view = recordsView(payload, 'v1');
    expect(recordsView(payload, 'v1')).toBe(view);
    expect(recordsView(payload, 'v2')).not.toBe(view);
    expect(recordsView({ data: payload.data }, 'v1')).not.toBe(view);
  });

  it('keeps derived answers for the payload', () => {
    const view = recordsView({ data: rows.map((r) => ({ ...r })) }, 'v1');
    expect(view.fields()).toBe(view.fields());
    expect(recordsView(rows, 'other').fields()).toBe(recordsView(rows, 'v1').fields());
  });
});
