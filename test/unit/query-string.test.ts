import { describe, expect, it } from 'vitest';
import { canonicalQueryString, InvalidQueryError } from '../../src/upstream/query.js';

describe('canonicalQueryString', () => {
  it('is empty for no query', () => {
    expect(canonicalQueryString(undefined)).toBe('');
    expect(canonicalQueryString(null)).toBe('');
    expect(canonicalQueryString({})).toBe('');
  });

  it('sorts keys and writes scalars as text', () => {
    expect(canonicalQueryString({ b: 2, a: 'x', c: true })).toBe('a=x&b=2&c=true');
    expect(canonicalQueryString({ c: true, a: 'x', b: 2 })).toBe(canonicalQueryString({ a: 'x', b: 2, c: true }));
  });

  it('writes an array as a repeated key, in the given order', () => {
    expect(canonicalQueryString({ year: ['2566', 2565] })).toBe('year=2566&year=2565');
  });

  it('encodes Thai text and reserved characters', () => {
    const text = canonicalQueryString({ ชื่อ: 'กรุงเทพ & ปริมณฑล' });
    expect(new URLSearchParams(text).get('ชื่อ')).toBe('กรุงเทพ & ปริมณฑล');
  });

  it.each([
    [{ a: { nested: 1 } }, 'query.a must be a string, number or boolean, or an array of them; got an object'],
    [{ a: null }, 'got null'],
    [{ a: [1, [2]] }, 'got a nested array'],
    [{ a: [null] }, 'got null'],
  ])('refuses %j', (query, message) => {
    expect(() => canonicalQueryString(query)).toThrow(InvalidQueryError);
    expect(() => canonicalQueryString(query)).toThrow(message);
  });
});
