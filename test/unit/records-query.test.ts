import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/json.js';
import {
  MAX_PAGE_SIZE,
  recordsView,
  type RecordFilter,
  type RecordOrder,
  type RecordsPageArgs,
  type RecordsView,
} from '../../src/records/index.js';

const PROVINCES = ['เชียงใหม่', 'กรุงเทพมหานคร', 'ขอนแก่น', 'ภูเก็ต', 'ลำปาง'];

/** 97 records with ids 0..96: numeric strings, Thai text, ties, a field some records lack, nested values. */
function records(): JsonObject[] {
  return Array.from({ length: 97 }, (_, id) => ({
    ID: id,
    YEAR: String(2560 + (id % 8)),
    PROVINCE: PROVINCES[id % PROVINCES.length] ?? '',
    COUNT: id % 3 === 0 ? String(id * 10) : id * 10,
    ...(id % 4 === 0 ? {} : { NOTE: id % 4 === 1 ? null : `note ${id % 7}` }),
    place: { code: `${10 + (id % 5)}` },
    TAGS: id % 2 === 0 ? ['even'] : ['odd'],
  }));
}

const payload = { status: 200, data: records(), total: 97 };
const view = recordsView(payload, 'etag-1');

function ids(connection: { edges: readonly { node: JsonObject }[] }): unknown[] {
  return connection.edges.map((edge) => edge.node.ID);
}

function matching(where: RecordFilter[]): unknown[] {
  return ids(view.page({ where, first: MAX_PAGE_SIZE }));
}

function expected(keep: (record: JsonObject) => boolean): unknown[] {
  return payload.data.filter(keep).map((record) => record.ID);
}

/** What a call that is refused as BAD_USER_INPUT throws. */
function badInput(message: RegExp | string = /./): unknown {
  const text: unknown = typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message);
  return expect.objectContaining({ name: 'RecordsError', code: 'BAD_USER_INPUT', message: text }) as unknown;
}

/** Every page from the start, checking the page info on the way. */
function allPages(target: RecordsView, args: RecordsPageArgs, first: number): JsonObject[] {
  const nodes: JsonObject[] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = target.page({ ...args, first, after });
    expect(page.edges.length).toBeLessThanOrEqual(first);
    expect(page.pageInfo.hasPreviousPage).toBe(false);
    expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
    nodes.push(...page.edges.map((edge) => edge.node));
    if (!page.pageInfo.hasNextPage) {
      expect(nodes).toHaveLength(page.totalCount);
      return nodes;
    }
    after = page.pageInfo.endCursor;
  }
  throw new Error('too many pages');
}

