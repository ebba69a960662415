import autocannon from 'autocannon';
const url = process.argv[2] ?? 'http://127.0.0.1:4100/graphql';
const query = process.argv[3] ?? '{ dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) { payload } }';
const headers = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };
const base = { url, connections: 50, method: 'POST' as const, headers, body: JSON.stringify({ query }) };
await autocannon({ ...base, duration: 2 });
const r = await autocannon({ ...base, duration: 6 });
console.log(`${Math.round(r.requests.average)} req/s non2xx=${r.non2xx} errors=${r.errors}`);
