/**
 * Fault injection: per route (a dataset code, a summary endpoint id, or '*' for every request) a fault that the
 * next requests meet instead of, or before, the normal answer.
 */
import type { DatasetCode } from '../catalogue.js';

export type SimulatorRoute = DatasetCode | number | '*';

export interface Fault {
  /** Delay before answering. */
  latencyMs?: number;
  /** Answer with this HTTP status and a small JSON error body. */
  status?: number;
  /** Answer 200 with a body that is not valid JSON (a truncated one). */
  malformedBody?: boolean;
  /** Accept the request and never answer (until the server closes). */
  hang?: boolean;
  /** Hold the answer until this settles (for ever if the server closes first), then play the rest of the fault. */
  until?: Promise<unknown>;
  /** Apply to the next N requests only, then clear itself (undefined: until cleared). */
  times?: number;
  /** With status: send a Retry-After header. */
  retryAfterS?: number;
}

function checkFault(fault: Fault): void {
  const { latencyMs, status, times, retryAfterS } = fault;
  if (latencyMs !== undefined && !(Number.isFinite(latencyMs) && latencyMs >= 0)) {
    throw new RangeError(`latencyMs must be a non-negative number, not ${latencyMs}`);
  }
  if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599)) {
    throw new RangeError(`status must be an HTTP status from 200 to 599, not ${status}`);
  }
  if (times !== undefined && !(Number.isInteger(times) && times >= 1)) {
    throw new RangeError(`times must be a positive integer, not ${times}`);
  }
  if (retryAfterS !== undefined && !(Number.isInteger(retryAfterS) && retryAfterS >= 0)) {
    throw new RangeError(`retryAfterS must be a non-negative integer, not ${retryAfterS}`);
  }
}

export class FaultTable {
  private readonly faults = new Map<string, { fault: Fault; left: number | undefined }>();

  set(route: SimulatorRoute, fault: Fault): void {
    checkFault(fault);
    this.faults.set(String(route), { fault: { ...fault }, left: fault.times });
  }

  clear(): void {
    this.faults.clear();
  }

  /**
   * The fault a request to `route` meets (its route's own fault first, else the '*' one), counting it against
   * `times`; undefined when none applies. `route` is undefined for a path that is no route.
   */
  take(route: DatasetCode | number | undefined): Fault | undefined {
    const key = route !== undefined && this.faults.has(String(route)) ? String(route) : '*';
    const entry = this.faults.get(key);
    if (!entry) return undefined;
    if (entry.left !== undefined) {
      entry.left -= 1;
      if (entry.left <= 0) this.faults.delete(key);
    }
    return entry.fault;
  }
}
