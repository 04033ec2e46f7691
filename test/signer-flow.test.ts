import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxRow, ParticipantRow, ProcessRow } from '../src/db/schema.js';
import { expireDueProcesses } from '../src/documents/lifecycle/process-sweeps.js';
import {
  approveDocument,
  openSigning,
  rejectDocument,
  requestOtp,
  type SignerContext,
  signDocument,
  submitPhoto,
  verifyOtp,
} from '../src/documents/participant/signer-flow.js';
import { findProcessByCode, listParticipants, listProcessEvents } from '../src/documents/queries.js';
import type { FaceMatcher } from '../src/veriface/face-matcher.js';
import { IMAGE_MAX_BYTES } from '../src/veriface/images.js';
import { jpeg, matcher, png } from './support/images.js';
import { answerOf, refusal } from './support/refusal.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { PDF_BASE64, PDF_BYTES, readAndSign } from './support/signing.js';

const DAY = 24 * 60 * 60 * 1000;
const PHONE = '+573001234567';

let unique = 0;
const email = (name: string) => `${name}-${++unique}@people.test`;

interface SignerSpec {
  name?: string;
  email?: string;
  phone?: string;
  identification?: string;
  identificationType?: string;
  country?: string;
  role?: 'SIGNER' | 'APPROVER';
  order?: number;
  camera?: boolean;
  otpCode?: boolean;
  options?: Record<string, unknown>;
}

/** An identity document that the 'identification' camera mode needs on the signer. */
const identified = { identification: '1001001010', identificationType: 'CC', country: 'CO' };

interface Created {
  code: string;
  process: ProcessRow;
  participants: ParticipantRow[];
  tokens: string[];
}