describe('filters', () => {
  it('eq compares numeric strings and numbers as numbers', () => {
    const in2563 = expected((r) => r.YEAR === '2563');
    expect(matching([{ field: 'YEAR', eq: '2563' }])).toEqual(in2563);
    expect(matching([{ field: 'YEAR', eq: 2563 }])).toEqual(in2563);
    expect(matching([{ field: 'COUNT', eq: 30 }])).toEqual([3]);
    expect(matching([{ field: 'COUNT', eq: '40' }])).toEqual([4]);
  });

  it('eq finds Thai text exactly, nested fields by dotted path, and null for null or missing', () => {
    expect(matching([{ field: 'PROVINCE', eq: 'ขอนแก่น' }])).toEqual(expected((r) => r.PROVINCE === 'ขอนแก่น'));
    expect(matching([{ field: 'place.code', eq: '12' }])).toEqual(expected((r) => Number(r.ID) % 5 === 2));
    expect(matching([{ field: 'NOTE', eq: null }])).toEqual(expected((r) => r.NOTE === undefined || r.NOTE === null));
    expect(matching([{ field: 'TAGS', eq: ['odd'] }])).toEqual(expected((r) => Number(r.ID) % 2 === 1));
  });

  it('ne keeps missing values', () => {
    expect(matching([{ field: 'NOTE', ne: 'note 3' }])).toEqual(expected((r) => r.NOTE !== 'note 3'));
    expect(matching([{ field: 'NOTE', ne: null }])).toEqual(expected((r) => typeof r.NOTE === 'string'));
  });

  it('in takes any of a list, by the same equality', () => {
    const early = expected((r) => r.YEAR === '2560' || r.YEAR === '2561');
    expect(matching([{ field: 'YEAR', in: [2560, '2561'] }])).toEqual(early);
    expect(matching([{ field: 'YEAR', in: [] }])).toEqual([]);
  });

  it('contains finds text case-insensitively and items of arrays', () => {
    expect(matching([{ field: 'NOTE', contains: 'NOTE 5' }])).toEqual(expected((r) => r.NOTE === 'note 5'));
    expect(matching([{ field: 'PROVINCE', contains: 'เชียง' }])).toEqual(expected((r) => r.PROVINCE === 'เชียงใหม่'));
    expect(matching([{ field: 'TAGS', contains: 'even' }])).toEqual(expected((r) => Number(r.ID) % 2 === 0));
  });

  it('gte and lte compare numeric strings as numbers, and text in Thai order', () => {
    // As text "980" > "1000"; as numbers it is not.
    expect(matching([{ field: 'COUNT', gte: '900' }])).toEqual(expected((r) => Number(r.COUNT) >= 900));
    expect(matching([{ field: 'COUNT', gte: 100, lte: '200' }])).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(matching([{ field: 'PROVINCE', lte: 'ข' }])).toEqual(expected((r) => r.PROVINCE === 'กรุงเทพมหานคร'));
    expect(matching([{ field: 'NOTE', gte: '' }])).toEqual(expected((r) => typeof r.NOTE === 'string'));
  });

  it('applies several operators of a filter and several filters together', () => {
    const where: RecordFilter[] = [
      { field: 'YEAR', gte: 2562, lte: '2565' },
      { field: 'PROVINCE', in: ['ภูเก็ต', 'ลำปาง'] },
      { field: 'COUNT', ne: 380 },
    ];
    const wanted = expected(
      (r) =>
        Number(r.YEAR) >= 2562 &&
        Number(r.YEAR) <= 2565 &&
        ['ภูเก็ต', 'ลำปาง'].includes(String(r.PROVINCE)) &&
        r.ID !== 38,
    );
    expect(wanted.length).toBeGreaterThan(5);
    expect(matching(where)).toEqual(wanted);
    expect(view.count(where)).toBe(wanted.length);
    expect(view.count([...where].reverse())).toBe(wanted.length);
  });

  it.each([
    ['no operator', { field: 'YEAR' }, /no operator/],
    ['an empty field', { field: '', eq: 1 }, /field name/],
    ['in that is not a list', { field: 'YEAR', in: '2560' }, /must be a list/],
    ['gte on an object', { field: 'YEAR', gte: { year: 1 } }, /string or a number/],
    ['lte on null', { field: 'YEAR', lte: null }, /string or a number/],
    ['contains on a boolean', { field: 'NOTE', contains: true }, /string or a number/],
  ])('refuses %s', (_name, filter, message) => {
    expect(() => view.count([filter as RecordFilter])).toThrow(badInput(message));
  });
});

describe('unknown fields', () => {
  it('refuses a field no record has, listing the known ones', () => {
    for (const run of [
      () => view.count([{ field: 'YAER', eq: '2560' }]),
      () => view.page({ orderBy: [{ field: 'YAER' }] }),
      () => view.page({ select: ['YAER'] }),
      () => view.aggregate({ groupBy: ['YAER'], sum: [] }),
    ]) {
      expect(run).toThrow(badInput(/"YAER".*"ID", "YEAR", "PROVINCE"/));
    }
  });

  it('caps the list of known fields', () => {
    const wide = recordsView([Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`F${i}`, i]))], 'v1');
    expect(() => wide.count([{ field: 'X', eq: 1 }])).toThrow(badInput('"F19" and 10 more'));
  });

  it('accepts any field when there are no records', () => {
    const empty = recordsView({ data: [] }, 'v1');
    expect(empty.count([{ field: 'X', eq: 1 }])).toBe(0);
    expect(empty.page({ where: [{ field: 'X', eq: 1 }], orderBy: [{ field: 'Y' }] }).edges).toEqual([]);
  });

  it('reaches a key that itself has a dot before a nested path', () => {
    const dotted = recordsView([{ 'a.b': 1, a: { b: 2 } }, { a: { b: 3 } }, { 'x.y': { z: 4 } }], 'v1');
    expect(dotted.count([{ field: 'a.b', eq: 1 }])).toBe(1);
    expect(dotted.count([{ field: 'a.b', eq: 3 }])).toBe(1);
    expect(dotted.count([{ field: 'a.b', eq: 2 }])).toBe(0);
    expect(dotted.count([{ field: 'x.y.z', eq: 4 }])).toBe(1);
  });
});

