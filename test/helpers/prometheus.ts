/** Prometheus text exposition → sample lines as { name, labels, value }; throws on a line it cannot read. */
export function parsePrometheus(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      // Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case).
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|nan|[+-]?inf)$/i.exec(line);
      if (match === null) throw new Error(`not Prometheus text: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
      );
      return { name: match[1] ?? '', labels, value: Number(match[3]) };
    });
}

/** The sum of the samples of `name` whose labels include `labels`. */
export function sampled(text: string, name: string, labels: Record<string, string> = {}): number {
  return parsePrometheus(text)
    .filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** How many answers were written from the response cache, as the metrics text `text` says. */
export function responseCacheHitsIn(text: string): number {
  return sampled(text, 'graphql_response_cache_total', { result: 'hit' });
}

/** How many answers the server at `origin` has written from its response cache, as its /metrics says. */
export async function responseCacheHits(origin: string): Promise<number> {
  return responseCacheHitsIn(await (await fetch(`${origin}/metrics`)).text());
}
