/**
 * The operator's command line for requests for use, for people without a GraphQL client:
 *   npm run admin -- list [--status PENDING]
 *   npm run admin -- approve|reject|revoke <id> [--note "…"]
 *   npm run admin -- history <id>
 *   npm run admin -- disable|enable <client-id> [--note "…"]
 *   npm run admin -- quota <client-id> <points|default>
 *   npm run admin -- client <client-id>
 * It reads the store's settings only (loadStoreConfig: the server's checks of them, so a misspelt DATABASE_URL stops
 * it, while nothing of the upstream is asked for), names the store it opens on stderr and opens it directly, so it
 * works while the server runs; it never creates a store (a SQLite file that is not there is an error: the wrong
 * working directory or a missing DATABASE_URL would otherwise show an empty one). Decisions are recorded with the actor `operator:cli` and announced to subscribers like those made over
 * GraphQL: with REDIS_URL the command publishes them on the servers' event channel; without it, the servers find
 * them in the store (LIVE_STORE_POLL_S). admin.ts runs it as its own process; tests call runAdmin in theirs.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AccessError } from '../access/errors.js';
import type { AccessService, ClientRecord, UseRequestRecord } from '../access/model.js';
import type { LiveEvent } from '../live/subscription-hub.js';
import { printable } from '../access/printable.js';
import {
  findSummaryEndpoint,
  USE_REQUEST_STATUS_LABELS,
  USE_REQUEST_STATUSES,
  type UseRequestStatus,
} from '../catalogue.js';
import { DEFAULT_DATABASE_URL, loadStoreConfig, redisKeyPrefixOf } from '../config.js';
import { CODE } from '../errors/registry.js';
import { CLI_ACTOR } from '../live/cli-decisions.js';
import { publishingTransitions } from '../live/publishing-access.js';

const ACTOR = CLI_ACTOR;

// NOT_REQUESTED is the absence of a request: no list has any.
const STORED_STATUSES = USE_REQUEST_STATUSES.filter((status) => status !== 'NOT_REQUESTED');

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  list [--status <status>]      requests for use, newest first; status is one of
                                ${STORED_STATUSES.join(', ')}
  approve <id> [--note <text>]  approve a PENDING request
  reject <id> [--note <text>]   reject a PENDING request
  revoke <id> [--note <text>]   revoke an APPROVED request
  history <id>                  a request and every change of its status
  disable <client-id> [--note <text>]
                                refuse every key of the client (CLIENT_DISABLED)
  enable <client-id> [--note <text>]
                                serve a disabled client again
  quota <client-id> <points>    the client's own rate-limit quota, operations per
                                window (1 to 1000000), or "default"
  client <client-id>            a client and its audit trail (kept after deletion),
                                with the operator's notes

Options:
  -h, --help                    show this help

Environment:
  DATABASE_URL                  the store (default ${DEFAULT_DATABASE_URL})
`;

type Decision = 'approve' | 'reject' | 'revoke';

type Command =
  | { readonly name: 'help' }
  | { readonly name: 'list'; readonly status: UseRequestStatus | undefined }
  | { readonly name: Decision; readonly id: string; readonly note: string | null }
  | { readonly name: 'history'; readonly id: string }
  | { readonly name: 'disable' | 'enable'; readonly clientId: string; readonly note: string | null }
  | { readonly name: 'client'; readonly clientId: string }
  | { readonly name: 'quota'; readonly clientId: string; readonly points: number | null };

/** Arguments that do not make a command: the usage is printed and the exit status is 2. */
class UsageError extends Error {}