describe('ordering', () => {
  function ordered(orderBy: RecordOrder[]): unknown[] {
    return ids(view.page({ orderBy, first: MAX_PAGE_SIZE }));
  }

  it('sorts numeric strings as numbers, both ways, and is stable', () => {
    const ascending = [...payload.data].sort((a, b) => Number(a.COUNT) - Number(b.COUNT)).map((r) => r.ID);
    expect(ordered([{ field: 'COUNT' }])).toEqual(ascending);
    expect(ordered([{ field: 'COUNT', direction: 'DESC' }])).toEqual([...ascending].reverse());
    // YEAR ties keep the upstream order (ascending ID) in both directions.
    const byYear = ordered([{ field: 'YEAR', direction: 'DESC' }]);
    const years = byYear.map((id) => 2560 + (Number(id) % 8));
    expect(years).toEqual([...years].sort((a, b) => b - a));
    for (let i = 1; i < byYear.length; i++) {
      if (years[i] === years[i - 1]) expect(Number(byYear[i])).toBeGreaterThan(Number(byYear[i - 1]));
    }
  });

  it('sorts Thai text with the Thai collation and takes several keys', () => {
    const sorted = view.page({ orderBy: [{ field: 'PROVINCE' }, { field: 'ID', direction: 'DESC' }], first: 500 });
    const provinces = sorted.edges.map((edge) => edge.node.PROVINCE);
    const collator = new Intl.Collator('th');
    expect([...new Set(provinces)]).toEqual([...PROVINCES].sort(collator.compare));
    expect(provinces[0]).toBe('กรุงเทพมหานคร');
    const firstGroup = sorted.edges.filter((edge) => edge.node.PROVINCE === 'กรุงเทพมหานคร').map((edge) => edge.node.ID);
    expect(firstGroup).toEqual(expected((r) => r.PROVINCE === 'กรุงเทพมหานคร').reverse());
  });

  it('puts null and missing values last in both directions', () => {
    for (const direction of ['ASC', 'DESC'] as const) {
      const page = view.page({ orderBy: [{ field: 'NOTE', direction }], first: 500 });
      const notes = page.edges.map((edge) => edge.node.NOTE ?? null);
      const firstNull = notes.indexOf(null);
      expect(notes.slice(firstNull).every((note) => note === null)).toBe(true);
      expect(notes.slice(0, firstNull).every((note) => typeof note === 'string')).toBe(true);
    }
    expect(ordered([{ field: 'NOTE', direction: 'DESC' }])[0]).toBe(6);
  });

  it('refuses another direction', () => {
    expect(() => view.page({ orderBy: [{ field: 'ID', direction: 'UP' as 'ASC' }] })).toThrow(badInput('ASC or DESC'));
  });
});