/** Everything a test asserts on is read back from the store, so it sees what the service committed. */
function harness(svc: () => TestService) {
  const create = async (options: { signers: SignerSpec[]; org?: TestOrganization; root?: Record<string, unknown> }): Promise<Created> => {
    const s = svc();
    const org = options.org ?? s.orgA;
    const res = await call(s.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: {
        email: org.email,
        name: 'Lease agreement',
        file: PDF_BASE64,
        signProfile: options.signers.map((signer, i) => ({ name: `Signer ${i}`, email: email(`signer${i}`), ...signer })),
        ...options.root,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const code: string = res.json().code;
    const process = await findProcessByCode(s.deps.db, org.id, code);
    if (!process) throw new Error('created process not found');
    const participants = await listParticipants(s.deps.db, process.id);
    return { code, process, participants, tokens: participants.map((p) => p.link_token) };
  };
  const participant = async (created: Created, index: number): Promise<ParticipantRow> => {
    const rows = await listParticipants(svc().deps.db, created.process.id);
    const row = rows[index];
    if (!row) throw new Error(`no participant ${index}`);
    return row;
  };
  const processRow = async (created: Created): Promise<ProcessRow> => {
    const row = await findProcessByCode(svc().deps.db, created.process.organization_id, created.code);
    if (!row) throw new Error('process not found');
    return row;
  };
  const events = async (created: Created) =>
    (await listProcessEvents(svc().deps.db, created.process.id)).map((e) => ({
      action: e.action,
      participant: e.participant_id,
      platform: e.platform,
      message: e.message,
      detail: e.detail === null ? null : JSON.parse(e.detail),
    }));
  const actions = async (created: Created) => (await events(created)).map((e) => e.action);
  const outbox = async (kind: OutboxRow['kind']): Promise<(OutboxRow & { body: Record<string, unknown> })[]> =>
    (await svc().deps.db.selectFrom('outbox').selectAll().where('kind', '=', kind).orderBy('id').execute()).map((row) => ({
      ...row,
      body: JSON.parse(row.payload),
    }));
  /** Webhook deliveries queued for a process, with their event (the payload this service wrote). */
  const webhookRows = async (code: string) =>
    (await outbox('webhook'))
      .map((row) => {
        const payload: { event: { type: string; data: Record<string, unknown> } } = JSON.parse(row.payload);
        return { row, event: payload.event };
      })
      .filter(({ event }) => event.data.code === code);
  const webhooks = async (created: Created) => (await webhookRows(created.code)).map(({ event }) => event);
  const readApi = async (created: Created, key = svc().orgA.privateKey) => call(svc().app, 'GET', '/document', { key, query: { code: created.code } });
  const roadmap = async (created: Created, key = svc().orgA.privateKey) => call(svc().app, 'GET', '/document/roadmap', { key, query: { code: created.code } });
  /** The code of the last one-time-code message sent to `to`, read from the message as the person reads it. */
  const lastCode = async (kind: 'email' | 'whatsapp' | 'sms', to: string): Promise<string> => {
    const rows = (await outbox(kind)).filter((row) => row.body.to === to);
    const body = rows.at(-1)?.body;
    // A WhatsApp code goes in the person's conversation (src/whatsapp/conversation): its text is the chat message's.
    const chat = body?.chat;
    const content = typeof chat === 'object' && chat !== null && 'content' in chat ? chat.content : undefined;
    const chatText = typeof content === 'object' && content !== null && 'text' in content ? content.text : undefined;
    const text = String(body?.text ?? chatText ?? '');
    const found = /\b(\d{6})\b/.exec(text)?.[1];
    if (!found) throw new Error(`no code sent to ${to}`);
    return found;
  };
  const withMatcher = (faceMatcher: FaceMatcher): SignerContext => ({ ...svc().deps, faceMatcher });
  return { create, participant, processRow, events, actions, outbox, webhookRows, webhooks, readApi, roadmap, lastCode, withMatcher };
}

/** Starts one service per rule, with a default webhook in both organizations so webhooks are queued. */
function useService(dialect: Parameters<typeof startTestService>[0]) {
  let svc: TestService | undefined;
  beforeAll(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    for (const org of [svc.orgA, svc.orgB]) {
      const res = await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'default', url: 'http://127.0.0.1:9/hook' } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => svc?.close());
  return () => {
    if (!svc) throw new Error('service not started');
    return svc;
  };
}

/** Every operation of the page, each with arguments that would pass its own checks. */
function everyOperation(ctx: SignerContext, token: string): [string, () => Promise<unknown>][] {
  return [
    ['openSigning', () => openSigning(ctx, { token })],
    ['requestOtp', () => requestOtp(ctx, { token })],
    ['verifyOtp', () => verifyOtp(ctx, { token, code: '123456' })],
    ['submitPhoto', () => submitPhoto(ctx, { token, kind: 'face', image: jpeg() })],
    ['signDocument', () => signDocument(ctx, { token })],
    ['approveDocument', () => approveDocument(ctx, { token })],
    ['rejectDocument', () => rejectDocument(ctx, { token, reason: 'No' })],
  ];
}

async function expectEveryOperationRefused(ctx: SignerContext, token: string, statusCode: number, message: string): Promise<void> {
  for (const [name, operation] of everyOperation(ctx, token)) {
    expect({ name, ...(await refusal(operation())) }).toEqual({ name, statusCode, message });
  }
}

describe.each(dialects)('every operation first loads the participant by token and refuses when it cannot act (%s)', (dialect) => {
  const svc = useService(dialect);
  const h = harness(svc);

  it('an unknown token is 404 SIGNING_LINK_NOT_FOUND', async () => {
    await expectEveryOperationRefused(h.withMatcher(matcher(99)), 'no-such-token', 404, 'SIGNING_LINK_NOT_FOUND');
  });

  it('a PENDING participant (not their turn) is NOT_YOUR_TURN', async () => {
    const created = await h.create({ signers: [{ order: 0 }, { order: 1 }] });
    expect(created.participants.map((p) => p.status)).toEqual(['NOTIFICATION', 'PENDING']);
    await expectEveryOperationRefused(h.withMatcher(matcher(99)), created.tokens[1]!, 400, 'NOT_YOUR_TURN');
    expect(await h.actions(created)).toEqual(['CREATE', 'NOTIFICATION_SIGN']);
  });

  it('a BLOCK participant is PARTICIPANT_BLOCKED', async () => {
    const created = await h.create({ signers: [{ otpCode: true }, {}] });
    const ctx = h.withMatcher(matcher(99));
    await requestOtp(ctx, { token: created.tokens[0]! });
    for (let i = 0; i < 3; i++) await refusal(verifyOtp(ctx, { token: created.tokens[0]!, code: 'wrong!' }));
    expect((await h.participant(created, 0)).status).toBe('BLOCK');
    await expectEveryOperationRefused(ctx, created.tokens[0]!, 400, 'PARTICIPANT_BLOCKED');
  });

  it('a FINISH participant is PARTICIPANT_ALREADY_DONE', async () => {
    const created = await h.create({ signers: [{}, {}] });
    const ctx = h.withMatcher(matcher(99));
    expect(await readAndSign(ctx, { token: created.tokens[0]! })).toEqual({ status: 'FINISH', processStatus: 'CREATED' });
    await expectEveryOperationRefused(ctx, created.tokens[0]!, 400, 'PARTICIPANT_ALREADY_DONE');
  });

  it('a REJECT participant is PARTICIPANT_ALREADY_DONE while the process is somehow still in signature, DOCUMENT_NOT_IN_SIGNATURE once rejected', async () => {
    const created = await h.create({ signers: [{}, {}] });
    const ctx = h.withMatcher(matcher(99));
    // A rejection ends the process in the same transaction, so this state is set by hand to check the rule alone.
    await svc().deps.db.updateTable('participants').set({ status: 'REJECT' }).where('id', '=', created.participants[1]!.id).execute();
    await expectEveryOperationRefused(ctx, created.tokens[1]!, 400, 'PARTICIPANT_ALREADY_DONE');
    await rejectDocument(ctx, { token: created.tokens[0]!, reason: 'Wrong amount' });
    await expectEveryOperationRefused(ctx, created.tokens[0]!, 400, 'DOCUMENT_NOT_IN_SIGNATURE');
  });

  it('a process not CREATED (finished) is DOCUMENT_NOT_IN_SIGNATURE', async () => {
    const created = await h.create({ signers: [{}] });
    const ctx = h.withMatcher(matcher(99));
    expect(await readAndSign(ctx, { token: created.tokens[0]! })).toEqual({ status: 'FINISH', processStatus: 'FINISH' });
    await expectEveryOperationRefused(ctx, created.tokens[0]!, 400, 'DOCUMENT_NOT_IN_SIGNATURE');
  });

  it('a cancelled process (POST /document/cancel) is DOCUMENT_NOT_IN_SIGNATURE for every participant', async () => {
    const created = await h.create({ signers: [{}, { order: 1 }] });
    const cancelled = await call(svc().app, 'POST', '/document/cancel', {
      key: svc().orgA.privateKey,
      body: { codes: [created.code], message: 'Replaced by a new version', email: svc().orgA.email },
    });
    expect(cancelled.json()).toEqual({ success: 1, errors: { cant: 0 } });
    const ctx = h.withMatcher(matcher(99));
    for (const token of created.tokens) await expectEveryOperationRefused(ctx, token, 400, 'DOCUMENT_NOT_IN_SIGNATURE');
    expect((await h.processRow(created)).status).toBe('CANCELLED');
  });

  it('a process whose expires_at has passed is DOCUMENT_EXPIRED, before and after the sweep marks it', async () => {
    const expiredDate = new Date(svc().clock.now().getTime() + 4 * DAY).toISOString();
    const created = await h.create({ signers: [{ otpCode: true }], root: { expiredDate } });
    const ctx = h.withMatcher(matcher(99));
    await openSigning(ctx, { token: created.tokens[0]! });
    svc().clock.advance(4 * DAY);
    expect((await h.processRow(created)).status).toBe('CREATED');
    await expectEveryOperationRefused(ctx, created.tokens[0]!, 400, 'DOCUMENT_EXPIRED');
    expect(await expireDueProcesses(svc().deps)).toBeGreaterThanOrEqual(1);
    expect((await h.processRow(created)).status).toBe('EXPIRED');
    await expectEveryOperationRefused(ctx, created.tokens[0]!, 400, 'DOCUMENT_EXPIRED');
    expect(await h.actions(created)).toEqual(['CREATE', 'NOTIFICATION_SIGN', 'PARTICIPANT_READ', 'EXPIRED']);
  });
});

describe.each(dialects)('openSigning: the view of the page, and PARTICIPANT_READ with opened_at on the first open only (%s)', (dialect) => {
  const svc = useService(dialect);
  const h = harness(svc);

  it('shows the process code and name, documents with a 5-minute download URL, the participant, requirements and canSign', async () => {
    const created = await h.create({ signers: [{ name: 'Ana Gómez', otpCode: true, camera: true, options: { camera: 'photo' } }] });
    const view = await openSigning(svc().deps, { token: created.tokens[0]! });
    expect(view).toEqual({
      code: created.code,
      name: 'Lease agreement',
      documents: [{ name: 'Lease agreement', url: expect.stringMatching(/^http:\/\/service\.test\//) }],
      participant: { id: created.participants[0]!.participant_id, name: 'Ana Gómez', role: 'SIGNER', status: 'NOTIFICATION' },
      requirements: {
        otpCode: { required: true, medium: 'email', verified: false },
        camera: {
          required: true,
          mode: 'photo',
          documentBack: false,
          captured: { face: false, documentFront: false, documentBack: false },
          verified: false,
          failures: 0,
        },
      },
      canSign: false,
      boxes: [],
      openedDocuments: [],
      attachments: [],
    });
    const download = await svc().app.inject({ method: 'GET', url: localPath(view.documents[0]!.url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF_BYTES)).toBe(true);
    svc().clock.advance(5 * 60 * 1000 + 1);
    expect((await svc().app.inject({ method: 'GET', url: localPath(view.documents[0]!.url) })).statusCode).toBe(403);
  });

  it('a participant with nothing to validate can sign at once', async () => {
    const created = await h.create({ signers: [{}] });
    const view = await openSigning(svc().deps, { token: created.tokens[0]! });
    expect(view.requirements).toEqual({
      otpCode: { required: false, verified: false },
      camera: { required: false, documentBack: false, captured: { face: false, documentFront: false, documentBack: false }, verified: false, failures: 0 },
    });
    expect(view.canSign).toBe(true);
  });

  it('records PARTICIPANT_READ (webhook signer_opened) and sets opened_at once, however often the page is opened', async () => {
    const created = await h.create({ signers: [{}] });
    const firstOpen = svc().clock.now().toISOString();
    await openSigning(svc().deps, { token: created.tokens[0]! });
    svc().clock.advance(60_000);
    await openSigning(svc().deps, { token: created.tokens[0]! });
    await openSigning(svc().deps, { token: created.tokens[0]! });
    expect((await h.participant(created, 0)).opened_at).toBe(firstOpen);
    expect(await h.actions(created)).toEqual(['CREATE', 'NOTIFICATION_SIGN', 'PARTICIPANT_READ']);
    const opened = (await h.webhooks(created)).filter((e) => e.type === 'document.signer_opened');
    expect(opened).toHaveLength(1);
    expect(opened[0]!.data).toMatchObject({ code: created.code, status: 'READ', signer: { id: created.participants[0]!.participant_id } });
  });
});

describe.each(dialects)('requestOtp and verifyOtp: the one-time code (%s)', (dialect) => {
  const svc = useService(dialect);
  const h = harness(svc);

  it('OTP_NOT_REQUIRED when the effective otpCode is false', async () => {
    const created = await h.create({ signers: [{}], root: { otpCode: true } });
    const own = await h.create({ signers: [{ camera: true }], root: { otpCode: true } });
    expect(await refusal(requestOtp(svc().deps, { token: own.tokens[0]! }))).toEqual({ statusCode: 400, message: 'OTP_NOT_REQUIRED' });
    expect(await refusal(verifyOtp(svc().deps, { token: own.tokens[0]!, code: '123456' }))).toEqual({ statusCode: 400, message: 'OTP_NOT_REQUIRED' });
    // The global otpCode applies to a signer without validations of their own.
    expect((await requestOtp(svc().deps, { token: created.tokens[0]! })).medium).toBe('email');
  });

  it('sends a 6-digit code by e-mail, stores only its SHA-256 hash for 10 minutes, and records OTP_SENT (platform EMAIL) without the code', async () => {
    const created = await h.create({ signers: [{ otpCode: true }] });
    const now = svc().clock.now().getTime();
    const sent = await requestOtp(svc().deps, { token: created.tokens[0]! });
    expect(sent).toEqual({ medium: 'email', expiresAt: new Date(now + 10 * 60_000).toISOString() });
    const row = await h.participant(created, 0);
    const code = await h.lastCode('email', row.email);
    expect(code).toMatch(/^\d{6}$/);
    const mail = (await h.outbox('email')).filter((m) => m.body.to === row.email).at(-1)!;
    expect(mail.body).toMatchObject({ template: 'otp-code', subject: 'Tu código de verificación' });
    expect(mail.organization_id).toBe(svc().orgA.id);
    expect(row.otp_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.otp_hash).not.toContain(code);
    expect(row.otp_expires_at).toBe(sent.expiresAt);
    expect(row.otp_sent_at).toBe(new Date(now).toISOString());
    const events = await h.events(created);
    expect(events.at(-1)).toEqual({
      action: 'OTP_SENT',
      participant: row.participant_id,
      platform: 'EMAIL',
      message: null,
      detail: { medium: 'email', expiresAt: sent.expiresAt },
    });
    expect(JSON.stringify(events)).not.toContain(code);
    expect(JSON.stringify(await h.webhooks(created))).not.toContain(code);
  });

  it("sends the phone code by WhatsApp when the participant's options.whatsapp is true, by SMS otherwise", async () => {
    const whatsapp = await h.create({ signers: [{ phone: PHONE, otpCode: true, options: { otpCode: 'phone', whatsapp: true } }] });
    const sms = await h.create({ signers: [{ phone: '+573001234568', otpCode: true, options: { otpCode: 'phone' } }] });
    expect((await requestOtp(svc().deps, { token: whatsapp.tokens[0]! })).medium).toBe('phone');
    expect((await requestOtp(svc().deps, { token: sms.tokens[0]! })).medium).toBe('phone');
    const whatsappCode = await h.lastCode('whatsapp', PHONE);
    const smsCode = await h.lastCode('sms', '+573001234568');
    expect((await h.events(whatsapp)).at(-1)).toMatchObject({ action: 'OTP_SENT', platform: 'WHATSAPP' });
    expect((await h.events(sms)).at(-1)).toMatchObject({ action: 'OTP_SENT', platform: 'SMS' });
    await verifyOtp(svc().deps, { token: whatsapp.tokens[0]!, code: whatsappCode });
    await verifyOtp(svc().deps, { token: sms.tokens[0]!, code: smsCode });
    expect((await h.participant(whatsapp, 0)).otp_verified_at).not.toBeNull();
    expect((await h.participant(sms, 0)).otp_verified_at).not.toBeNull();
  });

  it('a signer with otpCode cannot sign before the code is verified (OTP_REQUIRED), then can', async () => {
    const created = await h.create({ signers: [{ otpCode: true }] });
    const token = created.tokens[0]!;
    expect(await refusal(readAndSign(svc().deps, { token }))).toEqual({ statusCode: 400, message: 'OTP_REQUIRED' });
    await requestOtp(svc().deps, { token });
    expect(await refusal(readAndSign(svc().deps, { token }))).toEqual({ statusCode: 400, message: 'OTP_REQUIRED' });
    const view = await verifyOtp(svc().deps, { token, code: await h.lastCode('email', created.participants[0]!.email) });
    expect(view.requirements.otpCode).toEqual({ required: true, medium: 'email', verified: true });
    expect(view.canSign).toBe(true);
    const row = await h.participant(created, 0);
    expect(row.otp_verified_at).toBe(svc().clock.now().toISOString());
    expect(row.otp_hash).toBeNull();
    expect(await readAndSign(svc().deps, { token })).toEqual({ status: 'FINISH', processStatus: 'FINISH' });
    expect(await h.actions(created)).toEqual(['CREATE', 'NOTIFICATION_SIGN', 'DOCUMENT_OPENED', 'OTP_SENT', 'OTP_VERIFIED', 'PARTICIPANT_SIGN', 'FINISH']);
  });

  it('at most one code per 30 seconds (OTP_TOO_SOON); a new code replaces the previous one', async () => {
    const created = await h.create({ signers: [{ otpCode: true }] });
    const token = created.tokens[0]!;
    const to = created.participants[0]!.email;
    await requestOtp(svc().deps, { token });
    const first = await h.lastCode('email', to);
    svc().clock.advance(29_999);
    expect(await refusal(requestOtp(svc().deps, { token }))).toEqual({ statusCode: 400, message: 'OTP_TOO_SOON' });
    expect((await h.outbox('email')).filter((m) => m.body.to === to && m.body.template === 'otp-code')).toHaveLength(1);
    svc().clock.advance(1);
    await requestOtp(svc().deps, { token });
    const second = await h.lastCode('email', to);
    expect((await h.outbox('email')).filter((m) => m.body.to === to && m.body.template === 'otp-code')).toHaveLength(2);
    if (first !== second) {
      expect(await refusal(verifyOtp(svc().deps, { token, code: first }))).toEqual({ statusCode: 400, message: 'OTP_CODE_INVALID' });
    }
    await verifyOtp(svc().deps, { token, code: second });
  });

  it('no code requested, or a code past its 10 minutes, is OTP_CODE_EXPIRED', async () => {
    const created = await h.create({ signers: [{ otpCode: true }] });
    const token = created.tokens[0]!;
    expect(await refusal(verifyOtp(svc().deps, { token, code: '123456' }))).toEqual({ statusCode: 400, message: 'OTP_CODE_EXPIRED' });
    await requestOtp(svc().deps, { token });
    const code = await h.lastCode('email', created.participants[0]!.email);
    svc().clock.advance(10 * 60_000);
    expect(await refusal(verifyOtp(svc().deps, { token, code }))).toEqual({ statusCode: 400, message: 'OTP_CODE_EXPIRED' });
    expect((await h.participant(created, 0)).otp_failures).toBe(0);
    await requestOtp(svc().deps, { token });
    svc().clock.advance(10 * 60_000 - 1);
    await verifyOtp(svc().deps, { token, code: await h.lastCode('email', created.participants[0]!.email) });
  });

  it('a code works once: afterwards verifying or asking again is OTP_ALREADY_VERIFIED', async () => {
    const created = await h.create({ signers: [{ otpCode: true }] });
    const token = created.tokens[0]!;
    await requestOtp(svc().deps, { token });
    const code = await h.lastCode('email', created.participants[0]!.email);
    await verifyOtp(svc().deps, { token, code });
    expect(await refusal(verifyOtp(svc().deps, { token, code }))).toEqual({ statusCode: 400, message: 'OTP_ALREADY_VERIFIED' });
    svc().clock.advance(60_000);
    expect(await refusal(requestOtp(svc().deps, { token }))).toEqual({ statusCode: 400, message: 'OTP_ALREADY_VERIFIED' });
  });

  it('3 wrong codes block the participant: OTP_CODE_INVALID twice, then PARTICIPANT_BLOCKED, with the audit lines, roadmap and BLOCKED webhook', async () => {
    const created = await h.create({ signers: [{ otpCode: true }, {}] });
    const token = created.tokens[0]!;
    await requestOtp(svc().deps, { token });
    const code = await h.lastCode('email', created.participants[0]!.email);
    const wrong = code === '000000' ? '000001' : '000000';
    expect(await refusal(verifyOtp(svc().deps, { token, code: wrong }))).toEqual({ statusCode: 400, message: 'OTP_CODE_INVALID' });
    expect((await h.participant(created, 0)).otp_failures).toBe(1);
    expect(await refusal(verifyOtp(svc().deps, { token, code: 'abc' }))).toEqual({ statusCode: 400, message: 'OTP_CODE_INVALID' });
    expect(await refusal(verifyOtp(svc().deps, { token, code: wrong }))).toEqual({ statusCode: 400, message: 'PARTICIPANT_BLOCKED' });
    const row = await h.participant(created, 0);
    expect(row).toMatchObject({ status: 'BLOCK', block_reason: 'OTP_CODE_INVALID', otp_failures: 3, otp_hash: null, otp_verified_at: null });
    // The right code no longer helps.
    expect(await refusal(verifyOtp(svc().deps, { token, code }))).toEqual({ statusCode: 400, message: 'PARTICIPANT_BLOCKED' });

    const pid = row.participant_id;
    expect((await h.events(created)).slice(3)).toEqual([
      { action: 'OTP_SENT', participant: pid, platform: 'EMAIL', message: null, detail: { medium: 'email', expiresAt: expect.any(String) } },
      { action: 'OTP_FAILED', participant: pid, platform: null, message: null, detail: { failures: 1 } },
      { action: 'OTP_FAILED', participant: pid, platform: null, message: null, detail: { failures: 2 } },
      { action: 'OTP_FAILED', participant: pid, platform: null, message: null, detail: { failures: 3 } },
      { action: 'PARTICIPANT_BLOCK', participant: pid, platform: null, message: 'OTP_CODE_INVALID', detail: null },
    ]);
    const road = await h.roadmap(created);
    expect(road.statusCode).toBe(200);
    expect(road.json().activityLog.map((a: { action: string }) => a.action)).toEqual([
      'CREATE',
      'NOTIFICATION_SIGN',
      'NOTIFICATION_SIGN',
      'OTP_SENT',
      'OTP_FAILED',
      'OTP_FAILED',
      'OTP_FAILED',
      'PARTICIPANT_BLOCK',
    ]);
    expect(road.json().activityLog.at(-1)).toMatchObject({ action: 'PARTICIPANT_BLOCK', participant: pid, message: 'OTP_CODE_INVALID' });
    const blocked = (await h.webhooks(created)).filter((e) => e.type === 'document.signer_blocked');
    expect(blocked).toHaveLength(1);
    expect(blocked[0]!.data).toMatchObject({ code: created.code, status: 'BLOCKED', message: 'OTP_CODE_INVALID', signer: { id: pid } });
    // A blocked participant holds the process: it stays in signature.
    expect((await h.processRow(created)).status).toBe('CREATED');
  });

  it('asking for a new code does not reset the failures', async () => {
    const created = await h.create({ signers: [{ otpCode: true }] });
    const token = created.tokens[0]!;
    await requestOtp(svc().deps, { token });
    await refusal(verifyOtp(svc().deps, { token, code: 'x' }));
    await refusal(verifyOtp(svc().deps, { token, code: 'y' }));
    svc().clock.advance(30_000);
    await requestOtp(svc().deps, { token });
    expect(await refusal(verifyOtp(svc().deps, { token, code: 'z' }))).toEqual({ statusCode: 400, message: 'PARTICIPANT_BLOCKED' });
  });
});

describe.each(dialects)('submitPhoto: the camera validation, photo or identification (%s)', (dialect) => {
  const svc = useService(dialect);
  const h = harness(svc);
  const photoMode = { camera: true, options: { camera: 'photo' } };
  const identification = { ...identified, camera: true, options: { camera: 'identification' } };

  it('CAMERA_NOT_REQUIRED without camera; DOCUMENT_PHOTO_NOT_REQUIRED for document photos unless identification, the back only with identificationCardBack', async () => {
    const none = await h.create({ signers: [{ otpCode: true }] });
    const photo = await h.create({ signers: [photoMode] });
    const ident = await h.create({ signers: [identification] });
    const ctx = h.withMatcher(matcher(99));
    const submit = (token: string, kind: 'face' | 'documentFront' | 'documentBack') => refusal(submitPhoto(ctx, { token, kind, image: jpeg() }));
    expect(await submit(none.tokens[0]!, 'face')).toEqual({ statusCode: 400, message: 'CAMERA_NOT_REQUIRED' });
    expect(await submit(photo.tokens[0]!, 'documentFront')).toEqual({ statusCode: 400, message: 'DOCUMENT_PHOTO_NOT_REQUIRED' });
    expect(await submit(photo.tokens[0]!, 'documentBack')).toEqual({ statusCode: 400, message: 'DOCUMENT_PHOTO_NOT_REQUIRED' });
    expect(await submit(ident.tokens[0]!, 'documentBack')).toEqual({ statusCode: 400, message: 'DOCUMENT_PHOTO_NOT_REQUIRED' });
  });

  it('images are checked like the face-validation flow: empty 400 IMAGE_EMPTY, too large 413, not JPEG/PNG 415', async () => {
    const created = await h.create({ signers: [photoMode] });
    const ctx = h.withMatcher(matcher(99));
    const token = created.tokens[0]!;
    expect(await refusal(submitPhoto(ctx, { token, kind: 'face', image: Buffer.alloc(0) }))).toEqual({ statusCode: 400, message: 'IMAGE_EMPTY' });
    const large = Buffer.concat([jpeg(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    expect(await refusal(submitPhoto(ctx, { token, kind: 'face', image: large }))).toEqual({
      statusCode: 413,
      message: `IMAGE_TOO_LARGE: at most ${IMAGE_MAX_BYTES} bytes`,
    });
    expect(await refusal(submitPhoto(ctx, { token, kind: 'face', image: Buffer.from('<html>') }))).toEqual({
      statusCode: 415,
      message: 'IMAGE_NOT_JPEG_OR_PNG',
    });
    expect((await h.participant(created, 0)).face_key).toBeNull();
  });

  it("with camera 'photo' a signer cannot sign before the face photo is stored; storing it verifies (IDENTITY_VERIFIED)", async () => {
    const created = await h.create({ signers: [photoMode] });
    const m = matcher(10);
    const ctx = h.withMatcher(m);
    const token = created.tokens[0]!;
    expect(await refusal(readAndSign(ctx, { token }))).toEqual({ statusCode: 400, message: 'IDENTITY_VALIDATION_REQUIRED' });
    const image = png();
    const view = await submitPhoto(ctx, { token, kind: 'face', image });
    expect(view.requirements.camera).toEqual({
      required: true,
      mode: 'photo',
      documentBack: false,
      captured: { face: true, documentFront: false, documentBack: false },
      verified: true,
      failures: 0,
    });
    expect(view.canSign).toBe(true);
    const row = await h.participant(created, 0);
    expect(row.face_key).toMatch(new RegExp(`^processes/${created.process.id}/participants/${row.participant_id}/face-[A-Za-z0-9_-]{12}\\.png$`));
    expect((await svc().deps.photos.read(row.face_key!))?.equals(image)).toBe(true);
    expect(row.camera_verified_at).toBe(svc().clock.now().toISOString());
    expect(m.calls).toBe(0);
    expect((await h.events(created)).slice(2)).toEqual([
      { action: 'DOCUMENT_OPENED', participant: row.participant_id, platform: null, message: null, detail: { document: 0 } },
      { action: 'PHOTO_CAPTURED', participant: row.participant_id, platform: null, message: null, detail: { kind: 'face' } },
      { action: 'IDENTITY_VERIFIED', participant: row.participant_id, platform: null, message: null, detail: null },
    ]);
    expect(await refusal(submitPhoto(ctx, { token, kind: 'face', image: jpeg() }))).toEqual({ statusCode: 400, message: 'IDENTITY_ALREADY_VERIFIED' });
    expect(await readAndSign(ctx, { token })).toEqual({ status: 'FINISH', processStatus: 'FINISH' });
  });

  it("with 'identification' a signer cannot sign before the comparison of the face with the document front passes", async () => {
    const created = await h.create({ signers: [identification] });
    const m = matcher(91.317);
    const ctx = h.withMatcher(m);
    const token = created.tokens[0]!;
    const face = await submitPhoto(ctx, { token, kind: 'face', image: jpeg() });
    expect(face.requirements.camera).toMatchObject({
      mode: 'identification',
      documentBack: false,
      captured: { face: true, documentFront: false },
      verified: false,
    });
    expect(m.calls).toBe(0);
    expect(await refusal(readAndSign(ctx, { token }))).toEqual({ statusCode: 400, message: 'IDENTITY_VALIDATION_REQUIRED' });
    const front = await submitPhoto(ctx, { token, kind: 'documentFront', image: jpeg() });
    expect(m.calls).toBe(1);
    expect(front.requirements.camera).toMatchObject({ captured: { face: true, documentFront: true, documentBack: false }, verified: true });
    expect(front.canSign).toBe(true);
    const row = await h.participant(created, 0);
    expect(row).toMatchObject({
      similarity: 91.32,
      camera_failures: 0,
      document_front_key: expect.stringMatching(
        new RegExp(`^processes/${created.process.id}/participants/${row.participant_id}/documentFront-[A-Za-z0-9_-]{12}\\.jpg$`),
      ),
    });
    expect((await h.events(created)).slice(2).map((e) => [e.action, e.detail])).toEqual([
      ['PHOTO_CAPTURED', { kind: 'face' }],
      ['DOCUMENT_OPENED', { document: 0 }],
      ['PHOTO_CAPTURED', { kind: 'documentFront' }],
      ['IDENTITY_VERIFIED', { similarity: 91.32, documentNumber: 'UNREAD' }],
    ]);
    expect(await readAndSign(ctx, { token })).toEqual({ status: 'FINISH', processStatus: 'FINISH' });
    const read = (await h.readApi(created)).json();
    expect(read.signProfile[0]).toMatchObject({ similarity: 91.32, identityVerifiedAt: row.camera_verified_at });
  });

  it('with identificationCardBack the comparison waits for the back of the document too', async () => {
    const created = await h.create({
      signers: [{ ...identified, phone: PHONE, camera: true, options: { camera: 'identification', whatsapp: true, identificationCardBack: true } }],
    });
    const m = matcher(85);
    const ctx = h.withMatcher(m);
    const token = created.tokens[0]!;
    await submitPhoto(ctx, { token, kind: 'documentFront', image: jpeg() });
    const face = await submitPhoto(ctx, { token, kind: 'face', image: jpeg() });
    expect(face.requirements.camera).toMatchObject({ documentBack: true, verified: false });
    expect(m.calls).toBe(0);
    const back = await submitPhoto(ctx, { token, kind: 'documentBack', image: png() });
    expect(m.calls).toBe(1);
    expect(back.requirements.camera).toEqual({
      required: true,
      mode: 'identification',
      documentBack: true,
      captured: { face: true, documentFront: true, documentBack: true },
      verified: true,
      failures: 0,
    });
  });

  it('a comparison below APPROVAL_THRESHOLD counts a failure (IDENTITY_FAILED); the 3rd blocks with FACE_MISMATCH', async () => {
    const created = await h.create({ signers: [identification] });
    const ctx = h.withMatcher(matcher(42.5));
    const token = created.tokens[0]!;
    await submitPhoto(ctx, { token, kind: 'documentFront', image: jpeg() });
    const first = await submitPhoto(ctx, { token, kind: 'face', image: jpeg() });
    expect(first.requirements.camera.verified).toBe(false);
    expect(first.participant.status).toBe('NOTIFICATION');
    expect(await h.participant(created, 0)).toMatchObject({ camera_failures: 1, similarity: 42.5, camera_verified_at: null });
    await submitPhoto(ctx, { token, kind: 'face', image: jpeg() });
    expect(await refusal(submitPhoto(ctx, { token, kind: 'face', image: jpeg() }))).toEqual({ statusCode: 400, message: 'PARTICIPANT_BLOCKED' });
    const row = await h.participant(created, 0);
    expect(row).toMatchObject({ status: 'BLOCK', block_reason: 'FACE_MISMATCH', camera_failures: 3 });
    const identity = (await h.events(created)).filter((e) => e.action.startsWith('IDENTITY') || e.action === 'PARTICIPANT_BLOCK');
    expect(identity.map((e) => [e.action, e.message, e.detail])).toEqual([
      ['IDENTITY_FAILED', null, { similarity: 42.5, reason: 'FACE_MISMATCH', failures: 1 }],
      ['IDENTITY_FAILED', null, { similarity: 42.5, reason: 'FACE_MISMATCH', failures: 2 }],
      ['IDENTITY_FAILED', null, { similarity: 42.5, reason: 'FACE_MISMATCH', failures: 3 }],
      ['PARTICIPANT_BLOCK', 'FACE_MISMATCH', null],
    ]);
    expect((await h.webhooks(created)).filter((e) => e.type === 'document.signer_blocked').map((e) => e.data.message)).toEqual(['FACE_MISMATCH']);
  });

  it('a matcher that cannot decide blocks at once with MANUAL_REVIEW_REQUIRED', async () => {
    const created = await h.create({ signers: [identification] });
    const ctx = h.withMatcher(matcher(undefined));
    const token = created.tokens[0]!;
    await submitPhoto(ctx, { token, kind: 'face', image: jpeg() });
    expect(await refusal(submitPhoto(ctx, { token, kind: 'documentFront', image: jpeg() }))).toEqual({ statusCode: 400, message: 'PARTICIPANT_BLOCKED' });
    expect(await h.participant(created, 0)).toMatchObject({ status: 'BLOCK', block_reason: 'MANUAL_REVIEW_REQUIRED', camera_failures: 0 });
    expect((await h.events(created)).at(-1)).toMatchObject({ action: 'PARTICIPANT_BLOCK', message: 'MANUAL_REVIEW_REQUIRED' });
  });
});

describe.each(dialects)('signDocument and approveDocument: turns, the last signature finishes the process (%s)', (dialect) => {
  const svc = useService(dialect);
  const h = harness(svc);

  it('SIGNER role only signs, APPROVER only approves (PARTICIPANT_APPROVE); the wrong one is WRONG_ROLE', async () => {
    const created = await h.create({ signers: [{ role: 'SIGNER' }, { role: 'APPROVER' }] });
    expect(await refusal(approveDocument(svc().deps, { token: created.tokens[0]! }))).toEqual({ statusCode: 400, message: 'WRONG_ROLE' });
    expect(await refusal(readAndSign(svc().deps, { token: created.tokens[1]! }))).toEqual({ statusCode: 400, message: 'WRONG_ROLE' });
    expect(await approveDocument(svc().deps, { token: created.tokens[1]! })).toEqual({ status: 'FINISH', processStatus: 'CREATED' });
    expect(await readAndSign(svc().deps, { token: created.tokens[0]! })).toEqual({ status: 'FINISH', processStatus: 'FINISH' });
    const [signer, approver] = created.participants;
    expect((await h.events(created)).slice(3).map((e) => [e.action, e.participant])).toEqual([
      ['DOCUMENT_OPENED', approver!.participant_id],
      ['PARTICIPANT_APPROVE', approver!.participant_id],
      ['DOCUMENT_OPENED', signer!.participant_id],
      ['PARTICIPANT_SIGN', signer!.participant_id],
      ['FINISH', null],
    ]);
  });

  it('PARTICIPANT_SIGN carries the ip and user agent when given, how the signature was made, and signed_at', async () => {
    const created = await h.create({ signers: [{}, {}] });
    await readAndSign(svc().deps, { token: created.tokens[0]!, ip: '203.0.113.7', userAgent: 'Mozilla/5.0' });
    await readAndSign(svc().deps, { token: created.tokens[1]! });
    const signs = (await h.events(created)).filter((e) => e.action === 'PARTICIPANT_SIGN');
    expect(signs.map((e) => e.detail)).toEqual([{ signatureKind: 'font', ip: '203.0.113.7', userAgent: 'Mozilla/5.0' }, { signatureKind: 'font' }]);
    expect((await h.participant(created, 0)).signed_at).toBe(svc().clock.now().toISOString());
  });

  it('sequential turns: order 1 is PENDING and NOT_YOUR_TURN until order 0 signs, then invited by e-mail', async () => {
    const created = await h.create({ signers: [{ order: 0 }, { order: 1 }] });
    const second = created.participants[1]!;
    const invitations = async () => (await h.outbox('email')).filter((m) => m.body.to === second.email && m.body.template === 'signing-invitation');
    expect(await invitations()).toHaveLength(0);
    expect(await refusal(readAndSign(svc().deps, { token: second.link_token }))).toEqual({ statusCode: 400, message: 'NOT_YOUR_TURN' });
    expect(await readAndSign(svc().deps, { token: created.tokens[0]! })).toEqual({ status: 'FINISH', processStatus: 'CREATED' });
    expect((await h.participant(created, 1)).status).toBe('NOTIFICATION');
    const invited = await invitations();
    expect(invited).toHaveLength(1);
    expect(String(invited[0]!.body.text)).toContain(`/s/${second.link_token}`);
    expect(await h.actions(created)).toEqual(['CREATE', 'NOTIFICATION_SIGN', 'DOCUMENT_OPENED', 'PARTICIPANT_SIGN', 'NOTIFICATION_SIGN']);
    expect(await readAndSign(svc().deps, { token: second.link_token })).toEqual({ status: 'FINISH', processStatus: 'FINISH' });
  });

  it('the last signature finishes the process: FINISH in GET /document, the finished webhook and a seal-process job queued', async () => {
    const created = await h.create({ signers: [{}, {}] });
    const seals = async () =>
      (await h.outbox('job')).filter(
        (row) => row.body.name === 'seal-process' && JSON.stringify(row.body.data) === JSON.stringify({ processId: created.process.id }),
      );
    expect(await readAndSign(svc().deps, { token: created.tokens[0]! })).toEqual({ status: 'FINISH', processStatus: 'CREATED' });
    expect(await seals()).toHaveLength(0);
    expect((await h.readApi(created)).json()).toMatchObject({ status: 'CREATED', signFinish: false });
    expect(await readAndSign(svc().deps, { token: created.tokens[1]! })).toEqual({ status: 'FINISH', processStatus: 'FINISH' });
    const read = await h.readApi(created);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ status: 'FINISH', signFinish: true });
    expect(read.json().signProfile.map((p: { status: string }) => p.status)).toEqual(['FINISH', 'FINISH']);
    const queued = await seals();
    expect(queued).toHaveLength(1);
    expect(queued[0]!).toMatchObject({
      organization_id: svc().orgA.id,
      status: 'pending',
      body: { name: 'seal-process', data: { processId: created.process.id } },
    });
    expect((await h.webhooks(created)).filter((e) => e.type === 'document.finished').map((e) => e.data.status)).toEqual(['FINISH']);
  });

  it('concurrent signDocument calls for the same token: exactly one wins', async () => {
    const created = await h.create({ signers: [{}, {}] });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => readAndSign(svc().deps, { token: created.tokens[0]! })));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(answerOf(r.reason)).toEqual({ statusCode: 400, message: 'PARTICIPANT_ALREADY_DONE' });
    }
    expect((await h.actions(created)).filter((a) => a === 'PARTICIPANT_SIGN')).toHaveLength(1);
    expect((await h.processRow(created)).status).toBe('CREATED');
  });

  it('concurrent last signatures of one turn finish the process exactly once', async () => {
    const created = await h.create({ signers: [{}, {}, {}] });
    const results = await Promise.all(created.tokens.map((token) => readAndSign(svc().deps, { token })));
    expect(results.map((r) => r.status)).toEqual(['FINISH', 'FINISH', 'FINISH']);
    expect(results.filter((r) => r.processStatus === 'FINISH')).toHaveLength(1);
    expect((await h.processRow(created)).status).toBe('FINISH');
    expect((await h.actions(created)).filter((a) => a === 'FINISH')).toHaveLength(1);
    expect((await h.outbox('job')).filter((row) => JSON.stringify(row.body.data) === JSON.stringify({ processId: created.process.id }))).toHaveLength(1);
  });
});

describe.each(dialects)('rejectDocument: the reason is required and the process ends REJECTED (%s)', (dialect) => {
  const svc = useService(dialect);
  const h = harness(svc);

  it('REJECT_REASON_REQUIRED unless the reason has 1 to 1000 characters', async () => {
    const created = await h.create({ signers: [{}] });
    const token = created.tokens[0]!;
    for (const reason of ['', '   ', 'x'.repeat(1001)]) {
      expect(await refusal(rejectDocument(svc().deps, { token, reason }))).toEqual({ statusCode: 400, message: 'REJECT_REASON_REQUIRED' });
    }
    expect((await h.processRow(created)).status).toBe('CREATED');
    expect(await rejectDocument(svc().deps, { token, reason: 'x'.repeat(1000) })).toEqual({ status: 'REJECT', processStatus: 'REJECTED' });
  });

  it('reject ends the process REJECTED with the reason: participant REJECT, roadmap PARTICIPANT_REJECT, the rejected webhook', async () => {
    const created = await h.create({ signers: [{}, { order: 1 }] });
    const token = created.tokens[0]!;
    expect(await rejectDocument(svc().deps, { token, reason: 'The amount is wrong' })).toEqual({ status: 'REJECT', processStatus: 'REJECTED' });
    const row = await h.participant(created, 0);
    expect(row).toMatchObject({ status: 'REJECT', reject_reason: 'The amount is wrong', rejected_at: svc().clock.now().toISOString() });
    const read = (await h.readApi(created)).json();
    expect(read).toMatchObject({ status: 'REJECTED', reason: 'The amount is wrong' });
    expect(read.signProfile.map((p: { status: string }) => p.status)).toEqual(['REJECT', 'PENDING']);
    expect(read.signProfile[0]).toMatchObject({ rejectReason: 'The amount is wrong' });
    expect((await h.roadmap(created)).json().activityLog.at(-1)).toMatchObject({
      action: 'PARTICIPANT_REJECT',
      participant: row.participant_id,
      message: 'The amount is wrong',
    });
    const rejected = (await h.webhooks(created)).filter((e) => e.type === 'document.rejected');
    expect(rejected.map((e) => e.data)).toEqual([
      expect.objectContaining({ status: 'REJECT', message: 'The amount is wrong', signer: expect.objectContaining({ id: row.participant_id }) }),
    ]);
    await expectEveryOperationRefused(h.withMatcher(matcher(99)), created.tokens[1]!, 400, 'DOCUMENT_NOT_IN_SIGNATURE');
  });
});

describe.each(dialects)('two organizations never interfere (%s)', (dialect) => {
  const svc = useService(dialect);
  const h = harness(svc);

  it("B's key cannot read A's process (DOCUMENT_NOT_FOUND), and signing A's process changes nothing of B's", async () => {
    const a = await h.create({ signers: [{}] });
    const b = await h.create({ signers: [{}], org: svc().orgB });
    for (const path of ['/document', '/document/roadmap']) {
      const res = await call(svc().app, 'GET', path, { key: svc().orgB.privateKey, query: { code: a.code } });
      expect({ statusCode: res.statusCode, body: res.json() }).toEqual({ statusCode: 400, body: { message: 'DOCUMENT_NOT_FOUND' } });
    }
    const bEventsBefore = await h.events(b);
    expect(await readAndSign(svc().deps, { token: a.tokens[0]! })).toEqual({ status: 'FINISH', processStatus: 'FINISH' });
    expect(await h.events(b)).toEqual(bEventsBefore);
    expect((await h.participant(b, 0)).status).toBe('NOTIFICATION');
    expect((await h.processRow(b)).status).toBe('CREATED');
    const aWebhooks = await h.webhookRows(a.code);
    expect(aWebhooks.map(({ event }) => event.type)).toContain('document.finished');
    expect(new Set(aWebhooks.map(({ row }) => row.organization_id))).toEqual(new Set([svc().orgA.id]));
    const seal = (await h.outbox('job')).filter((row) => JSON.stringify(row.body.data) === JSON.stringify({ processId: a.process.id }));
    expect(seal.map((row) => row.organization_id)).toEqual([svc().orgA.id]);

    // B's token acts on B's process only.
    expect(await rejectDocument(svc().deps, { token: b.tokens[0]!, reason: 'Not mine' })).toEqual({ status: 'REJECT', processStatus: 'REJECTED' });
    expect((await h.processRow(a)).status).toBe('FINISH');
    expect((await h.readApi(b, svc().orgB.privateKey)).json()).toMatchObject({ status: 'REJECTED', reason: 'Not mine' });
    expect((await h.readApi(b)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
  });
});
