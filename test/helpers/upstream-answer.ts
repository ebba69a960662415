import { datasetPath, findSummaryEndpoint, summaryEndpointPath, type DatasetCode } from '../../src/catalogue.js';
import type { Simulator } from '../../src/simulator/server.js';

/**
 * What the simulated upstream itself answers a summary endpoint asked with `input`, asked directly with its key:
 * the JSON that a summary payload must equal.
 */
export async function upstreamSummary(simulator: Simulator, id: number, input: object = {}): Promise<unknown> {
  const endpoint = findSummaryEndpoint(id);
  if (endpoint === undefined) throw new Error(`no summary endpoint ${id}`);
  const response = await fetch(`${simulator.url}${summaryEndpointPath(endpoint)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': simulator.apiKey },
    body: JSON.stringify(input),
  });
  if (!response.ok) throw new Error(`the simulator answered ${response.status}`);
  return response.json();
}

/**
 * What the simulated upstream itself answers for a dataset asked with `query` (the query string, e.g.
 * `ACADEMIC_YEAR=2566`), asked directly with its key: the JSON that a payload, or its records, must equal.
 */
export async function upstreamDataset(simulator: Simulator, code: DatasetCode, query = ''): Promise<unknown> {
  const response = await fetch(`${simulator.url}${datasetPath(code)}${query === '' ? '' : `?${query}`}`, {
    headers: { 'api-key': simulator.apiKey },
  });
  if (!response.ok) throw new Error(`the simulator answered ${response.status}`);
  return response.json();
}
