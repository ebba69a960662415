/**
 * The environment of `npm run simulator`, validated with zod: every problem is reported, not just the first.
 */
import { z } from 'zod';
import { findDataset, findSummaryEndpoint } from '../catalogue.js';
import type { Fault, SimulatorRoute } from './faults.js';
import { DEFAULT_SEED } from './prng.js';
import type { SimulatorOptions } from './server.js';

export interface SimulatorSettings {
  readonly options: SimulatorOptions;
  /** Faults to set at start, from SIMULATOR_FAULTS. */
  readonly faults: readonly (readonly [SimulatorRoute, Fault])[];
}

export type SettingsResult = { ok: true; settings: SimulatorSettings } | { ok: false; problems: string[] };

// RFC 9110 token characters: what an HTTP header name may contain.
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const faultSchema = z.strictObject({
  latencyMs: z.number().nonnegative().optional(),
  status: z.number().int().min(200).max(599).optional(),
  malformedBody: z.boolean().optional(),
  hang: z.boolean().optional(),
  times: z.number().int().positive().optional(),
  retryAfterS: z.number().int().nonnegative().optional(),
});

function toRoute(key: string): SimulatorRoute | undefined {
  if (key === '*') return '*';
  const dataset = findDataset(key);
  if (dataset) return dataset.code;
  const endpoint = /^\d+$/.test(key) ? findSummaryEndpoint(Number(key)) : undefined;
  return endpoint?.id;
}

const faultsSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON, e.g. {"ODS_COUNT_TEACHER_BY_YEAR":{"status":503}}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string(), faultSchema))
  .superRefine((faults, ctx) => {
    for (const key of Object.keys(faults)) {
      if (toRoute(key) === undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'not a dataset code, a summary endpoint id or "*"' });
      }
    }
  });

const environmentSchema = z.object({
  SIMULATOR_HOST: z.string().default('127.0.0.1'),
  SIMULATOR_PORT: z.coerce.number<string>().int().min(0).max(65535).default(8888),
  SIMULATOR_TLS: z.stringbool().default(false),
  UPSTREAM_API_KEY: z.string().default('simulator-key'),
  UPSTREAM_API_KEY_HEADER: z.string().regex(headerName, 'must be a valid HTTP header name').default('api-key'),
  SIMULATOR_SEED: z.coerce.number<string>().int().min(0).max(0xffffffff).default(DEFAULT_SEED),
  SIMULATOR_FAULTS: faultsSchema.optional(),
});

/** Reads the simulator's settings from an environment; empty variables count as unset. */
export function simulatorSettingsFrom(env: NodeJS.ProcessEnv): SettingsResult {
  const present = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
  }
  const e = parsed.data;
  const faults = Object.entries(e.SIMULATOR_FAULTS ?? {}).flatMap(([key, fault]) => {
    const route = toRoute(key);
    return route === undefined ? [] : [[route, fault] as const];
  });
  return {
    ok: true,
    settings: {
      options: {
        host: e.SIMULATOR_HOST,
        port: e.SIMULATOR_PORT,
        tls: e.SIMULATOR_TLS,
        apiKey: e.UPSTREAM_API_KEY,
        apiKeyHeader: e.UPSTREAM_API_KEY_HEADER,
        seed: e.SIMULATOR_SEED,
      },
      faults,
    },
  };
}
