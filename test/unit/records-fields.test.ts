import { describe, expect, it } from 'vitest';
import { recordsView, type RecordField } from '../../src/records/index.js';

function fieldsOf(payload: unknown): Map<string, RecordField> {
  return new Map(
    recordsView(payload, 'v1')
      .fields()
      .map((field) => [field.name, field]),
  );
}

function field(payload: unknown, name: string): RecordField {
  const found = fieldsOf(payload).get(name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
}

describe('field inference', () => {
  const mixed = [
    { CODE: '10', NAME: 'กรุงเทพมหานคร', COUNT: 5, RATE: '1.5', FLAG: true, NOTE: null, TAGS: ['a'] },
    { CODE: '0050', NAME: 'เชียงใหม่', COUNT: '7', RATE: 'n/a', FLAG: false, TAGS: [] },
    { CODE: '10', NAME: 'กรุงเทพมหานคร', COUNT: 12, RATE: '-0.25', FLAG: true, NOTE: 'x', EXTRA: { deep: 1 } },
  ];

  it('lists the fields in the order first seen, with their types', () => {
    const fields = recordsView(mixed, 'v1').fields();
    const names = ['CODE', 'NAME', 'COUNT', 'RATE', 'FLAG', 'NOTE', 'TAGS', 'EXTRA', 'EXTRA.deep'];
    expect(fields.map((f) => f.name)).toEqual(names);
    expect(fields.map((f) => f.types)).toEqual([
      ['string'],
      ['string'],
      ['string', 'number'],
      ['string'],
      ['boolean'],
      ['string', 'null'],
      ['array'],
      ['object'],
      ['number'],
    ]);
  });

  it('tells nullable fields: null in a record or missing from one', () => {
    const fields = fieldsOf(mixed);
    expect(fields.get('CODE')?.nullable).toBe(false);
    expect(fields.get('NOTE')?.nullable).toBe(true);
    expect(fields.get('EXTRA.deep')?.nullable).toBe(true);
  });

  it('gives distinct examples, distinct counts and numeric ranges, numeric strings included', () => {
    const code = field(mixed, 'CODE');
    expect(code).toMatchObject({ examples: ['10', '0050'], distinctCount: 2, min: 10, max: 50, numericStrings: true });
    const count = field(mixed, 'COUNT');
    expect(count).toMatchObject({ examples: [5, '7', 12], distinctCount: 3, min: 5, max: 12, numericStrings: true });
    const rate = field(mixed, 'RATE');
    expect(rate).toMatchObject({ min: -0.25, max: 1.5, numericStrings: false });
    expect(field(mixed, 'NAME')).toMatchObject({ distinctCount: 2, min: null, max: null, numericStrings: false });
    expect(field(mixed, 'FLAG').examples).toEqual([true, false]);
    expect(field(mixed, 'TAGS').examples).toEqual([]);
  });

  it('keeps at most five examples', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ N: i }));
    expect(field(many, 'N')).toMatchObject({ examples: [0, 1, 2, 3, 4], distinctCount: 20, min: 0, max: 19 });
  });

  it('reads Thai keys, and does not take text with thousands separators for a number', () => {
    const thai = [
      { ปีการศึกษา: '2566', จำนวน: '1,234', ร้อยละ: '12.5' },
      { ปีการศึกษา: '2567', จำนวน: '987', ร้อยละ: '3' },
    ];
    expect(field(thai, 'ปีการศึกษา')).toMatchObject({ numericStrings: true, min: 2566, max: 2567 });
    expect(field(thai, 'จำนวน')).toMatchObject({ numericStrings: false, min: 987, max: 987 });
    expect(field(thai, 'ร้อยละ')).toMatchObject({ numericStrings: true, min: 3, max: 12.5 });
  });

  it('keeps identifiers longer than fifteen digits as text', () => {
    const ids = [{ ID: '1234567890123456789' }, { ID: '000000000000123' }];
    expect(field(ids, 'ID')).toMatchObject({ numericStrings: false, min: 123, max: 123, distinctCount: 2 });
  });

  it('flattens nested objects with dots, and keeps a key that has a dot of its own', () => {
    const nested = [
      { school: { name: 'ก', place: { province: 'เชียงใหม่' } }, 'a.b': 1 },
      { school: { name: 'ข', place: { province: 'ลำปาง' } }, 'a.b': 2 },
    ];
    const names = recordsView(nested, 'v1')
      .fields()
      .map((f) => f.name);
    expect(names).toEqual(['school', 'a.b', 'school.name', 'school.place', 'school.place.province']);
    expect(field(nested, 'school.place.province').examples).toEqual(['เชียงใหม่', 'ลำปาง']);
  });
});

describe('shape fingerprint', () => {
  const a = { YEAR: '2566', TOTAL: 1 };
  const b = { YEAR: '2567', TOTAL: 2 };

  it('is a short hex hash that does not depend on the records or their order', () => {
    const fingerprint = recordsView([a, b], 'v1').fingerprint();
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(recordsView([b, a], 'v1').fingerprint()).toBe(fingerprint);
    expect(recordsView({ data: [{ TOTAL: 9, YEAR: '2560' }] }, 'v9').fingerprint()).toBe(fingerprint);
  });

  it('changes when a field comes, goes or changes type', () => {
    const fingerprint = recordsView([a, b], 'v1').fingerprint();
    expect(recordsView([a, { ...b, EXTRA: 'x' }], 'v1').fingerprint()).not.toBe(fingerprint);
    expect(recordsView([{ YEAR: '2566' }], 'v1').fingerprint()).not.toBe(fingerprint);
    expect(recordsView([a, { ...b, TOTAL: '2' }], 'v1').fingerprint()).not.toBe(fingerprint);
    expect(recordsView([a, { ...b, TOTAL: null }], 'v1').fingerprint()).not.toBe(fingerprint);
  });
});
