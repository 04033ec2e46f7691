import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openSecret } from '../src/console/secret-at-rest.js';
import { createDeps, type Deps } from '../src/deps.js';
import { findProcessByCode, listParticipants } from '../src/documents/queries.js';
import { createOrganization } from '../src/organizations/organizations.js';
import { runAdmin } from './support/admin-command.js';
import { call } from './support/service.js';
import { PDF_BASE64, readAndSign } from './support/signing.js';

// Each admin call is a process of its own that compiles the CLI (seconds on a busy machine).
describe('the admin command shares the service configuration', { timeout: 120_000 }, () => {
  let dataDir: string;
  let deps: Deps;
  let app: FastifyInstance;

  async function admin(...args: string[]): Promise<{ code: number; json: unknown; stderr: string }> {
    const { code, stdout, stderr } = await runAdmin(dataDir, ...args);
    return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-admin-'));
  });
  afterAll(async () => {
    await app?.close();
    await deps?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('org create prints one JSON object with organization, privateKey and publicKey that work', async () => {
    const acme = await admin('org', 'create', '--name', 'Acme', '--email', 'Owner@Acme.test');
    const globex = await admin('org', 'create', '--name', 'Globex', '--email', 'owner@globex.test');
    expect(acme.code).toBe(0);
    const created = acme.json as { organization: string; privateKey: string; publicKey: string; user: { email: string } };
    expect(created.organization).toMatch(/^[0-9a-f]{24}$/);
    expect(created.privateKey).toMatch(/^prk_[0-9a-f]{32}$/);
    expect(created.publicKey).toMatch(/^puk_[0-9a-f]{32}$/);
    expect(created.user.email).toBe('owner@acme.test');

    deps = await createDeps(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), deps);
    expect((await call(app, 'GET', '/template', { key: created.privateKey })).statusCode).toBe(200);
    expect((await call(app, 'GET', '/veriface/documents', { key: created.publicKey })).statusCode).toBe(200);

    const list = await admin('org', 'list');
    expect((list.json as { name: string }[]).map((o) => o.name)).toEqual(['Acme', 'Globex']);
    expect(JSON.stringify(list.json)).not.toContain((globex.json as { privateKey: string }).privateKey);
  });

  it('keys are stored only as hashes', async () => {
    const created = await admin('org', 'create', '--name', 'Hashes', '--email', 'h@h.test');
    const { privateKey } = created.json as { privateKey: string };
    const rows = await deps.db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(privateKey.slice(4));
  });

  it("user add --name and user rename: the name the roadmap shows as the author of the user's processes", async () => {
    const { organization } = (await admin('org', 'create', '--name', 'Names', '--email', 'n@n.test')).json as { organization: string };
    expect((await admin('user', 'add', '--org', organization, '--email', 'third@n.test', '--name', 'Clara Ruiz')).json).toMatchObject({
      email: 'third@n.test',
      name: 'Clara Ruiz',
    });
    expect((await admin('user', 'rename', '--org', organization, '--email', 'n@n.test', '--name', 'Segundo')).json).toEqual({
      email: 'n@n.test',
      name: 'Segundo',
    });
    expect((await admin('user', 'rename', '--org', organization, '--email', 'nobody@n.test', '--name', 'X')).stderr).toContain('USER_NOT_FOUND');
    const named = (await admin('user', 'list', '--org', organization)).json as { email: string; name?: string }[];
    expect(named.map(({ email, name }) => ({ email, name }))).toEqual([
      { email: 'n@n.test', name: 'Segundo' },
      { email: 'third@n.test', name: 'Clara Ruiz' },
    ]);
  });

  it('user add, and a duplicate e-mail refused whatever its case', async () => {
    const { organization } = (await admin('org', 'create', '--name', 'Keys', '--email', 'k@k.test')).json as { organization: string };
    const user = await admin('user', 'add', '--org', organization, '--email', 'second@k.test');
    expect(user.json).toMatchObject({ email: 'second@k.test' });
    const duplicate = await admin('user', 'add', '--org', organization, '--email', 'SECOND@k.test');
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('USER_ALREADY_EXISTS');
    const users = await admin('user', 'list', '--org', organization);
    expect((users.json as { email: string }[]).map((u) => u.email)).toEqual(['k@k.test', 'second@k.test']);
  });

  it("user add makes console senders unless --role reviewer, viewer or admin; the organization's first user is an admin; user role changes it", async () => {
    const { organization } = (await admin('org', 'create', '--name', 'Roles', '--email', 'first@r.test')).json as { organization: string };
    expect((await admin('user', 'add', '--org', organization, '--email', 'sender@r.test')).json).toMatchObject({ role: 'sender' });
    expect((await admin('user', 'add', '--org', organization, '--email', 'boss@r.test', '--role', 'admin')).json).toMatchObject({ role: 'admin' });
    expect((await admin('user', 'role', '--org', organization, '--email', 'sender@r.test', '--role', 'admin')).json).toMatchObject({ role: 'admin' });
    expect((await admin('user', 'add', '--org', organization, '--email', 'eyes@r.test', '--role', 'reviewer')).json).toMatchObject({ role: 'reviewer' });
    const bad = await admin('user', 'add', '--org', organization, '--email', 'x@r.test', '--role', 'owner');
    expect([bad.code, bad.stderr.includes('--role must be one of admin, reviewer, sender, viewer')]).toEqual([2, true]);
    const users = (await admin('user', 'list', '--org', organization)).json as { email: string; role: string }[];
    expect(users.map((u) => [u.email, u.role])).toEqual([
      ['boss@r.test', 'admin'],
      ['eyes@r.test', 'reviewer'],
      ['first@r.test', 'admin'],
      ['sender@r.test', 'admin'],
    ]);
  });

  it('key create and key revoke', async () => {
    const { organization } = (await admin('org', 'create', '--name', 'Revoke', '--email', 'k@rv.test')).json as { organization: string };

    const key = (await admin('key', 'create', '--org', organization, '--kind', 'public')).json as { id: string; key: string };
    expect(key.key).toMatch(/^puk_/);
    expect((await call(app, 'GET', '/veriface/documents', { key: key.key })).statusCode).toBe(200);
    const revoked = await admin('key', 'revoke', '--key', key.key);
    expect(revoked.json).toEqual({ revoked: 1 });
    // A revocation from another process is in force within a second (the service trusts a found key that long).
    await expect.poll(async () => (await call(app, 'GET', '/veriface/documents', { key: key.key })).statusCode, { timeout: 3000 }).toBe(401);
    const keys = (await admin('key', 'list', '--org', organization)).json as { kind: string; revoked_at: string | null }[];
    expect(keys.filter((k) => k.revoked_at !== null)).toHaveLength(1);
    expect(JSON.stringify(keys)).not.toContain(key.key);
  });

  it('webhook create, list, update, rotate and delete, with the API rules', async () => {
    const { organization } = (await admin('org', 'create', '--name', 'Hooks', '--email', 'w@w.test')).json as { organization: string };
    const created = await admin('webhook', 'create', '--org', organization, '--name', 'default', '--url', 'https://hooks.example.test/in');
    expect(created.json).toMatchObject({ name: 'default', url: 'https://hooks.example.test/in', enabled: true, secret: expect.stringMatching(/^whsec_/) });
    const updated = await admin('webhook', 'update', '--org', organization, '--name', 'default', '--disabled');
    expect(updated.json).toMatchObject({ enabled: false });
    const rotated = await admin('webhook', 'rotate', '--org', organization, '--name', 'default');
    expect((rotated.json as { secret: string }).secret).not.toBe((created.json as { secret: string }).secret);
    const listed = await admin('webhook', 'list', '--org', organization);
    expect(listed.json).toEqual({ data: [expect.objectContaining({ name: 'default', enabled: false })] });
    const refused = await admin('webhook', 'create', '--org', organization, '--name', 'inside', '--url', 'http://127.0.0.1/x');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('WEBHOOK_URL_NOT_ALLOWED');
    const badUrl = await admin('webhook', 'create', '--org', organization, '--name', 'x', '--url', 'nope');
    expect(JSON.parse(badUrl.stderr.split('\n')[0] ?? '')).toEqual({ message: '"url" must be a valid uri with a scheme matching the http|https pattern' });
    expect((await admin('webhook', 'delete', '--org', organization, '--name', 'default')).json).toEqual({ name: 'default', deleted: true });
  });

  it("org update --oidc-issuer/--oidc-client-id/--oidc-client-secret sets one organization's single sign-on, the secret sealed with the data key and never printed; --oidc-clear removes it", async () => {
    const { organization } = (await admin('org', 'create', '--name', 'Sso', '--email', 's@sso.test')).json as { organization: string };
    const { organization: other } = (await admin('org', 'create', '--name', 'NoSso', '--email', 'n@nosso.test')).json as { organization: string };
    const flags = ['--oidc-issuer', 'https://idp.example', '--oidc-client-id', 'sso-console', '--oidc-client-secret', 'sso-secret-0123456789'];
    const set = await admin('org', 'update', '--org', organization, ...flags);
    expect(set.json).toMatchObject({ organization, oidc: { issuer: 'https://idp.example', clientId: 'sso-console' } });
    expect(JSON.stringify(set.json)).not.toContain('sso-secret');
    const stored = async (id: string) =>
      (await deps.db.selectFrom('organizations').select('oidc_client_secret').where('id', '=', id).executeTakeFirstOrThrow()).oidc_client_secret;
    const sealed = (await stored(organization)) ?? '';
    expect(sealed).not.toContain('sso-secret');
    expect(openSecret(deps.dataKey, { oidcOf: organization }, sealed)).toBe('sso-secret-0123456789');
    expect(await stored(other)).toBeNull();
    expect((await admin('org', 'update', '--org', organization, '--oidc-clear', ...flags.slice(0, 2))).code).toBe(2);
    const cleared = await admin('org', 'update', '--org', organization, '--oidc-clear');
    expect(cleared.json).not.toHaveProperty('oidc');
    expect(await stored(organization)).toBeNull();
  });

  it('org update sets the SDK origins, the SDK token requirement, language, time zone and photo retention of one organization only', async () => {
    const { organization } = (await admin('org', 'create', '--name', 'Embeds', '--email', 'e@e.test')).json as { organization: string };
    const { organization: other } = (await admin('org', 'create', '--name', 'Other', '--email', 'o@o.test')).json as { organization: string };
    const updated = await admin(
      'org',
      'update',
      '--org',
      organization,
      '--sdk-origins',
      'https://app.example.com, http://localhost:8080',
      '--sdk-require-token',
      'on',
      '--language',
      'en',
      '--time-zone',
      'Europe/Madrid',
      '--photo-retention-days',
      '30',
      '--form-processes-per-hour',
      '20',
      '--signer-delegation',
      'on',
      '--pades-level',
      'B-LT',
    );
    expect(updated.json).toEqual({
      organization,
      sdkIntegration: false,
      sdkOrigins: ['https://app.example.com', 'http://localhost:8080'],
      sdkRequireToken: true,
      language: 'en',
      timeZone: 'Europe/Madrid',
      photoRetentionDays: 30,
      formProcessesPerHour: 20,
      signerDelegation: true,
      padesLevel: 'B-LT',
    });
    const listed = (await admin('org', 'list')).json as {
      organization: string;
      sdkOrigins: string[];
      language: string;
      timeZone: string;
      photoRetentionDays: number;
    }[];
    expect(listed.find((o) => o.organization === other)).toMatchObject({
      sdkOrigins: [],
      sdkRequireToken: false,
      language: 'es',
      timeZone: 'America/Bogota',
      photoRetentionDays: 180,
      formProcessesPerHour: 30,
      signerDelegation: false,
      padesLevel: null,
    });
    const withPath = await admin('org', 'update', '--org', organization, '--sdk-origins', 'https://app.example.com/page');
    expect(withPath.code).toBe(2);
    expect(withPath.stderr).toContain('must be an origin');
    expect((await admin('org', 'update', '--org', organization, '--time-zone', 'Mars/Olympus')).stderr).toContain('IANA time zone');
    expect((await admin('org', 'update', '--org', organization, '--language', 'de')).code).toBe(2);
    expect((await admin('org', 'update', '--org', organization, '--sdk-require-token', 'yes')).stderr).toContain('--sdk-require-token must be on or off');
    expect((await admin('org', 'update', '--org', organization)).stderr).toContain('at least one setting');
  });

  it('process reseal queues the seal job again of a finished process that is not sealed, and only for its own organization', async () => {
    const owner = await createOrganization(deps.db, systemClock, { name: 'Reseal', email: 'r@r.test' });
    const other = await createOrganization(deps.db, systemClock, { name: 'Elsewhere', email: 'e@e.test' });
    const created = await call(app, 'POST', '/document/upload', {
      key: owner.privateKey,
      body: { email: 'r@r.test', name: 'Lease', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@r.test' }] },
    });
    const { code } = created.json() as { code: string };
    const waiting = await admin('process', 'reseal', '--org', owner.organization, '--code', code);
    expect(waiting.json).toEqual({ code, queued: false });

    const process = await findProcessByCode(deps.db, owner.organization, code);
    const [participant] = process ? await listParticipants(deps.db, process.id) : [];
    await readAndSign(deps, { token: participant?.link_token ?? '' });
    const sealJobs = async () =>
      (await deps.db.selectFrom('outbox').select(['payload', 'status']).where('kind', '=', 'job').execute()).filter(
        (row) => JSON.parse(row.payload).data?.processId === process?.id,
      );
    // Its retries ran out while the file was wrong.
    await deps.db.updateTable('outbox').set({ status: 'failed' }).where('kind', '=', 'job').where('status', '=', 'pending').execute();
    const requeued = await admin('process', 'reseal', '--org', owner.organization, '--code', code.toLowerCase());
    expect(requeued.json).toEqual({ code, queued: true });
    expect((await sealJobs()).map((job) => job.status).sort()).toEqual(['failed', 'pending']);

    const elsewhere = await admin('process', 'reseal', '--org', other.organization, '--code', code);
    expect(elsewhere.code).toBe(2);
    expect(JSON.parse(elsewhere.stderr.split('\n')[0] ?? '')).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    expect(await sealJobs()).toHaveLength(2);
    // Three runs of the command, each a process of its own.
  }, 120_000);

  it('bad usage exits non-zero with a message', async () => {
    const missing = await admin('org', 'create', '--name', 'NoEmail');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--email is required');
    const unknown = await admin('user', 'add', '--org', '000000000000000000000000', '--email', 'x@x.test');
    expect(unknown.stderr).toContain('ORGANIZATION_NOT_FOUND');
  });
});

describe('the admin command refuses a data folder that holds no database', { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const adminIn = runAdmin;

  it('mailbox list with a DATA_DIR other than the service’s is refused with a message naming the folder, and makes no database', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-admin-empty-'));
    dirs.push(empty);
    const listed = await adminIn(empty, 'mailbox', 'list');
    expect(listed.code).toBe(2);
    expect(JSON.parse(listed.stderr.split('\n')[0] ?? '')).toEqual({ message: expect.stringContaining(`DATA_DIR ${empty} holds no database and no mailbox`) });
    expect(fs.existsSync(path.join(empty, 'service.sqlite'))).toBe(false);
  });

  it('org create in an empty folder makes the database and says so on stderr; the next command finds it', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-admin-new-'));
    dirs.push(empty);
    const created = await adminIn(empty, 'org', 'create', '--name', 'Initech', '--email', 'owner@initech.test');
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(`DATA_DIR ${empty} held no database: a new one was made there`);
    const listed = await adminIn(empty, 'org', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe('');
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((o) => o.name)).toEqual(['Initech']);
  });
});
