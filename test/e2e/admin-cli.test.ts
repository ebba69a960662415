import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from '../../src/access/sqlite-driver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessService, ClientRecord, UseRequestRecord } from '../../src/access/model.js';
import { openAccessService } from '../../src/access/service.js';
import { runAdmin } from '../../src/cli/admin-commands.js';
import { STORE_SETTINGS } from '../helpers/settings.js';
import { spawnNode } from '../helpers/child-process.js';

const tmp = mkdtempSync(join(tmpdir(), 'teg-admin-'));
const DATABASE_URL = `sqlite:${join(tmp, 'admin.db')}`;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm run admin -- ...args`, in this process: what the CLI writes and its exit status, against the test database. */
function admin(...args: string[]): Promise<Run> {
  return adminOn(DATABASE_URL, ...args);
}

async function adminOn(databaseUrl: string, ...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    env: { DATABASE_URL: databaseUrl },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr: withoutStoreLine(stderr) };
}

/** The line naming the store every opening run writes first (test/e2e/settings.test.ts checks it). */
const withoutStoreLine = (stderr: string): string => stderr.replace(/^admin: store \S+\n/, '');

/** `npm run admin -- ...args`, without npm: the CLI as its own process, as an operator runs it. */
async function adminProcess(...args: string[]): Promise<Run> {
  const env = Object.fromEntries(
    Object.entries({ ...process.env, DATABASE_URL }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const admin = spawnNode('src/cli/admin.ts', args, env);
  const code = await admin.exited();
  return { code: code ?? -1, stdout: admin.stdout(), stderr: withoutStoreLine(admin.stderr()) };
}

describe('admin CLI (npm run admin)', () => {
  // The service stays open while the CLI runs, as the server would: both share the SQLite file.
  let access: AccessService;
  let school: ClientRecord;
  let pending: UseRequestRecord;
  let toReject: UseRequestRecord;
  let approved: UseRequestRecord;

  beforeAll(async () => {
    // A clock a second apart per reading: "newest first" must not depend on two requests falling in one millisecond.
    let tick = 0;
    const now = (): Date => new Date(Date.UTC(2026, 10, 23, 9, 0, tick++));
    access = await openAccessService({ ...STORE_SETTINGS, databaseUrl: DATABASE_URL, adminToken: undefined, now });
    school = (await access.registerClient({ name: 'โรงเรียนสาธิต', contactEmail: 'it@school.example.org' })).client;
    const lab = (await access.registerClient({ name: 'Data Lab', contactEmail: 'lab@example.org' })).client;
    pending = await access.requestEndpointUse({ client: school, endpointId: 83, purpose: 'School map' });
    toReject = await access.requestEndpointUse({ client: lab, endpointId: 85, purpose: 'Enrolment study' });
    approved = await access.requestEndpointUse({ client: lab, endpointId: 84, purpose: 'Staffing report' });
    approved = await access.reviewUseRequest({ id: approved.id, decision: 'APPROVE', note: null, actor: 'operator' });
  });
  afterAll(async () => {
    await access.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('prints its usage on --help', async () => {
    const run = await admin('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run admin -- <command> [options]');
    expect(run.stdout).toContain('approve <id> [--note <text>]');
  });

  it('lists requests newest first: id, client, endpoint, status with its Thai label, time', async () => {
    const run = await admin('list');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +CLIENT +ENDPOINT +STATUS +UPDATED$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${approved.id} +Data Lab +84 ods_count_personal_by_year +APPROVED อนุมัติแล้ว +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`,
      ),
    );
    expect(lines[2]).toMatch(new RegExp(`^${toReject.id} +Data Lab +85 ods_count_student_by_year +PENDING รอการอนุมัติ `));
    expect(lines[3]).toMatch(
      new RegExp(`^${pending.id} +โรงเรียนสาธิต +83 ods_count_school_by_jurisdiction +PENDING รอการอนุมัติ `),
    );
  });

  it('runs as its own process (src/cli/admin.ts) with the same output and exit status as in process', async () => {
    const [spawned, inProcess] = await Promise.all([adminProcess('list'), admin('list')]);
    expect(spawned).toEqual(inProcess);
    expect(spawned.code).toBe(0);
    expect(spawned.stdout).toContain(pending.id);
  });

  it('lists one status with --status', async () => {
    const run = await admin('list', '--status', 'APPROVED');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(approved.id);
    expect(run.stdout).not.toContain(pending.id);
  });

  it('approves, rejects and revokes as operator:cli, with the note', async () => {
    const [approve, reject, revoke] = await Promise.all([
      admin('approve', pending.id, '--note', 'ใช้ได้'),
      admin('reject', toReject.id),
      admin('revoke', approved.id, '--note', 'Quota abuse'),
    ]);
    expect(approve).toMatchObject({ code: 0, stderr: '' });
    expect(approve.stdout).toMatch(new RegExp(`${pending.id} .* APPROVED อนุมัติแล้ว`));
    expect(reject.stdout).toContain('REJECTED ไม่อนุมัติ');
    expect(revoke.stdout).toContain('REVOKED ยกเลิกสิทธิ์การใช้งาน');

    expect(await access.findUseRequest(pending.id)).toMatchObject({ status: 'APPROVED', note: 'ใช้ได้' });
    expect(await access.findUseRequest(toReject.id)).toMatchObject({ status: 'REJECTED', note: null });
    expect(await access.findUseRequest(approved.id)).toMatchObject({ status: 'REVOKED', note: 'Quota abuse' });
    const history = await access.historyOf([pending.id, toReject.id, approved.id]);
    expect(history.filter((e) => e.actor === 'operator:cli').map((e) => [e.requestId, e.from, e.to, e.note])).toEqual(
      expect.arrayContaining([
        [pending.id, 'PENDING', 'APPROVED', 'ใช้ได้'],
        [toReject.id, 'PENDING', 'REJECTED', null],
        [approved.id, 'APPROVED', 'REVOKED', 'Quota abuse'],
      ]),
    );

    const shown = await admin('history', approved.id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Purpose: Staffing report');
    expect(shown.stdout).toMatch(/NOT_REQUESTED ยังไม่ได้ขอใช้งาน +PENDING รอการอนุมัติ +client:cl_/);
    expect(shown.stdout).toMatch(/PENDING รอการอนุมัติ +APPROVED อนุมัติแล้ว +operator\n/);
    expect(shown.stdout).toMatch(/APPROVED อนุมัติแล้ว +REVOKED ยกเลิกสิทธิ์การใช้งาน +operator:cli +Quota abuse/);
  });

  it('disables and enables a client and sets its quota, as operator:cli, and the server sees it at once', async () => {
    const { client, apiKey } = await access.registerClient({
      name: 'CLI Managed App',
      contactEmail: 'cli@example.org',
    });
    const disabled = await admin('disable', client.id, '--note', 'ตั๋ว INC-4711: key leaked');
    expect(disabled).toMatchObject({ code: 0, stderr: '' });
    expect(disabled.stdout).toMatch(
      new RegExp(
        `${client.id} +CLI Managed App +cli@example.org +disabled since \\d{4}-\\d\\d-\\d\\dT[\\d:]+Z +default`,
      ),
    );
    await expect(access.authenticate(`Bearer ${apiKey}`)).rejects.toMatchObject({ code: 'CLIENT_DISABLED' });
    expect((await admin('enable', client.id)).stdout).toMatch(/ enabled +default\n$/);
    expect((await admin('quota', client.id, '1200')).stdout).toMatch(/ enabled +1200\n$/);
    expect(await access.authenticate(`Bearer ${apiKey}`)).toMatchObject({
      client: { disabledAt: null, rateLimitPoints: 1200 },
    });
    expect((await admin('quota', client.id, 'default')).stdout).toMatch(/ enabled +default\n$/);
    expect((await access.clientEvents([client.id])).map((e) => `${e.kind} ${e.actor}`)).toEqual([
      `REGISTERED client:${client.id}`,
      'DISABLED operator:cli',
      'ENABLED operator:cli',
      'QUOTA_SET operator:cli',
      'QUOTA_SET operator:cli',
    ]);
    expect(await admin('quota', client.id, '0')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('rateLimitPoints must be a whole number from 1 to 1000000') as unknown,
    });
    expect(await admin('disable', 'cl_nonexistent')).toMatchObject({
      code: 1,
      stderr: 'admin: There is no client with id "cl_nonexistent"\n',
    });
    const shown = await admin('client', client.id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/\n\nAT +EVENT +ACTOR +DETAIL +NOTE\n/);
    // The trail says why, as the operator wrote it (client_events.note, migration 0005).
    expect(shown.stdout).toMatch(/ DISABLED +operator:cli +ตั๋ว INC-4711: key leaked\n/);
    expect((await access.clientEvents([client.id]))[1]).toMatchObject({
      kind: 'DISABLED',
      note: 'ตั๋ว INC-4711: key leaked',
    });
    // The address the runbooks have the operator check a requester against.
    expect(shown.stdout).toMatch(/^CLIENT +NAME +CONTACT +STATUS +QUOTA\n/);
    expect(shown.stdout).toContain(client.contactEmail);
    expect(shown.stdout).toMatch(/ QUOTA_SET +operator:cli +rateLimitPoints=1200\n/);
    await access.deleteClient({ client });
    const deleted = await admin('client', client.id);
    expect(deleted.stdout).toContain(`${client.id} (deleted: its personal data is erased)`);
    expect(deleted.stdout).not.toContain('CLI Managed App');
    expect(deleted.stdout).toMatch(/ DELETED +client:cl_\S+ *\n$/);
    expect(await admin('client', 'cl_nonexistent')).toMatchObject({ code: 1 });
    expect(await admin('quota', client.id, 'lots')).toMatchObject({ code: 2 });
    expect(await admin('enable')).toMatchObject({ code: 2 });
  });

  it('exits 1 with the reason when the store refuses', async () => {
    const [unknown, twice, noHistory] = await Promise.all([
      admin('approve', 'ur_nonexistent'),
      admin('revoke', toReject.id),
      admin('history', 'ur_nonexistent'),
    ]);
    expect(unknown).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'admin: There is no request for use with id "ur_nonexistent"\n',
    });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(
      /^admin: Cannot revoke: the request is REJECTED \(ไม่อนุมัติ\); allowed only from APPROVED\n$/,
    );
    expect(noHistory).toMatchObject({
      code: 1,
      stderr: 'admin: There is no request for use with id "ur_nonexistent"\n',
    });
  });

  it('exits 2 with the usage on arguments it does not understand', async () => {
    const runs = await Promise.all([
      admin(),
      admin('delete', pending.id),
      admin('approve', 'a', 'b'),
      admin('list', '--status', 'bogus'),
      admin('history', pending.id, '--note', 'x'),
      admin('list', '--verbose'),
    ]);
    const reasons = runs.map((run) => {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('Usage: npm run admin');
      return run.stderr.split('\n')[0];
    });
    expect(reasons).toEqual([
      'admin: Missing command',
      'admin: Unknown command "delete"',
      'admin: approve takes exactly one request id',
      'admin: Unknown status "bogus": use one of PENDING, APPROVED, REJECTED, REVOKED',
      'admin: --note applies only to approve, reject, revoke, disable and enable',
      expect.stringContaining("Unknown option '--verbose'"),
    ]);
  });
});