describe('paging', () => {
  const cases: [string, RecordsPageArgs][] = [
    ['all records', {}],
    [
      'a filter and an order',
      { where: [{ field: 'YEAR', gte: '2562' }], orderBy: [{ field: 'PROVINCE', direction: 'DESC' }] },
    ],
    ['an order with ties and nulls', { orderBy: [{ field: 'NOTE' }] }],
  ];

  it.each(cases)('pages %s to the end with no duplicate and no gap, whatever the page size', (_name, args) => {
    const whole = view.page({ ...args, first: MAX_PAGE_SIZE }).edges.map((edge) => edge.node);
    for (const size of [1, 2, 7, 10, 50, 96, 97, 500]) {
      expect(allPages(view, args, size)).toEqual(whole);
    }
  });

  it('answers a page with its connection fields', () => {
    const page = view.page({ first: 3 });
    expect(page.totalCount).toBe(97);
    expect(ids(page)).toEqual([0, 1, 2]);
    expect(page.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: page.edges[0]?.cursor,
      endCursor: page.edges[2]?.cursor,
    });
    expect(page.edges[0]?.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(page.edges[0]?.node).toBe(payload.data[0]);
  });

  it('takes 50 by default, allows 0 and refuses more than 500 or less than 0', () => {
    expect(view.page().edges).toHaveLength(50);
    expect(view.page({ first: null }).edges).toHaveLength(50);
    const none = view.page({ first: 0 });
    expect(none).toMatchObject({ edges: [], totalCount: 97, pageInfo: { hasNextPage: true, endCursor: null } });
    expect(() => view.page({ first: 501 })).toThrow(badInput('at most 500'));
    expect(() => view.page({ first: -1 })).toThrow(badInput('from 0 to 500'));
    expect(() => view.page({ first: 2.5 })).toThrow(badInput('from 0 to 500'));
  });

  it('refuses a cursor of another version of the data', () => {
    const after = view.page({ first: 5 }).pageInfo.endCursor;
    const newer = recordsView({ ...payload, data: records() }, 'etag-2');
    const stale = expect.objectContaining({
      name: 'RecordsError',
      code: 'CURSOR_STALE',
      message: 'This cursor was made from an earlier version of the dataset: read again from the first page',
      details: {
        cursorVersion: expect.stringMatching(/^[0-9a-f]{12}$/) as unknown,
        currentVersion: expect.stringMatching(/^[0-9a-f]{12}$/) as unknown,
      },
    }) as unknown;
    expect(() => newer.page({ first: 5, after })).toThrow(stale);
    expect(() => recordsView(payload, 'etag-2').page({ after })).toThrow(stale);
  });

  it('refuses a cursor of another where or orderBy, and accepts the same one spelled otherwise', () => {
    const args: RecordsPageArgs = {
      where: [
        { field: 'YEAR', eq: '2561' },
        { field: 'COUNT', gte: 10 },
      ],
      first: 2,
    };
    const after = view.page(args).pageInfo.endCursor;
    for (const other of [
      { where: [{ field: 'YEAR', eq: '2562' }] },
      { where: args.where, orderBy: [{ field: 'ID' }] },
      {},
    ] satisfies RecordsPageArgs[]) {
      expect(() => view.page({ ...other, after })).toThrow(badInput('another `where` or `orderBy`'));
    }
    const respelled = [
      { field: 'COUNT', gte: '10' },
      { field: 'YEAR', eq: 2561 },
    ];
    const reordered = view.page({ where: respelled, first: 2, after });
    expect(reordered.edges).toHaveLength(2);
  });

  it('refuses a cursor that is not one', () => {
    for (const after of ['nonsense', Buffer.from('rec1|x|y|1').toString('base64url'), '']) {
      expect(() => view.page({ after })).toThrow(badInput('not a cursor'));
    }
  });
});

describe('projection', () => {
  it('gives each selected field under its name as written, null where missing', () => {
    const page = view.page({ select: ['ID', 'place.code', 'NOTE'], first: 2 });
    expect(page.edges.map((edge) => edge.node)).toEqual([
      { ID: 0, 'place.code': '10', NOTE: null },
      { ID: 1, 'place.code': '11', NOTE: null },
    ]);
    expect(view.page({ select: [], first: 1 }).edges[0]?.node).toEqual({});
  });

  it('does not bind cursors to the selection', () => {
    const after = view.page({ select: ['ID'], first: 2 }).pageInfo.endCursor;
    expect(ids(view.page({ after, first: 1 }))).toEqual([2]);
  });
});

describe('a query named by a plan key', () => {
  const where: RecordFilter[] = [{ field: 'YEAR', in: ['2561', '2563'] }];
  const orderBy: RecordOrder[] = [{ field: 'COUNT', direction: 'DESC' }];
  const positions = (sequence: { length: number; record(position: number): JsonObject }): unknown[] =>
    Array.from({ length: sequence.length }, (_, position) => sequence.record(position).ID);

  it('answers as the same arguments without a key', async () => {
    await view.prepare({ where, orderBy }, 'key-same');
    expect(positions(view.matches({ where, orderBy }, 'key-same'))).toEqual(
      positions(view.matches({ where, orderBy })),
    );
  });

  it('is planned once for the payload, whatever view asks again under the key', () => {
    expect(view.matches({ where, orderBy }, 'key-once').length).toBe(24);
    // The key names the arguments (the caller's promise): asked again under it, the plan made first answers, in
    // this view and in another version's of the same payload, without checking the arguments again.
    expect(view.matches({ where: [] }, 'key-once').length).toBe(24);
    expect(recordsView(payload, 'etag-2').matches({ where: [] }, 'key-once').length).toBe(24);
    expect(view.matches({ where: [] }, 'key-other').length).toBe(97);
  });

  it('keeps no plan of arguments it refused: they are refused again', () => {
    const unknown: RecordFilter[] = [{ field: 'NOPE', eq: 1 }];
    for (let time = 0; time < 2; time++) {
      expect(() => view.matches({ where: unknown }, 'key-refused')).toThrow(/no record has a field "NOPE"/);
    }
  });
});
