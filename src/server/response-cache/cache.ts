import { LRUCache } from 'lru-cache';
import type { DatasetCode } from '../../catalogue.js';
import { maxAgeS, type AnswerLifetime } from '../../graphql/response-ledger.js';
import { matchesEtag, publicCacheControl } from '../../http/caching.js';
import { compressChunks, type Encoding } from '../../http/content-encoding.js';
import { REQUEST_ID_HEADER } from '../../http/request-id.js';
import { chunksLength } from './chunked-body.js';
import { RATE_LIMIT_FIELDS } from '../../rate-limit/fields.js';
import type { KeyedRequest } from './request-key.js';

// Headers that differ from one request or one encoding to the next: set when a stored response is rendered. The
// rate-limit fields describe one caller's bucket at one moment: stored, they would tell the next caller lies.
const RENDERED_HEADERS = new Set<string>([
  REQUEST_ID_HEADER,
  ...RATE_LIMIT_FIELDS,
  'content-length',
  'content-encoding',
  'cache-control',
  'etag',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * What an entry holds besides its bodies and header text: the entry and its header record, the Buffer object, the
 * key, lru-cache's slots. Measured at about 830 bytes (heap and external) for a small answer with this server's
 * headers; counted so that many small answers (a client varying variables) cannot hold many times the bound.
 */
export const ENTRY_OVERHEAD_BYTES = 1024;

/** What HTTP caches are told about a stored GET answer: its ETag, and how long it stays fresh. */
export interface HttpCaching {
  readonly etag: string;
  readonly lifetime: AnswerLifetime;
  readonly staleWhileRevalidateS: number;
}

export interface StoredResponseInit {
  /**
   * The identity body, exactly as yoga's response carried it: its chunks, which may be texts other answers and the
   * upstream cache share (a payload's, see server/response-cache/sliced-json.ts), kept as they are rather than copied into one.
   */
  readonly body: readonly Buffer[];
  /** Every header of yoga's answer; the per-request ones are dropped and rendered again. */
  readonly headers: Iterable<[string, string]>;
  readonly operationName: string | undefined;
  /** When the first upstream payload it was made from stops being fresh: after that it is never served. */
  readonly expiresAt: number;
  /** For GET answers, which carry an ETag and a public Cache-Control. */
  readonly httpCaching: HttpCaching | undefined;
  /** The datasets it read: a change of any drops it (see ResponseCache.dropDatasets). */
  readonly datasets: readonly DatasetCode[];
}

/** One answer as it goes on the wire: the hot path writes it to node:http, the plugin hands it to yoga. */
export interface RenderedResponse {
  readonly status: 200 | 304;
  readonly headers: Record<string, string>;
  /** The body's chunks, written one after the other. */
  readonly body: readonly Buffer[] | undefined;
}

export interface RenderOptions {
  /** The negotiated Content-Encoding, or undefined for identity. */
  readonly encoding: Encoding | undefined;
  readonly requestId: string;
  readonly ifNoneMatch: string | null | undefined;
  readonly now: number;
  /** Per-caller headers of this answer (the rate-limit fields), never stored. */
  readonly callerHeaders?: Readonly<Record<string, string>>;
}

/**
 * A GraphQL answer kept as bytes: the identity body, and each encoding compressed once, the first time a client
 * asks for it (every later request for that encoding shares the same promise).
 */
export class StoredResponse {
  readonly body: readonly Buffer[];
  /** The identity body's length. */
  readonly bodyBytes: number;
  readonly operationName: string | undefined;
  readonly expiresAt: number;
  readonly datasets: readonly DatasetCode[];
  private readonly headers: Readonly<Record<string, string>>;
  private readonly httpCaching: HttpCaching | undefined;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();
  /** The size of each encoding made so far: what a hit in it sends (sentBytes). */
  private readonly encodedSizes = new Map<Encoding, number>();
  private encodedBytes = 0;
  private readonly headerBytes: number;

  constructor(
    init: StoredResponseInit,
    private readonly onEncoded: (entry: StoredResponse) => void,
  ) {
    this.body = init.body;
    this.bodyBytes = chunksLength(init.body);
    this.operationName = init.operationName;
    this.expiresAt = init.expiresAt;
    this.httpCaching = init.httpCaching;
    this.datasets = init.datasets;
    const headers: Record<string, string> = {};
    let headerBytes = 0;
    for (const [name, value] of init.headers) {
      if (RENDERED_HEADERS.has(name)) continue;
      headers[name] = value;
      headerBytes += name.length + value.length;
    }
    this.headers = headers;
    this.headerBytes = headerBytes;
  }

  /**
   * Bytes held: the identity body, the encodings made so far, the header text and the entry's own overhead. A
   * shared chunk of the body counts in full (an upper bound: the upstream cache holds it too).
   */
  get size(): number {
    return this.bodyBytes + this.encodedBytes + this.headerBytes + ENTRY_OVERHEAD_BYTES;
  }

  /**
   * The body bytes a hit in `encoding` sends, which its price follows (pricedBySize): the identity body's, or the
   * encoding's once made (until then the identity's, an upper bound).
   */
  sentBytes(encoding: Encoding | undefined): number {
    return (encoding === undefined ? undefined : this.encodedSizes.get(encoding)) ?? this.bodyBytes;
  }

  /** Whether a request with this If-None-Match is answered 304: a GET answer whose ETag it names. */
  answersNotModified(ifNoneMatch: string | null | undefined): boolean {
    return this.httpCaching !== undefined && matchesEtag(ifNoneMatch, this.httpCaching.etag);
  }

  async render(options: RenderOptions): Promise<RenderedResponse> {
    const headers: Record<string, string> = {
      ...this.headers,
      ...options.callerHeaders,
      [REQUEST_ID_HEADER]: options.requestId,
    };
    const caching = this.httpCaching;
    if (caching !== undefined) {
      headers['etag'] = caching.etag;
      headers['cache-control'] = publicCacheControl(
        maxAgeS(caching.lifetime, options.now),
        caching.staleWhileRevalidateS,
      );
      if (this.answersNotModified(options.ifNoneMatch)) return { status: 304, headers, body: undefined };
    }
    if (options.encoding === undefined) {
      headers['content-length'] = String(this.bodyBytes);
      return { status: 200, headers, body: this.body };
    }
    const encoded = await this.encode(options.encoding);
    headers['content-encoding'] = options.encoding;
    headers['content-length'] = String(encoded.length);
    return { status: 200, headers, body: [encoded] };
  }

  private encode(encoding: Encoding): Promise<Buffer> {
    let pending = this.encoded.get(encoding);
    if (pending === undefined) {
      // Once per entry and encoding, and once for all the entries of one answer stored at the same time (a burst of
      // one query's misses each stores its own entry of the same chunks: compressChunks shares their compression).
      pending = compressChunks(encoding, this.body);
      this.encoded.set(encoding, pending);
      pending.then(
        (bytes) => {
          this.encodedBytes += bytes.length;
          this.encodedSizes.set(encoding, bytes.length);
          this.onEncoded(this);
        },
        // The caller that awaited it answers the failure; the next request for this encoding tries again.
        () => this.encoded.delete(encoding),
      );
    }
    return pending;
  }
}

export interface ResponseCacheOptions {
  /** Bound on the bytes of stored bodies, identity and encoded together. */
  readonly maxBytes: number;
  /** How many misses of one key it takes before its answer is stored (RESPONSE_CACHE_MIN_USES). */
  readonly minUses: number;
  /** The clock, in ms since the epoch: the upstream source's, since entries expire with its payloads. */
  readonly now: () => number;
}

/**
 * The keys whose misses the cache remembers without storing their answers: at 100-odd bytes a key, about 2 MB.
 * A key pushed out of it by newer ones starts counting again, as nginx's proxy_cache_min_uses forgets a key
 * once it is inactive.
 */
export const COUNTED_MISS_KEYS = 16_384;

/**
 * The share of the cache's bound one entry may take at most (its identity body, its encodings, its headers): a
 * larger answer is sent but not stored, and an entry that an encoding would push past it is dropped. So a handful of
 * large answers made distinct by a comment cannot push every caller's stored answers out; and with misses priced by
 * their bytes (rate-limit/byte-price.ts), filling the whole cache costs a caller what sending it would.
 */
export const MAX_ENTRY_SHARE = 1 / 8;

/** A request the hot path could not answer from the cache, and whether its answer may be stored (minUses). */
export interface CacheCandidate extends KeyedRequest {
  readonly admitted: boolean;
  /** The price of the stored answer the caller's bucket could not pay (hot-path.ts): yoga refuses it unless paid. */
  readonly heldBackPrice?: number | undefined;
}

/**
 * Serialised answers to anonymous queries, by request key (see request-key.ts), least recently used out first
 * within `maxBytes`, none larger than MAX_ENTRY_SHARE of it. An answer is stored on its key's `minUses`-th miss: a query sent once (variables that change
 * with every request, a nonce) then costs no store and evicts nothing that is asked again. An entry expires when
 * the first upstream payload it was made from stops being fresh, which is the earliest the upstream entry can
 * change: so a stored answer is never older than the data a miss would read. When the watcher sees a dataset
 * change sooner, every entry that read it is dropped at once (`dropDatasets`).
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, StoredResponse>;
  private readonly minUses: number;
  // The keys of the entries that read each dataset; kept in step with the entries by lru-cache's dispose.
  private readonly byDataset = new Map<DatasetCode, Set<string>>();
  // The misses of keys not yet stored, counted up to minUses; undefined when every miss is stored.
  private readonly missCounts: LRUCache<string, number> | undefined;
  readonly now: () => number;

  constructor(options: ResponseCacheOptions) {
    this.now = options.now;
    this.missCounts = options.minUses > 1 ? new LRUCache({ max: COUNTED_MISS_KEYS }) : undefined;
    this.minUses = options.minUses;
    this.entries = new LRUCache({
      maxSize: options.maxBytes,
      maxEntrySize: Math.max(1, Math.floor(options.maxBytes * MAX_ENTRY_SHARE)),
      sizeCalculation: (entry, key) => entry.size + key.length,
      dispose: (entry, key, reason) => {
        // 'set' with the same entry is a re-set after an encoding was added: it stays indexed.
        if (reason === 'set' && this.entries.peek(key) === entry) return;
        for (const dataset of entry.datasets) {
          const keys = this.byDataset.get(dataset);
          keys?.delete(key);
          if (keys?.size === 0) this.byDataset.delete(dataset);
        }
      },
    });
  }

  /** The live entry for `key`, if any; an expired one is dropped. */
  lookup(key: string): StoredResponse | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAt > this.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  store(key: string, init: StoredResponseInit): StoredResponse {
    const entry = new StoredResponse(init, (encoded) => {
      // Re-set, so the byte bound counts the new encoding; unless the entry was replaced or evicted meanwhile.
      if (this.entries.peek(key) === encoded) this.entries.set(key, encoded);
    });
    this.entries.set(key, entry);
    this.missCounts?.delete(key);
    if (this.entries.peek(key) === entry) {
      for (const dataset of entry.datasets) {
        let keys = this.byDataset.get(dataset);
        if (keys === undefined) this.byDataset.set(dataset, (keys = new Set()));
        keys.add(key);
      }
    }
    return entry;
  }

  /** Whether `entry` is what the cache holds for `key`: false for an answer too large to keep (MAX_ENTRY_SHARE). */
  holds(key: string, entry: StoredResponse): boolean {
    return this.entries.peek(key) === entry;
  }

  /** Drops every stored answer that read one of `datasets`; answers how many. */
  dropDatasets(datasets: readonly DatasetCode[]): number {
    let dropped = 0;
    for (const dataset of datasets) {
      for (const key of [...(this.byDataset.get(dataset) ?? [])]) if (this.entries.delete(key)) dropped += 1;
      this.byDataset.delete(dataset);
    }
    return dropped;
  }

  /**
   * The candidate of a request the hot path could not answer from the cache (its request state carries it to the
   * plugin that stores yoga's answer), and counts the miss: yoga's answer to it may be stored once its key has
   * missed `minUses` times. Every later miss of the key is admitted too (a burst of the
   * same query on a cold cache stores as it did before), until the key is stored or pushed out of the count.
   */
  markCandidate(keyed: KeyedRequest, heldBackPrice?: number): CacheCandidate {
    let admitted = true;
    if (this.missCounts !== undefined) {
      const misses = Math.min((this.missCounts.get(keyed.key) ?? 0) + 1, this.minUses);
      this.missCounts.set(keyed.key, misses);
      admitted = misses >= this.minUses;
    }
    return { ...keyed, admitted, heldBackPrice };
  }

  get storedBytes(): number {
    return this.entries.calculatedSize;
  }
}
