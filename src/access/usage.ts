/**
 * Usage per client, for the operator: operations per client per UTC day and the audit of gated summary reads.
 * Both are counted in memory and written in batches (every USAGE_FLUSH_S, or sooner when a bound is reached),
 * so no request waits for the store to count it; rows older than USAGE_RETENTION_DAYS are forgotten as batches
 * are written, so storage stays bounded. What an instance holds when it dies uncleanly is lost: usage is a
 * measure, not a bill.
 */
import type { Page, PageRequest, SummaryReadRecord, UsageDayRecord } from './model.js';
import { decodeCursor, pageOf } from './pages.js';
import { type AccessStore, toDate } from './store-rows.js';

export interface UsagePolicy {
  /** Days of counts and reads kept. */
  readonly retentionDays: number;
  /** Seconds between batches. */
  readonly flushS: number;
}

/** Clients counted, and summary reads held, before a batch is written early. */
const MAX_PENDING_COUNTERS = 5_000;
const MAX_PENDING_READS = 5_000;
/** Rows per INSERT: well under SQLite's limit of bound parameters. */
const ROWS_PER_INSERT = 500;
const DAY_MS = 86_400_000;

const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

interface PendingRead {
  readonly clientId: string;
  readonly endpointId: number;
  readonly at: string;
}

/** What one instance has counted and not yet written. */
export class UsageBuffer {
  /** Operations per `<clientId> <day>`. */
  #operations = new Map<string, number>();
  #reads: PendingRead[] = [];
  #writing: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly store: AccessStore,
    readonly policy: UsagePolicy,
    private readonly onWriteFailed: (error: unknown) => void,
  ) {
    this.#timer = setInterval(() => void this.flush().catch(onWriteFailed), policy.flushS * 1000);
    this.#timer.unref();
  }

  countOperation(clientId: string): void {
    const key = `${clientId} ${utcDay(this.store.now())}`;
    this.#operations.set(key, (this.#operations.get(key) ?? 0) + 1);
    if (this.#operations.size >= MAX_PENDING_COUNTERS) void this.flush().catch(this.onWriteFailed);
  }

  recordSummaryRead(clientId: string, endpointId: number): void {
    this.#reads.push({ clientId, endpointId, at: this.store.now().toISOString() });
    if (this.#reads.length >= MAX_PENDING_READS) void this.flush().catch(this.onWriteFailed);
  }

  /** Writes what is held, after any batch already being written (batches never overlap). */
  flush(): Promise<void> {
    this.#writing = this.#writing.catch(() => undefined).then(() => this.#write());
    return this.#writing;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  async #write(): Promise<void> {
    const operations = this.#operations;
    const reads = this.#reads;
    this.#operations = new Map();
    this.#reads = [];
    const now = this.store.now();
    const oldestDay = utcDay(new Date(now.getTime() - (this.policy.retentionDays - 1) * DAY_MS));
    try {
      await this.store.db.transaction().execute(async (trx) => {
        const counters = [...operations].map(([key, count]) => {
          const [clientId = '', day = ''] = key.split(' ');
          return { client_id: clientId, day, operations: count };
        });
        for (let start = 0; start < counters.length; start += ROWS_PER_INSERT) {
          await trx
            .insertInto('client_usage_days')
            .values(counters.slice(start, start + ROWS_PER_INSERT))
            .onConflict((conflict) =>
              conflict.columns(['client_id', 'day']).doUpdateSet((eb) => ({
                operations: eb('client_usage_days.operations', '+', eb.ref('excluded.operations')),
              })),
            )
            .execute();
        }
        const readRows = reads.map((read) => ({ client_id: read.clientId, endpoint_id: read.endpointId, at: read.at }));
        for (let start = 0; start < readRows.length; start += ROWS_PER_INSERT)
          await trx
            .insertInto('summary_reads')
            .values(readRows.slice(start, start + ROWS_PER_INSERT))
            .execute();
        await trx.deleteFrom('client_usage_days').where('day', '<', oldestDay).execute();
        await trx.deleteFrom('summary_reads').where('at', '<', `${oldestDay}T00:00:00.000Z`).execute();
      });
    } catch (error) {
      // Kept for the next batch, within the same bounds as new counts.
      for (const [key, count] of operations)
        if (this.#operations.size < MAX_PENDING_COUNTERS || this.#operations.has(key))
          this.#operations.set(key, (this.#operations.get(key) ?? 0) + count);
      this.#reads.unshift(...reads.slice(0, Math.max(0, MAX_PENDING_READS - this.#reads.length)));
      throw error;
    }
  }
}

export async function usageOf(
  store: AccessStore,
  buffer: UsageBuffer,
  clientIds: readonly string[],
  days: number,
): Promise<UsageDayRecord[]> {
  if (clientIds.length === 0) return [];
  await buffer.flush();
  const firstDay = utcDay(new Date(store.now().getTime() - (days - 1) * DAY_MS));
  const rows = await store.db
    .selectFrom('client_usage_days')
    .selectAll()
    .where('client_id', 'in', [...new Set(clientIds)])
    .where('day', '>=', firstDay)
    .orderBy('day')
    .execute();
  return rows.map((row) => ({ clientId: row.client_id, day: row.day, operations: Number(row.operations) }));
}

export async function pageSummaryReads(
  store: AccessStore,
  buffer: UsageBuffer,
  clientId: string,
  page: PageRequest,
): Promise<Page<SummaryReadRecord>> {
  const after = decodeCursor(page.after, 'sequence');
  await buffer.flush();
  const matching = store.db.selectFrom('summary_reads').where('client_id', '=', clientId);
  let rows = matching.select(['seq', 'client_id', 'endpoint_id', 'at']);
  if (after !== undefined) rows = rows.where('seq', '<', Number(after.key));
  const [found, total] = await Promise.all([
    rows
      .orderBy('seq', 'desc')
      .limit(page.first + 1)
      .execute(),
    matching.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(
    found,
    page,
    Number(total.count),
    (row) => ({ key: String(row.seq), id: String(row.seq) }),
    (row) => ({ clientId: row.client_id, endpointId: row.endpoint_id, at: toDate(row.at) }),
  );
}