describe('admin CLI on text stored before control characters were refused', () => {
  const path = join(tmp, 'hostile.db');
  let requestId: string;
  // Cleared the line and wrote an approved row of its own, when printed raw.
  const forgedName = 'Evil\u001b[2K\r\nur_forged  Trusted Org  84 ods_count_personal_by_year  APPROVED อนุมัติแล้ว';

  beforeAll(async () => {
    const access = await openAccessService({ ...STORE_SETTINGS, databaseUrl: `sqlite:${path}`, adminToken: undefined });
    const { client } = await access.registerClient({ name: 'placeholder', contactEmail: 'evil@example.org' });
    const request = await access.requestEndpointUse({ client, endpointId: 84, purpose: 'placeholder' });
    await access.reviewUseRequest({ id: request.id, decision: 'REJECT', note: 'placeholder', actor: 'operator' });
    requestId = request.id;
    await access.close();
    // Behind the service's back, as rows written before validation refused them would be.
    const db = new SqliteDatabase(path);
    db.prepare('update clients set name = ?').run(forgedName);
    db.prepare('update use_requests set purpose = ?, note = ?').run(
      'Title\u001b]0;pwned\u0007 \u202eevil',
      'C1 \u009b31m red\u2028next',
    );
    db.prepare("update use_request_events set note = ? where to_status = 'REJECTED'").run(
      'bell\u0007 \u2066isolate\u2069 \\x1B',
    );
    db.close();
  });

  // Anything a terminal would act on rather than print; the CLI's own newlines end its lines.
  const UNPRINTABLE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]|\p{Cs}/u;

  it('list escapes every control and bidi character, so one stored row prints as one line', async () => {
    const run = await adminOn(`sqlite:${path}`, 'list');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toMatch(UNPRINTABLE);
    expect(lines[1]).toContain(`${requestId}  Evil\\x1B[2K\\x0D\\x0Aur_forged  Trusted Org`);
    expect(lines[1]).toMatch(/REJECTED ไม่อนุมัติ +\d{4}-/);
  });

  it('history escapes the purpose, the note and every event note, and doubles a stored backslash', async () => {
    const run = await adminOn(`sqlite:${path}`, 'history', requestId);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    for (const line of run.stdout.split('\n')) expect(line).not.toMatch(UNPRINTABLE);
    expect(run.stdout).toContain('Purpose: Title\\x1B]0;pwned\\x07 \\u202Eevil\n');
    expect(run.stdout).toContain('Note: C1 \\x9B31m red\\u2028next\n');
    expect(run.stdout).toMatch(/operator +bell\\x07 \\u2066isolate\\u2069 \\\\x1B\n/);
  });
});
