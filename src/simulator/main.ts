/**
 * `npm run simulator`: the simulated upstream alone, configured by the environment (see env.ts). Logs where it
 * listens (never the key) and, with TLS, the file holding the certificate to trust (UPSTREAM_CA_FILE).
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { simulatorSettingsFrom } from './env.js';
import { startSimulator } from './server.js';

async function main(): Promise<void> {
  const loaded = simulatorSettingsFrom(process.env);
  if (!loaded.ok) {
    process.stderr.write(`simulator: invalid configuration\n${loaded.problems.map((p) => `  - ${p}\n`).join('')}`);
    process.exit(1);
  }
  const { options, faults } = loaded.settings;
  const logger = pino({ base: { service: 'thai-edu-simulator' } });

  const simulator = await startSimulator(options);
  for (const [route, fault] of faults) simulator.setFault(route, fault);
  let caFile: string | undefined;
  if (simulator.caCertPem !== undefined) {
    caFile = join(tmpdir(), `thai-edu-simulator-ca-${new URL(simulator.url).port}.pem`);
    await writeFile(caFile, simulator.caCertPem);
  }
  logger.info(
    {
      url: simulator.url,
      caFile,
      seed: options.seed,
      apiKeyHeader: options.apiKeyHeader,
      faults: faults.map(([r]) => r),
    },
    `simulated upstream listening on ${simulator.url}${caFile === undefined ? '' : ` (trust ${caFile})`}`,
  );

  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    logger.info({ signal }, 'closing the simulated upstream');
    await simulator.close();
    process.exit(0);
  };
  process.once('SIGINT', (signal) => void shutdown(signal));
  process.once('SIGTERM', (signal) => void shutdown(signal));
}

await main();