function parseCommand(argv: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { status: { type: 'string' }, note: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { name: 'help' };
  const [name, ...operands] = positionals;
  if (name === undefined) throw new UsageError('Missing command');
  if (values.status !== undefined && name !== 'list') throw new UsageError('--status applies only to list');
  if (values.note !== undefined && !isDecision(name) && name !== 'disable' && name !== 'enable')
    throw new UsageError('--note applies only to approve, reject, revoke, disable and enable');
  if (name === 'list') {
    if (operands.length > 0) throw new UsageError(`list takes no arguments (got ${operands.join(' ')})`);
    return { name, status: values.status === undefined ? undefined : parseStatus(values.status) };
  }
  if (isDecision(name) || name === 'history') {
    const [id, ...rest] = operands;
    if (id === undefined || rest.length > 0) throw new UsageError(`${name} takes exactly one request id`);
    return name === 'history' ? { name, id } : { name, id, note: values.note ?? null };
  }
  if (name === 'disable' || name === 'enable' || name === 'client') {
    const [clientId, ...rest] = operands;
    if (clientId === undefined || rest.length > 0) throw new UsageError(`${name} takes exactly one client id`);
    return name === 'client' ? { name, clientId } : { name, clientId, note: values.note ?? null };
  }
  if (name === 'quota') {
    const [clientId, points, ...rest] = operands;
    if (clientId === undefined || points === undefined || rest.length > 0)
      throw new UsageError('quota takes a client id and a number of points (or "default")');
    if (points !== 'default' && !/^\d{1,7}$/.test(points))
      throw new UsageError(`quota: "${points}" is not a whole number or "default"`);
    return { name, clientId, points: points === 'default' ? null : Number(points) };
  }
  throw new UsageError(`Unknown command "${name}"`);
}

function isDecision(name: string): name is Decision {
  return name === 'approve' || name === 'reject' || name === 'revoke';
}

function parseStatus(text: string): UseRequestStatus {
  const status = STORED_STATUSES.find((s) => s === text.toUpperCase());
  if (status === undefined) throw new UsageError(`Unknown status "${text}": use one of ${STORED_STATUSES.join(', ')}`);
  return status;
}

// Thai vowel and tone marks combine with the letter before them and take no column of their own.
function displayWidth(text: string): number {
  return [...text.replace(/\p{M}/gu, '')].length;
}

function formatTable(headers: readonly string[], storedRows: readonly (readonly string[])[]): string {
  // Stored text may predate the refusal of control characters: escaped, a cell cannot forge a row or recolour one.
  const rows = storedRows.map((row) => row.map(printable));
  const widths = headers.map((header, i) =>
    Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[i] ?? ''))),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => cell + ' '.repeat((widths[i] ?? 0) - displayWidth(cell)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n') + '\n';
}

function formatTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function formatStatus(status: UseRequestStatus): string {
  return `${status} ${USE_REQUEST_STATUS_LABELS[status]}`;
}

function formatEndpoint(endpointId: number): string {
  return `${endpointId} ${findSummaryEndpoint(endpointId)?.name ?? '(not in the catalogue)'}`;
}

async function formatRequests(access: AccessService, requests: readonly UseRequestRecord[]): Promise<string> {
  if (requests.length === 0) return 'No requests for use.\n';
  const clients = new Map<string, ClientRecord>(
    (await access.findClients(requests.map((r) => r.clientId))).map((client) => [client.id, client]),
  );
  return formatTable(
    ['ID', 'CLIENT', 'ENDPOINT', 'STATUS', 'UPDATED'],
    requests.map((r) => [
      r.id,
      clients.get(r.clientId)?.name ?? r.clientId,
      formatEndpoint(r.endpointId),
      formatStatus(r.status),
      formatTime(r.updatedAt),
    ]),
  );
}

async function formatHistory(access: AccessService, request: UseRequestRecord): Promise<string> {
  const [summary, events] = await Promise.all([formatRequests(access, [request]), access.historyOf([request.id])]);
  return (
    summary +
    `Client: ${request.clientId}\n` +
    `Purpose: ${printable(request.purpose)}\n` +
    (request.note === null ? '' : `Note: ${printable(request.note)}\n`) +
    '\n' +
    formatTable(
      ['AT', 'FROM', 'TO', 'ACTOR', 'NOTE'],
      events.map((e) => [formatTime(e.at), formatStatus(e.from), formatStatus(e.to), e.actor, e.note ?? '']),
    )
  );
}

async function run(access: AccessService, command: Exclude<Command, { name: 'help' }>): Promise<string> {
  switch (command.name) {
    case 'list':
      return formatRequests(access, await access.listUseRequests({ status: command.status }));
    case 'history': {
      const request = await access.findUseRequest(command.id);
      if (request === undefined)
        throw new AccessError(CODE.NOT_FOUND, `There is no request for use with id "${command.id}"`);
      return formatHistory(access, request);
    }
    case 'approve':
    case 'reject': {
      const decision = command.name === 'approve' ? 'APPROVE' : 'REJECT';
      const request = await access.reviewUseRequest({ id: command.id, decision, note: command.note, actor: ACTOR });
      return formatRequests(access, [request]);
    }
    case 'revoke': {
      const request = await access.revokeUseRequest({ id: command.id, note: command.note, actor: ACTOR });
      return formatRequests(access, [request]);
    }
    case 'disable':
    case 'enable':
      return formatClient(
        await access.setClientDisabled({
          clientId: command.clientId,
          disabled: command.name === 'disable',
          actor: ACTOR,
          note: command.note,
        }),
      );
    case 'quota':
      return formatClient(
        await access.setClientQuota({ clientId: command.clientId, rateLimitPoints: command.points, actor: ACTOR }),
      );
    case 'client': {
      const [[client], events] = await Promise.all([
        access.findClients([command.clientId]),
        access.clientEvents([command.clientId]),
      ]);
      if (client === undefined && events.length === 0)
        throw new AccessError(CODE.NOT_FOUND, `There is no client with id "${command.clientId}"`);
      return (
        (client === undefined ? `${command.clientId} (deleted: its personal data is erased)\n` : formatClient(client)) +
        '\n' +
        // The note says why (a disabling's reason, an erasure's ticket): the trail without it reads as bare facts.
        formatTable(
          ['AT', 'EVENT', 'ACTOR', 'DETAIL', 'NOTE'],
          events.map((e) => [formatTime(e.at), e.kind, e.actor, e.detail ?? '', e.note ?? '']),
        )
      );
    }
  }
}

