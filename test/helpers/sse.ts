import type { ExecutionResult } from 'graphql';

/** One subscription over GraphQL over SSE ("distinct connections"), read as a test reads it. */
export interface EventStream {
  readonly status: number;
  readonly contentType: string;
  /** The next `next` event's result; rejects when the stream completes or ends first. */
  next(): Promise<ExecutionResult>;
  /** Resolves once the server sent `complete` (true) or the stream ended without it (false). */
  readonly ended: Promise<boolean>;
  /** Comment lines (heartbeats) seen so far. */
  readonly comments: number;
  close(): void;
}

/** POSTs `query` asking for text/event-stream and reads the events as they come. */
export async function subscribe(
  endpoint: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<EventStream> {
  const abort = new AbortController();
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  const results: ExecutionResult[] = [];
  const waiters: { resolve: (result: ExecutionResult) => void; reject: (error: Error) => void }[] = [];
  let comments = 0;
  let finished: boolean | undefined;
  const settleWaiters = (): void => {
    while (waiters.length > 0 && results.length > 0) waiters.shift()?.resolve(results.shift() as ExecutionResult);
    if (finished !== undefined) for (const waiter of waiters.splice(0)) waiter.reject(new Error('the stream ended'));
  };
  const ended = (async (): Promise<boolean> => {
    const body = response.body;
    if (body === null) return false;
    const decoder = new TextDecoder();
    let buffer = '';
    let completed = false;
    try {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let boundary = buffer.indexOf('\n\n');
        while (boundary !== -1) {
          const message = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const lines = message.split('\n');
          if (lines.every((line) => line.startsWith(':'))) comments += 1;
          const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
          const data = lines
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (event === 'next' || (event === undefined && data !== ''))
            results.push(JSON.parse(data) as ExecutionResult);
          if (event === 'complete') completed = true;
          settleWaiters();
          boundary = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close(), or the connection was cut.
    }
    finished = completed;
    settleWaiters();
    return completed;
  })();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    next: () =>
      new Promise((resolve, reject) => {
        waiters.push({ resolve, reject });
        settleWaiters();
      }),
    ended,
    get comments() {
      return comments;
    },
    close: () => abort.abort(),
  };
}
