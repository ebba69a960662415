import { randomBytes } from 'node:crypto';
import { startSimulator } from './server.js';

/** The embedded simulator as an upstream address: where to call it, with which key, and how to stop it. */
export interface EmbeddedUpstream {
  readonly baseUrl: string;
  readonly apiKey: string;
  close(): Promise<void>;
}

/**
 * The simulator on a free loopback port, for a process given no upstream address (the server in development, the
 * shapes command): it checks the configured key, or a random one, sent in the configured header. Callers import
 * this module dynamically: its data and certificate tooling weigh several MB that production never loads.
 */
export async function startEmbeddedUpstream(settings: {
  readonly apiKey: string | undefined;
  readonly apiKeyHeader: string;
}): Promise<EmbeddedUpstream> {
  const apiKey = settings.apiKey ?? randomBytes(24).toString('base64url');
  const simulator = await startSimulator({ host: '127.0.0.1', port: 0, apiKey, apiKeyHeader: settings.apiKeyHeader });
  return { baseUrl: simulator.url, apiKey, close: () => simulator.close() };
}