function formatClient(client: ClientRecord): string {
  return formatTable(
    // The contact address is what the runbooks have the operator verify a requester against.
    ['CLIENT', 'NAME', 'CONTACT', 'STATUS', 'QUOTA'],
    [
      [
        client.id,
        client.name,
        client.contactEmail,
        client.disabledAt === null ? 'enabled' : `disabled since ${formatTime(client.disabledAt)}`,
        client.rateLimitPoints?.toString() ?? 'default',
      ],
    ],
  );
}

/** Where a run reads its environment and writes its output: the process's own, or a test's. */
export interface AdminIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** Runs one command line (the arguments after `--`) and resolves to its exit status: 0 done, 1 refused, 2 usage. */
export async function runAdmin(argv: readonly string[], { env, stdout, stderr }: AdminIo): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`admin: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (command.name === 'help') {
    stdout.write(USAGE);
    return 0;
  }
  const loaded = loadStoreConfig(env);
  for (const warning of loaded.warnings) stderr.write(`admin: warning: ${warning}\n`);
  if (!loaded.ok) {
    stderr.write(`admin: invalid configuration\n${loaded.problems.map((problem) => `  - ${problem}\n`).join('')}`);
    return 1;
  }
  const { databaseUrl, keys, database, cache } = loaded.config;
  let access: AccessService | undefined;
  try {
    // Loaded only now, so --help and usage errors answer without loading the database drivers.
    const { describeDatabaseUrl, parseDatabaseUrl } = await import('../access/database.js');
    const { openAccessService } = await import('../access/service.js');
    const location = parseDatabaseUrl(databaseUrl);
    if (location.dialect === 'sqlite' && location.path !== ':memory:' && !existsSync(location.path)) {
      const named =
        env['DATABASE_URL'] === undefined
          ? ` (DATABASE_URL is unset: the default ${DEFAULT_DATABASE_URL})`
          : ' (DATABASE_URL)';
      stderr.write(`admin: no store at ${location.path}${named}; set DATABASE_URL to the server's store\n`);
      return 1;
    }
    stderr.write(`admin: store ${describeDatabaseUrl(databaseUrl)}\n`);
    // Migrating is the server's or `npm run migrate`'s job; with MIGRATE_ON_START=false the admin only checks too.
    access = await openAccessService({
      databaseUrl,
      adminToken: undefined,
      keys,
      postgres: database,
      migrate: database.migrateOnStart,
    });
    const announced: LiveEvent[] = [];
    stdout.write(
      await run(
        publishingTransitions(
          access,
          (request) => announced.push({ topic: 'useRequestChanged', request }),
          (clientId) => announced.push({ topic: 'clientAccessChanged', clientId }),
        ),
        command,
      ),
    );
    if (announced.length > 0 && cache.redisUrl !== undefined) {
      const { eventChannel, sendToInstances } = await import('../live/event-bus.js');
      // The servers' channel: the same prefix they derive from the same settings.
      const prefix = redisKeyPrefixOf({ ...cache, databaseUrl });
      await sendToInstances({ url: cache.redisUrl, channel: eventChannel(prefix) }, announced).catch(
        (error: unknown) => {
          // The decision stands; only its announcement is lost (subscribers see it on their next query).
          stderr.write(
            `admin: warning: decision recorded, but not announced to subscribers (Redis: ${error instanceof Error ? error.message : String(error)})\n`,
          );
        },
      );
    }
    return 0;
  } catch (error) {
    // A refused operation (AccessError) or a store that cannot be opened: both messages are written for people.
    stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await access?.close();
  }
}
