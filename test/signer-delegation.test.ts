import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailbox, type MailboxEntry, mailboxDir } from '../src/messages/local-mailbox.js';
import { call, dialects, PUBLIC_URL, startServiceWithBothWebhookFormats, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, outbox, pdfProcess, readAndSign, stored } from './support/signing.js';
import { runOutbox } from './support/whatsapp-service.js';

const MARIA = { name: 'María Gómez', email: 'maria@people.test', reason: 'I am travelling; María signs for the company' };

describe.each(dialects)('delegation: a signer hands their place to another person from the signing page (%s)', (dialect) => {
  let svc: TestService;
  const seen = new Set<string>();
  beforeAll(async () => {
    svc = await startServiceWithBothWebhookFormats(dialect);
    // Organization A lets its signers hand their place on; B keeps the default (off).
    const res = await call(svc.app, 'PUT', '/organization', { key: svc.orgA.privateKey, body: { signerDelegation: true } });
    expect(res.json()).toMatchObject({ signerDelegation: true });
  });
  afterAll(async () => svc.close());

  const people = (method: 'GET' | 'POST', path: string, token: string, body?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method, url: `/people${path}`, headers: { 'x-link-token': token }, ...(body ? { payload: body } : {}) });
  const delegate = (token: string, body: Record<string, unknown> = MARIA) => people('POST', '/signing/delegate', token, body);
  const newMail = async (): Promise<MailboxEntry[]> => {
    await runOutbox(svc);
    const all = await listMailbox(mailboxDir(svc.config.dataDir), { channel: 'email', limit: 10_000 });
    const fresh = all.filter((mail) => !seen.has(mail.id)).reverse();
    for (const mail of fresh) seen.add(mail.id);
    return fresh;
  };
  async function process(org: TestOrganization, overrides: Record<string, unknown> = {}) {
    const code = await createProcess(svc, org, '/document/upload', pdfProcess(org, overrides));
    const { participants } = await stored(svc, org, code);
    return { code, participants };
  }

  describe('the organization setting: off by default, on through PUT /organization', () => {
    it('GET /organization answers signerDelegation; B, which never set it, reads false', async () => {
      const a = await call(svc.app, 'GET', '/organization', { key: svc.orgA.privateKey });
      const b = await call(svc.app, 'GET', '/organization', { key: svc.orgB.privateKey });
      expect(a.json().signerDelegation).toBe(true);
      expect(b.json().signerDelegation).toBe(false);
      const bad = await call(svc.app, 'PUT', '/organization', { key: svc.orgB.privateKey, body: { signerDelegation: 'yes' } });
      expect(bad.statusCode).toBe(400);
    });

    it('a signer of an organization that does not allow it is refused (403 DELEGATION_NOT_ALLOWED), and the page offers nothing', async () => {
      const { participants } = await process(svc.orgB);
      const token = participants[0]?.link_token ?? '';
      const page = await people('GET', '/signing', token);
      expect(page.json().state).toBe('act');
      expect(page.json()).not.toHaveProperty('delegation');
      const res = await delegate(token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'DELEGATION_NOT_ALLOWED' });
    });
  });

  describe('the new person gets a new id, link, the same validations and the invitation; the old link stops working at once', () => {
    it('answers {delegated, to}; the place holds María with a new id and link; the old link shows the delegated page and acts no more', async () => {
      const { code, participants } = await process(svc.orgA, { otpCode: true, options: { otpCode: 'email' } });
      const former = participants[0];
      if (!former) throw new Error('no participant');
      const page = await people('GET', '/signing', former.link_token);
      expect(page.json().delegation).toEqual({ phone: false, identification: false });
      await newMail();
      const res = await delegate(former.link_token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ delegated: true, to: MARIA.name });

      const now = (await stored(svc, svc.orgA, code)).participants[0];
      expect(now).toMatchObject({ position: former.position, role: 'SIGNER', name: MARIA.name, email: MARIA.email, status: 'NOTIFICATION' });
      expect(now?.participant_id).not.toBe(former.participant_id);
      expect(now?.link_token).not.toBe(former.link_token);
      expect(now?.validations).toBe(former.validations);

      const old = await people('GET', '/signing', former.link_token);
      expect(old.statusCode).toBe(200);
      expect(old.json()).toMatchObject({ state: 'delegated', delegatedTo: MARIA.name, documents: [], participants: [] });
      for (const [path, body] of [
        ['/signing/otp', undefined],
        ['/signing/reject', { reason: 'no' }],
        ['/signing/delegate', MARIA],
      ] as const) {
        const refused = await people('POST', path, former.link_token, body);
        expect(refused.json(), path).toEqual({ message: 'SIGNING_LINK_NOT_FOUND' });
      }

      const mail = await newMail();
      const invitation = mail.filter((m) => m.to === MARIA.email);
      expect(invitation).toHaveLength(1);
      expect(String(invitation[0]?.message.text)).toContain(`${PUBLIC_URL}/s/${now?.link_token}`);
      const fresh = await people('GET', '/signing', now?.link_token ?? '');
      expect(fresh.json()).toMatchObject({ state: 'act', participant: { name: MARIA.name }, requirements: { otpCode: { required: true } } });
    });

    it('María signs with her own link: the process finishes with her, not the former signer', async () => {
      const { code, participants } = await process(svc.orgA);
      await delegate(participants[0]?.link_token ?? '');
      const now = (await stored(svc, svc.orgA, code)).participants;
      for (const participant of now) await readAndSign(svc.deps, { token: participant.link_token });
      const read = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(read.status).toBe('FINISH');
      expect(read.signProfile.map((p: { name: string }) => p.name)).toEqual([MARIA.name, 'Signer 1']);
    });
  });

  describe('UPDATE_SIGNER: the roadmap, the typed and flat webhooks say who delegated to whom and why', () => {
    it('roadmap: UPDATE_SIGNER by the former signer with the reason; the participants list María with her new id', async () => {
      const { code, participants } = await process(svc.orgA);
      const former = participants[0];
      await delegate(former?.link_token ?? '');
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();
      const line = roadmap.activityLog.find((e: { action: string }) => e.action === 'UPDATE_SIGNER');
      expect(line).toMatchObject({ action: 'UPDATE_SIGNER', participant: former?.participant_id, by: former?.email, message: MARIA.reason });
      const now = (await stored(svc, svc.orgA, code)).participants[0];
      expect(roadmap.participants[0]).toMatchObject({ id: now?.participant_id, name: MARIA.name, email: MARIA.email });
    });

    it('typed document.signer_delegated {signer, delegate, message, by}; flat {code, name, status: UPDATE_SIGNER, signer, delegate, message}; B receives none', async () => {
      const before = (await outbox(svc, 'webhook')).length;
      const { code, participants } = await process(svc.orgA, { targetWebhooks: ['default', 'flat'] });
      const former = participants[0];
      await delegate(former?.link_token ?? '');
      const now = (await stored(svc, svc.orgA, code)).participants[0];
      const rows = (await outbox(svc, 'webhook')).slice(before);
      expect(rows.every((row) => row.organization_id === svc.orgA.id)).toBe(true);
      const typed = rows
        .map((row) => row.body.event as { type: string; data: Record<string, unknown> } | undefined)
        .find((e) => e?.type === 'document.signer_delegated');
      expect(typed?.data).toMatchObject({
        code,
        status: 'UPDATE_SIGNER',
        signer: { id: former?.participant_id, name: former?.name, email: former?.email },
        delegate: { id: now?.participant_id, name: MARIA.name, email: MARIA.email },
        message: MARIA.reason,
        by: former?.email,
        formerHolder: former?.name,
        newHolder: MARIA.name,
      });
      const flat = rows.map((row) => row.body.flat as Record<string, unknown> | undefined).find((b) => b?.status === 'UPDATE_SIGNER');
      expect(flat).toEqual({
        code,
        name: 'Lease',
        status: 'UPDATE_SIGNER',
        signer: { id: former?.participant_id, name: former?.name, email: former?.email },
        delegate: { id: now?.participant_id, name: MARIA.name, email: MARIA.email },
        message: MARIA.reason,
      });
    });

    it("the process's readers are told who handed their place to whom", async () => {
      const { participants } = await process(svc.orgA, { name: 'Arriendo', readers: [{ name: 'Rosa', email: 'rosa@board.test' }] });
      await newMail();
      await delegate(participants[0]?.link_token ?? '');
      const told = (await newMail()).filter((m) => m.to === 'rosa@board.test');
      expect(told.map((m) => m.message.subject)).toEqual(['Signer 0 delegó su firma de «Arriendo»']);
      expect(String(told[0]?.message.text)).toContain(`Signer 0 pasó su lugar en «Arriendo» a ${MARIA.name}`);
    });
  });

  describe('the delegate must satisfy the same validations; bad input is refused with 400 and changes nothing', () => {
    it('a reason, a name and an e-mail are required; a bad e-mail or phone is refused', async () => {
      const { participants } = await process(svc.orgA);
      const token = participants[0]?.link_token ?? '';
      for (const body of [
        { name: MARIA.name, email: MARIA.email },
        { name: MARIA.name, email: MARIA.email, reason: '   ' },
        { email: MARIA.email, reason: 'r' },
        { name: MARIA.name, reason: 'r' },
        { ...MARIA, email: 'not-an-email' },
        { ...MARIA, phone: '3001234567' },
        { ...MARIA, extra: 1 },
      ]) {
        const res = await delegate(token, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toEqual(expect.any(String));
      }
      expect((await people('GET', '/signing', token)).json().state).toBe('act');
    });

    it('WhatsApp or a code by phone needs the phone; a face compared with the ID needs the identification', async () => {
      const phone = await process(svc.orgA, {
        signProfile: [{ name: 'Ana', email: 'ana@people.test', phone: '+573001112233', otpCode: true, options: { otpCode: 'phone' } }],
      });
      const token = phone.participants[0]?.link_token ?? '';
      expect((await people('GET', '/signing', token)).json().delegation).toEqual({ phone: true, identification: false });
      expect((await delegate(token)).json()).toEqual({ message: 'DELEGATE_PHONE_REQUIRED' });
      const identity = await process(svc.orgA, {
        signProfile: [
          {
            name: 'Ana',
            email: 'ana@people.test',
            identification: '1234',
            identificationType: 'CC',
            country: 'CO',
            camera: true,
            options: { camera: 'identification' },
          },
        ],
      });
      const identityToken = identity.participants[0]?.link_token ?? '';
      expect((await delegate(identityToken)).json()).toEqual({ message: 'DELEGATE_IDENTIFICATION_REQUIRED' });
      const res = await delegate(identityToken, { ...MARIA, identification: '5678', identificationType: 'cc', country: 'co' });
      expect(res.statusCode).toBe(200);
      expect((await stored(svc, svc.orgA, identity.code)).participants[0]).toMatchObject({ identification: '5678', identification_type: 'CC', country: 'CO' });
    });

    it('someone who already takes part is refused (DELEGATE_ALREADY_TAKES_PART); so is an approver, and a signer not at their turn', async () => {
      const { participants } = await process(svc.orgA, {
        signProfile: [
          { name: 'Signer 0', email: 'signer0@people.test' },
          { name: 'Boss', email: 'boss@people.test', role: 'APPROVER' },
          { name: 'Later', email: 'later@people.test', order: 1 },
        ],
      });
      const [first, approver, later] = participants;
      expect((await delegate(first?.link_token ?? '', { ...MARIA, email: 'BOSS@people.test' })).json()).toEqual({ message: 'DELEGATE_ALREADY_TAKES_PART' });
      expect((await delegate(approver?.link_token ?? '')).json()).toEqual({ message: 'DELEGATION_NOT_ALLOWED' });
      expect((await delegate(later?.link_token ?? '')).json()).toEqual({ message: 'NOT_YOUR_TURN' });
    });

    it('once a code was checked or a photo taken, the place is no longer handed on (DELEGATION_TOO_LATE)', async () => {
      const { code, participants } = await process(svc.orgA);
      const { process: row } = await stored(svc, svc.orgA, code);
      await svc.deps.db
        .updateTable('participants')
        .set({ otp_failures: 1 })
        .where('id', '=', participants[0]?.id ?? '')
        .execute();
      expect(row.status).toBe('CREATED');
      const res = await delegate(participants[0]?.link_token ?? '');
      expect(res.json()).toEqual({ message: 'DELEGATION_TOO_LATE' });
      expect((await people('GET', '/signing', participants[0]?.link_token ?? '')).json()).not.toHaveProperty('delegation');
    });
  });

  describe('two organizations never see each other: a link opens its own process only', () => {
    it("the delegated page of A's old link names nothing of B, and B's processes are untouched", async () => {
      const a = await process(svc.orgA);
      const b = await process(svc.orgB);
      await delegate(a.participants[0]?.link_token ?? '');
      const page = (await people('GET', '/signing', a.participants[0]?.link_token ?? '')).json();
      expect(page.process.code).toBe(a.code);
      expect(JSON.stringify(page)).not.toContain(b.code);
      expect((await stored(svc, svc.orgB, b.code)).participants.map((p) => p.link_token)).toEqual(b.participants.map((p) => p.link_token));
      const foreign = await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code: a.code } });
      expect(foreign.statusCode).toBe(400);
    });
  });
});
